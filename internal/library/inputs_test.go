package library

import (
	"bytes"
	"context"
	"image/color"
	"os"
	"path/filepath"
	"testing"
)

// countFiles is how many files are under dir.
func countFiles(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}

// An edit's inputs and mask are stored with its results, each file once
// however often it is sent, and read back in the order they were sent.
func TestInputsAreKeptOnceByContent(t *testing.T) {
	dir := t.TempDir()
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, b := pngOf(t, 20, 10, color.NRGBA{200, 0, 0, 255}), pngOf(t, 8, 8, color.NRGBA{0, 200, 0, 255})
	m := pngOf(t, 20, 10, color.NRGBA{0, 0, 0, 255})
	inputs := []Input{{Name: "room.png", Data: a.Data}, {Name: "chair.png", Data: b.Data}}
	var ids []int64
	for range 10 { // the same files sent ten times
		id, err := l.Add(ctx, NewItem{Image: pngOf(t, 20, 10, color.NRGBA{1, 2, 3, 255}), Kind: "edit", Prompt: "put the chair in the room",
			Inputs: inputs, Mask: &Input{Name: "mask.png", Data: m.Data}})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if n := countFiles(t, filepath.Join(dir, "inputs")); n != 3 {
		t.Errorf("%d input files for ten edits of the same two images and mask, want 3", n)
	}
	got, err := l.Inputs().Of(ctx, ids[3])
	if err != nil || len(got) != 3 {
		t.Fatalf("inputs %+v, %v", got, err)
	}
	want := []struct {
		role, name string
		data       []byte
		w          int
	}{{RoleImage, "room.png", a.Data, 20}, {RoleImage, "chair.png", b.Data, 8}, {RoleMask, "mask.png", m.Data, 20}}
	for i, w := range want {
		data, err := os.ReadFile(l.Inputs().Path(got[i]))
		if got[i].Role != w.role || got[i].Name != w.name || got[i].Width != w.w || err != nil || !bytes.Equal(data, w.data) {
			t.Errorf("input %d: %+v (%v), want %s %s", i, got[i], err, w.role, w.name)
		}
	}
	if got, _ := l.Inputs().Of(ctx, 999); len(got) != 0 {
		t.Errorf("an unknown item has inputs %v", got)
	}

	// Deleting every item that used them lets the next start drop the
	// stored inputs; a file of Easel's naming that no row holds (a save
	// killed before its row) goes too, and a file of the user's stays.
	for _, id := range ids[:9] {
		if err := l.Delete(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	stray := filepath.Join(dir, "inputs", "ab", "ab"+string(bytes.Repeat([]byte("0"), 62))+".png")
	os.MkdirAll(filepath.Dir(stray), 0o700)
	os.WriteFile(stray, a.Data, 0o600)
	mine := filepath.Join(dir, "inputs", "notes.txt")
	os.WriteFile(mine, []byte("mine"), 0o600)
	l.Close()
	if l, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	if n := countFiles(t, filepath.Join(dir, "inputs")); n != 4 {
		t.Errorf("%d files in inputs/ with one edit left, want its 3 and the user's note", n)
	}
	if _, err := os.Stat(stray); err == nil {
		t.Error("an input file no row holds was kept")
	}
	if got, _ := l.Inputs().Of(ctx, ids[9]); len(got) != 3 {
		t.Errorf("the edit left has %d inputs, want 3", len(got))
	}
	l.Delete(ctx, ids[9])
	l.Close()
	if l, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if n := countFiles(t, filepath.Join(dir, "inputs")); n != 1 {
		t.Errorf("%d files in inputs/ with no edit left, want only the user's note", n)
	}
}
