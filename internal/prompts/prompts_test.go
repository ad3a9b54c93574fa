package prompts

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"easel/internal/library"
)

func open(t *testing.T) *Store {
	t.Helper()
	lib, err := library.Open(filepath.Join(t.TempDir(), "lib"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	return Open(lib)
}

// Entries are kept, found by words inside them (Chinese too), ranked
// favourites first then by use, and deleted.
func TestKeepFindRankDelete(t *testing.T) {
	s := open(t)
	ctx := context.Background()
	a, err := s.Save(ctx, Entry{Text: "a lighthouse at dusk, poster", Source: "gallery item 3"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := s.Save(ctx, Entry{Kind: Style, Name: "Ink", Text: "in sumi ink, loose brush", Placement: After})
	c, _ := s.Save(ctx, Entry{Text: "复古海报，一只猫"})
	if _, err := s.Save(ctx, Entry{Text: "   "}); err == nil {
		t.Error("an empty prompt was kept")
	}
	for q, want := range map[string]int64{"lighthouse": a, "ink": b, "海报": c, "一只猫": c} {
		got, err := s.List(ctx, Query{Search: q})
		if err != nil || len(got) != 1 || got[0].ID != want {
			t.Errorf("%q finds %v (%v), want entry %d", q, got, err, want)
		}
	}
	_ = s.Used(ctx, b)
	_ = s.SetFavorite(ctx, c, true)
	all, _ := s.List(ctx, Query{})
	if len(all) != 3 || all[0].ID != c || all[1].ID != b || all[2].ID != a {
		t.Errorf("order %v, want the favourite, the used one, then the rest", all)
	}
	if styles, _ := s.List(ctx, Query{Kind: Style}); len(styles) != 1 || styles[0].Name != "Ink" {
		t.Errorf("styles %v", styles)
	}
	_ = s.Delete(ctx, a)
	if got, _ := s.List(ctx, Query{Search: "lighthouse"}); len(got) != 0 {
		t.Errorf("a deleted entry is still found: %v", got)
	}
}

// A style goes before or after the prompt; a prompt entry replaces it.
func TestApply(t *testing.T) {
	ink := Entry{Kind: Style, Text: "in sumi ink", Placement: After}
	if got := ink.Apply("a fox"); got != "a fox, in sumi ink" {
		t.Errorf("after: %q", got)
	}
	if got := ink.Apply("a fox."); got != "a fox. in sumi ink" {
		t.Errorf("after a stop: %q", got)
	}
	ink.Placement = Before
	if got := ink.Apply("a fox"); got != "in sumi ink a fox" {
		t.Errorf("before: %q", got)
	}
	if got := (Entry{Text: "a {animal} in {style}"}).Apply("old"); got != "a {animal} in {style}" {
		t.Errorf("a prompt: %q", got)
	}
	if v := (Entry{Text: "a {animal} in {style}"}).Vars(); len(v) != 2 {
		t.Errorf("vars %v", v)
	}
}

// Export and import round-trip; what is already kept is skipped, and a
// file that is not a library changes nothing.
func TestExportImport(t *testing.T) {
	s, other := open(t), open(t)
	ctx := context.Background()
	s.Save(ctx, Entry{Text: "a lighthouse", Favorite: true})
	s.Save(ctx, Entry{Kind: Style, Text: "in sumi ink", Placement: Before})
	var buf bytes.Buffer
	if n, err := s.Export(ctx, &buf); err != nil || n != 2 {
		t.Fatalf("exported %d: %v", n, err)
	}
	data := buf.Bytes()
	if added, skipped, err := other.Import(ctx, bytes.NewReader(data)); err != nil || added != 2 || skipped != 0 {
		t.Fatalf("imported %d, skipped %d: %v", added, skipped, err)
	}
	if added, skipped, _ := other.Import(ctx, bytes.NewReader(data)); added != 0 || skipped != 2 {
		t.Errorf("again: added %d, skipped %d", added, skipped)
	}
	got, _ := other.List(ctx, Query{})
	if len(got) != 2 || !got[0].Favorite || got[1].Placement != Before {
		t.Errorf("imported %+v", got)
	}
	if _, _, err := other.Import(ctx, strings.NewReader(`{"items":[1,2]}`)); err == nil {
		t.Error("a file that is not a library was taken")
	}
}
