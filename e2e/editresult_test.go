//go:build e2e

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"easel/internal/library"
)

// Of four results on a card, each has its own Edit: the first one's
// Edit makes the first image Edit's input, and the edit sent from it
// names that image as its parent (issue 40, item 12: "Edit result 4 of
// 4" took the last while the first was shown large).
func TestEachResultOnACardHasItsOwnEdit(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	p := start(t, bin, home, "--demo")
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	p.sendFour(ctx, "four boats to choose from")
	lib, err := library.Open(filepath.Join(home, "easel"))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	var made []library.Item
	for len(made) < 4 {
		made, _ = lib.List(ctx, library.Query{Search: "boats", Limit: 10})
		if ctx.Err() != nil {
			save(t, "/tmp/er-fail.png", p.screenshot())
			t.Fatalf("the four images never arrived: %d", len(made))
		}
		time.Sleep(200 * time.Millisecond)
	}
	time.Sleep(1500 * time.Millisecond) // the card shows its results
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "card-four-results.png"), p.screenshot())
	}
	p.click(editFirstX, editFirstY) // the first result's own Edit
	time.Sleep(800 * time.Millisecond)
	p.key("ctrl+3")
	p.typeText("make the first one red")
	p.key("ctrl+Return")
	var edit library.Item
	for edit.ID == 0 {
		items, _ := lib.List(ctx, library.Query{Search: "first one red", Limit: 5})
		for _, it := range items {
			if it.Kind == "edit" {
				edit = it
			}
		}
		if ctx.Err() != nil {
			t.Fatal("no edit was sent from the first result")
		}
		time.Sleep(200 * time.Millisecond)
	}
	full, err := lib.Get(ctx, edit.ID)
	if err != nil || len(full.Parents) == 0 {
		t.Fatalf("the edit has no parent (%v)", err)
	}
	// The list is newest first: the first image made is the last listed.
	first := made[len(made)-1]
	for _, it := range made {
		if it.ID < first.ID {
			first = it
		}
	}
	if full.Parents[0] != first.ID {
		t.Errorf("the edit's parent is item %d, the first result is %d", full.Parents[0], first.ID)
	}
}

// Where the first result's Edit sits on the first card at 1280x800.
var editFirstX, editFirstY = 727, 249
