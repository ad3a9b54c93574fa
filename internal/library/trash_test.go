package library

import (
	"context"
	"image/color"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Deleting moves items to the trash: gone from lists and counts, back
// with Restore, and removed for good (rows and files) when the trash is
// emptied, or at the next start after a crash.
func TestDeleteCanBeUndoneUntilTheTrashIsEmptied(t *testing.T) {
	dir := t.TempDir()
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var ids []int64
	for i := 0; i < 4; i++ {
		id, _ := l.Add(ctx, NewItem{Image: pngOf(t, 8, 8, color.NRGBA{uint8(i), 0, 0, 255}), Kind: "generate", Prompt: "a kite", Model: "m"})
		ids = append(ids, id)
	}
	if err := l.Trash().Put(ctx, ids[:2]); err != nil {
		t.Fatal(err)
	}
	if n, _ := l.Count(ctx, Query{}); n != 2 {
		t.Errorf("%d listed with two in the trash", n)
	}
	if items, _ := l.List(ctx, Query{Search: "kite"}); len(items) != 2 {
		t.Errorf("search finds %d", len(items))
	}
	l.Trash().Restore(ctx, ids[:1])
	if n, _ := l.Count(ctx, Query{}); n != 3 {
		t.Errorf("%d listed after Undo of one", n)
	}
	gone, _ := l.Get(ctx, ids[1])
	if err := l.Trash().Empty(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(l.Path(gone)); err == nil {
		t.Error("an emptied item's file stays")
	}
	if _, err := l.Get(ctx, ids[1]); err != ErrNotFound {
		t.Errorf("an emptied item's row: %v", err)
	}
	// A crash with items in the trash: the next start empties it.
	l.Trash().Put(ctx, ids[2:3])
	l.Close()
	if l, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if n, _ := l.Trash().Count(ctx); n != 0 {
		t.Errorf("%d still in the trash after a restart", n)
	}
	if n, _ := l.Count(ctx, Query{}); n != 2 {
		t.Errorf("%d items after the restart, want 2", n)
	}
}

// An image imported twice is kept once; it is an imported item.
func TestImportKeepsTheSameContentOnce(t *testing.T) {
	l := open(t)
	ctx := context.Background()
	img := pngOf(t, 20, 10, color.NRGBA{9, 9, 9, 255})
	p := filepath.Join(t.TempDir(), "sketch.png")
	os.WriteFile(p, img.Data, 0o600)
	old := time.Now().AddDate(-3, 0, 0)
	os.Chtimes(p, old, old) // a file from years ago
	first, err := l.Import(ctx, p, img.Data)
	if err != nil || first.Existing {
		t.Fatalf("first import %+v, %v", first, err)
	}
	again, err := l.Import(ctx, p, img.Data)
	if err != nil || !again.Existing || again.ID != first.ID {
		t.Errorf("second import %+v, %v: want the first item", again, err)
	}
	it, _ := l.Get(ctx, first.ID)
	if it.Kind != "imported" || it.Width != 20 {
		t.Errorf("imported %+v", it)
	}
	if time.Since(it.Created) > time.Minute {
		t.Errorf("an import dated %v goes among the old pictures, not where new ones go", it.Created)
	}
	if n, _ := l.Count(ctx, Query{Kinds: []string{"imported"}}); n != 1 {
		t.Errorf("%d imported", n)
	}
	if _, err := l.Import(ctx, "notes.txt", []byte("not an image")); err == nil {
		t.Error("a text file was imported")
	}
}

// An item's children are what was made from it.
func TestChildren(t *testing.T) {
	l := open(t)
	ctx := context.Background()
	img := pngOf(t, 8, 8, color.NRGBA{1, 2, 3, 255})
	parent, _ := l.Add(ctx, NewItem{Image: img, Kind: "generate", Prompt: "p"})
	edit, _ := l.Add(ctx, NewItem{Image: img, Kind: "edit", Prompt: "e", Parents: []int64{parent}})
	kept, _ := l.Add(ctx, NewItem{Image: img, Kind: "kept", Prompt: "e", Parents: []int64{edit, parent}})
	kids, err := l.Lineage().Children(ctx, parent)
	if err != nil || len(kids) != 2 || kids[0].ID != kept || kids[1].ID != edit {
		t.Errorf("children of the parent: %v, %v", kids, err)
	}
	if kids, _ := l.Lineage().Children(ctx, kept); len(kids) != 0 {
		t.Errorf("the kept item has children %v", kids)
	}
}
