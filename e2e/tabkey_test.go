//go:build e2e

package e2e

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"easel/internal/library"
)

// Tab in the prompt moves on to the options; it types no tab character
// (issue 40, item 9: a prompt became "group test\t\t\t…").
func TestTabInThePromptMovesOn(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	p := start(t, bin, home, "--demo")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p.waitDrawn(ctx)
	p.waitSettled(ctx)
	p.key("ctrl+2")
	time.Sleep(400 * time.Millisecond)
	p.typeText("a boat in fog")
	p.key("Tab")
	p.key("Tab")
	p.key("ctrl+Return")
	p.waitInLibrary(ctx, home, "fog")
	lib, err := library.Open(filepath.Join(home, "easel"))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	items, _ := lib.List(ctx, library.Query{Search: "fog", Limit: 2})
	if len(items) == 0 || items[0].Prompt != "a boat in fog" {
		t.Errorf("the prompt sent was %q", items[0].Prompt)
	}
}
