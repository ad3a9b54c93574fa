package library

import (
	"context"
	"image/color"
	"path/filepath"
	"strings"
	"testing"
)

// Version 18: a picture imported from a file keeps the file's name; one
// imported before it has none, and is read as it was.
func TestAnUpgradedLibraryNamesNewImportsOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lib")
	copyTree(t, filepath.Join("testdata", "v17", "library"), dir)
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	old, err := l.Get(ctx, 12)
	if err != nil || old.Kind != "imported" || old.SourceName != "" {
		t.Fatalf("the import made at 17: %+v, %v; want imported with no name", old, err)
	}
	imp, err := l.Import(ctx, filepath.Join(t.TempDir(), "Logo final.png"), pngOf(t, 8, 8, color.NRGBA{G: 200, A: 255}).Data)
	if err != nil {
		t.Fatal(err)
	}
	it, err := l.Get(ctx, imp.ID)
	if err != nil || it.SourceName != "Logo final.png" {
		t.Errorf("a new import: %+v, %v; want it named Logo final.png", it, err)
	}
	for _, search := range []string{"logo", "Final", "go", "logo lighthouse"} {
		want := 1
		if search == "logo lighthouse" {
			want = 0 // every word is found in the prompt or the name
		}
		if n, err := l.Count(ctx, Query{Search: search}); err != nil || n != want {
			t.Errorf("searching %q finds %d (%v), want %d", search, n, err, want)
		}
	}
	var plan []string
	rows, err := l.db.QueryContext(ctx, `EXPLAIN QUERY PLAN SELECT id FROM items WHERE source_name != '' AND source_name LIKE '%x%'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	rows.Close()
	if p := strings.Join(plan, "; "); !strings.Contains(p, "items_imported") {
		t.Errorf("a name is searched by %q, not through the index of imported pictures", p)
	}
	items, err := l.List(ctx, Query{Kinds: []string{"imported"}})
	if err != nil || len(items) != 2 || items[0].SourceName != "Logo final.png" {
		t.Errorf("the imports listed: %+v, %v", items, err)
	}
}

// What is kept of a file's name is its last element, printable, within
// a file system's bound: the folders can name the user, and a name is
// shown in the window.
func TestASourceNameIsTheFilesOwnNameCleaned(t *testing.T) {
	long := strings.Repeat("é", 200) + ".png" // 404 bytes
	for path, want := range map[string]string{
		"/home/dana/Pictures/Harbour sketch.png": "Harbour sketch.png",
		`C:\Users\dana\logo.webp`:                "logo.webp",
		"plain.jpg":                              "plain.jpg",
		"/tmp/bell\a\x1b[31m.png":                "bell[31m.png",
		"/tmp/bad\xffbyte.png":                   "badbyte.png",
		"":                                       "",
	} {
		if got := sourceName(path); got != want {
			t.Errorf("sourceName(%q) = %q, want %q", path, got, want)
		}
	}
	// 255 bytes cut at a character: 127 two-byte letters.
	if got := sourceName("/x/" + long); got != strings.Repeat("é", 127) {
		t.Errorf("a long name kept as %d bytes: %q", len(got), got)
	}
}
