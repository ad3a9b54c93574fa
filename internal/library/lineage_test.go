package library

import (
	"context"
	"database/sql"
	"image/color"
	"path/filepath"
	"testing"
	"time"
)

// A thread starts from the first picture continued; each continuation
// is a turn after the picture it continued, one from an earlier turn a
// branch beside the later ones; every picture of the thread names it
// whole, numbered in the order made; deleting a turn's picture takes
// only that turn.
func TestAThreadKeepsTurnsAndBranches(t *testing.T) {
	l := open(t)
	ctx := context.Background()
	t0 := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	add := func(prompt string, at time.Duration) int64 {
		t.Helper()
		id, err := l.Add(ctx, NewItem{Image: pngOf(t, 8, 8, color.NRGBA{uint8(at / time.Minute), 2, 3, 255}), Kind: "edit", Prompt: prompt, Created: t0.Add(at)})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	start := add("a lighthouse", 0)
	if turns, err := l.Lineage().Thread(ctx, start); err != nil || turns != nil {
		t.Fatalf("a picture never continued is in a thread: %v %v", turns, err)
	}
	warmer, redder, branch := add("warmer", time.Minute), add("redder", 2*time.Minute), add("bluer instead", 3*time.Minute)
	drift := 0.23
	for _, turn := range []Turn{
		{Item: warmer, Parent: start, Way: WayImages, Drift: &drift, Created: t0.Add(time.Minute)},
		{Item: redder, Parent: warmer, Way: WayResponses, Response: "resp_2", Created: t0.Add(2 * time.Minute)},
		{Item: branch, Parent: start, Way: WayImages, Note: "the gateway has no /v1/responses", Created: t0.Add(3 * time.Minute)},
	} {
		if err := l.Lineage().AddTurn(ctx, turn); err != nil {
			t.Fatal(err)
		}
	}
	for _, from := range []int64{start, redder, branch} {
		turns, err := l.Lineage().Thread(ctx, from)
		if err != nil || len(turns) != 4 {
			t.Fatalf("the thread from %d: %v %v", from, turns, err)
		}
		want := []Turn{{Item: start}, {Item: warmer, Parent: start}, {Item: redder, Parent: warmer}, {Item: branch, Parent: start}}
		for i, w := range want {
			if g := turns[i]; g.Item != w.Item || g.Parent != w.Parent || g.Thread != start || g.Number != i+1 {
				t.Errorf("turn %d: %+v, want %+v in thread %d", i+1, g, w, start)
			}
		}
		if g := turns[1]; g.Drift == nil || *g.Drift != 0.23 || g.Way != WayImages || turns[2].Response != "resp_2" || turns[3].Note == "" {
			t.Errorf("what the turns kept: %+v", turns)
		}
	}
	lone := add("never continued", 4*time.Minute)
	threaded, err := l.List(ctx, Query{Threaded: true})
	if err != nil || len(threaded) != 4 {
		t.Errorf("the gallery's threaded pictures: %d, %v", len(threaded), err)
	}
	for _, it := range threaded {
		if it.ID == lone {
			t.Error("a picture in no thread is listed as threaded")
		}
	}
	if err := l.Delete(ctx, redder); err != nil {
		t.Fatal(err)
	}
	if turns, _ := l.Lineage().Thread(ctx, start); len(turns) != 3 {
		t.Errorf("after deleting a turn's picture: %+v", turns)
	}
}

// Version 15 adds threads to a gallery written at 14, which has none:
// its edits keep their parents, and the first continuation starts one.
func TestSchema15StartsWithNoThreads(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lib")
	copyTree(t, filepath.Join("testdata", "v14", "library"), dir)
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	var n int
	if err := l.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM turns`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("turns after the upgrade: %d, %v", n, err)
	}
	var item, parent int64
	if err := l.db.QueryRowContext(ctx, `SELECT item, parent FROM parents WHERE position = 0 LIMIT 1`).Scan(&item, &parent); err == sql.ErrNoRows || err != nil {
		t.Fatalf("the fixture's lineage: %v", err)
	}
	if err := l.Lineage().AddTurn(ctx, Turn{Item: item, Parent: parent, Way: WayImages}); err != nil {
		t.Fatal(err)
	}
	if turns, err := l.Lineage().Thread(ctx, item); err != nil || len(turns) != 2 || turns[0].Item != parent {
		t.Errorf("the first thread: %+v, %v", turns, err)
	}
}

// How a turn went is said the same everywhere: in the conversation (and
// what the service did), why not, or what was done here.
func TestWaySaid(t *testing.T) {
	for _, c := range []struct {
		turn Turn
		want string
	}{
		{Turn{}, ""},
		{Turn{Way: WayImages}, ""},
		{Turn{Way: WayResponses}, "sent in the service's conversation"},
		{Turn{Way: WayResponses, Note: "the gateway dropped it"}, "sent in the service's conversation (the gateway dropped it)"},
		{Turn{Way: WayImages, Note: "Sent through the Images API: no route."}, "Sent through the Images API: no route."},
		{Turn{Way: WayRestored, Note: "the painted area taken back from turn 1"}, "the painted area taken back from turn 1"},
	} {
		if got := c.turn.WaySaid(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.turn, got, c.want)
		}
	}
}
