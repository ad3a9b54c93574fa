package library

import (
	"context"
	"fmt"
	"image/color"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// fill inserts n rows straight into the index (no files: paging and
// filters read rows only), made i milliseconds after base, each with the
// settings set gives it.
func fill(t testing.TB, l *Library, n int, set func(i int) (model, profile, kind, format string, w, h int, fav bool)) {
	t.Helper()
	tx, err := l.db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	stmt, err := tx.Prepare(`INSERT INTO items (file, format, width, height, size_bytes, kind, prompt, model, profile, created_ms, favorite)
		VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		model, profile, kind, format, w, h, fav := "gpt-image-1", "work", "generate", "png", 64, 64, false
		if set != nil {
			model, profile, kind, format, w, h, fav = set(i)
		}
		if _, err := stmt.Exec(fmt.Sprintf("images/x/%d.%s", i, format), format, w, h, kind, fmt.Sprintf("image %d", i), model, profile,
			base.Add(time.Duration(i)*time.Millisecond).UnixMilli(), fav); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

var base = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Keyset paging reaches the last item of a 100,000-item library: page by
// page from the first, and at once by a jump to the end; a page found
// from its neighbour after it, or by a jump to the middle, is the page
// an offset would give.
func TestPagingReachesTheLastOf100k(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 rows")
	}
	l := open(t)
	const n = 100_000
	// One statement, run inside SQLite: 100,000 inserts through
	// database/sql take minutes under the race detector.
	if _, err := l.db.Exec(`INSERT INTO items (file, format, width, height, size_bytes, kind, prompt, created_ms)
		WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM c WHERE i < ?)
		SELECT 'images/x/' || i || '.png', 'png', 64, 64, 1, 'generate', 'image ' || i, ? + i FROM c`, n-1, base.UnixMilli()); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	p := l.NewPager(Query{}, 200)
	if c, err := p.Count(ctx); err != nil || c != n {
		t.Fatalf("count %d, %v", c, err)
	}
	// The end, at once.
	if err := p.Load(ctx, p.Page(n-1)); err != nil {
		t.Fatal(err)
	}
	last, ok := p.Item(n - 1)
	if !ok || last.Prompt != "image 0" {
		t.Fatalf("the last item is %+v, want the oldest", last)
	}
	// Every page from the first, each after the one before (pages of
	// 2,000 here, for the race detector's sake: the keyset is the same).
	const size = 2000
	walk := l.NewPager(Query{}, size)
	walk.Count(ctx)
	prev := Key{CreatedMs: 1 << 62}
	seen := 0
	for page := 0; page*size < n; page++ {
		if err := walk.Load(ctx, page); err != nil {
			t.Fatal(err)
		}
		for i := page * size; i < min(n, (page+1)*size); i++ {
			it, ok := walk.Item(i)
			if !ok {
				t.Fatalf("item %d not loaded", i)
			}
			if k := it.Key(); k.CreatedMs > prev.CreatedMs || (k.CreatedMs == prev.CreatedMs && k.ID >= prev.ID) {
				t.Fatalf("item %d out of order", i)
			}
			prev = it.Key()
			seen++
		}
	}
	if seen != n || prev.CreatedMs != base.UnixMilli() {
		t.Fatalf("walked %d items, ending at %d", seen, prev.CreatedMs)
	}
	// A page from the one after it, and one in the middle, as an offset
	// reads them.
	for _, pages := range [][]int{{301, 300}, {250}} {
		pg := l.NewPager(Query{}, 200)
		pg.Count(ctx)
		for _, pn := range pages {
			if err := pg.Load(ctx, pn); err != nil {
				t.Fatal(err)
			}
		}
		pn := pages[len(pages)-1]
		want, _ := l.List(ctx, Query{Limit: 200, Offset: pn * 200})
		for k, w := range want {
			got, _ := pg.Item(pn*200 + k)
			if got.ID != w.ID {
				t.Fatalf("page %d (after %v) item %d is %d, want %d", pn, pages, k, got.ID, w.ID)
			}
		}
	}
	// Memory stays bounded: no more than MaxPages kept.
	if len(walk.pages) > MaxPages {
		t.Errorf("%d pages kept", len(walk.pages))
	}
}

// Each filter, and combinations, return the rows they say, in order.
func TestFiltersReturnTheRightRows(t *testing.T) {
	l := open(t)
	models := []string{"gpt-image-1", "dall-e-3", "gpt-image-2"}
	kinds := []string{"generate", "edit", "kept", "imported"}
	formats := []string{"png", "jpeg", "webp"}
	type row struct {
		model, profile, kind, format string
		w, h                         int
		fav                          bool
		at                           time.Time
	}
	var rows []row
	set := func(i int) (string, string, string, string, int, int, bool) {
		r := row{models[i%3], []string{"work", "home"}[i%2], kinds[i%4], formats[i%3], 64 + 32*(i%3), 64 + 32*((i/3)%3), i%5 == 0, base.Add(time.Duration(i) * time.Millisecond)}
		rows = append(rows, r)
		return r.model, r.profile, r.kind, r.format, r.w, r.h, r.fav
	}
	fill(t, l, 240, set)
	ctx := context.Background()
	cut := base.Add(100 * time.Millisecond)
	for _, c := range []struct {
		name string
		q    Query
		keep func(r row) bool
	}{
		{"model", Query{Model: "dall-e-3"}, func(r row) bool { return r.model == "dall-e-3" }},
		{"profile", Query{Profile: "home"}, func(r row) bool { return r.profile == "home" }},
		{"kinds", Query{Kinds: []string{"edit", "kept"}}, func(r row) bool { return r.kind == "edit" || r.kind == "kept" }},
		{"format", Query{Format: "webp"}, func(r row) bool { return r.format == "webp" }},
		{"square", Query{Orientation: Square}, func(r row) bool { return r.w == r.h }},
		{"landscape", Query{Orientation: Landscape}, func(r row) bool { return r.w > r.h }},
		{"portrait", Query{Orientation: Portrait}, func(r row) bool { return r.w < r.h }},
		{"from", Query{From: cut}, func(r row) bool { return !r.at.Before(cut) }},
		{"to", Query{To: cut}, func(r row) bool { return r.at.Before(cut) }},
		{"favourites", Query{Favorites: true}, func(r row) bool { return r.fav }},
		{"combined", Query{Model: "gpt-image-1", Kinds: []string{"generate"}, Orientation: Landscape, From: base.Add(20 * time.Millisecond), Favorites: true},
			func(r row) bool {
				return r.model == "gpt-image-1" && r.kind == "generate" && r.w > r.h && !r.at.Before(base.Add(20*time.Millisecond)) && r.fav
			}},
		{"search and format", Query{Search: "image 1", Format: "png"}, func(r row) bool { return r.format == "png" }},
	} {
		var want []string
		for i, r := range rows {
			if c.keep(r) {
				want = append(want, fmt.Sprintf("image %d", i))
			}
		}
		if c.name == "search and format" {
			// "image 1" matches every prompt with "image" and a 1
			// anywhere (search finds text inside words).
			var w []string
			for _, p := range want {
				if strings.Contains(p[6:], "1") {
					w = append(w, p)
				}
			}
			want = w
		}
		slices.Reverse(want) // newest first
		for _, oldest := range []bool{false, true} {
			q := c.q
			q.Oldest, q.Limit = oldest, 1000
			items, err := l.List(ctx, q)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			var got []string
			for _, it := range items {
				got = append(got, it.Prompt)
			}
			w := want
			if oldest {
				w = slices.Clone(want)
				slices.Reverse(w)
			}
			if !slices.Equal(got, w) {
				t.Errorf("%s (oldest %v): %d rows, want %d", c.name, oldest, len(got), len(w))
			}
			if n, _ := l.Count(ctx, q); n != len(w) {
				t.Errorf("%s: count %d, want %d", c.name, n, len(w))
			}
		}
	}
	f, err := l.Facets(ctx)
	if err != nil || len(f.Models) != 3 || len(f.Profiles) != 2 || len(f.Formats) != 3 || f.Models[0] != "dall-e-3" {
		t.Errorf("facets %+v, %v", f, err)
	}
}

// Search finds Chinese words inside prompts, which have no spaces
// between words: a two-character word as well as a longer run, and
// English inside words as before.
func TestSearchFindsChineseWordsInsidePrompts(t *testing.T) {
	l := open(t)
	ctx := context.Background()
	for _, p := range []string{"复古海报，一只猫", "a lighthouse at dusk", "水彩风格的灯塔", "poster_2 50%"} {
		if _, err := l.Add(ctx, NewItem{Image: pngOf(t, 8, 8, color.NRGBA{1, 2, 3, 255}), Kind: "generate", Prompt: p, Model: "gpt-image-1"}); err != nil {
			t.Fatal(err)
		}
	}
	for search, want := range map[string]int{
		"海报": 1, "复古海报": 1, "猫": 1, "海报 猫": 1, "灯塔": 1, "水彩风格": 1, "海报猫": 0,
		"light": 1, "house": 1, "a": 1, "50%": 1, "_2": 1, "poster": 1,
		"%": 4, `"`: 4, // punctuation alone is no search
	} {
		if n, err := l.Count(ctx, Query{Search: search}); err != nil || n != want {
			t.Errorf("%q finds %d (%v), want %d", search, n, err, want)
		}
	}
}

// A gallery of version 7 finds the Chinese prompt it held once upgraded,
// and Chat finds a Chinese word inside a reply.
func TestTheUpgradedIndexFindsChinese(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lib")
	copyTree(t, filepath.Join("testdata", "v7", "library"), dir)
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	items, err := l.List(ctx, Query{Search: "海报"})
	if err != nil || len(items) != 1 || items[0].Prompt != "复古海报，一只猫" {
		t.Errorf("海报 finds %+v (%v)", items, err)
	}
	if n, _ := l.Count(ctx, Query{Search: "lighthouse"}); n != 3 {
		t.Errorf("lighthouse finds %d, want 3", n)
	}
}
