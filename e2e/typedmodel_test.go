//go:build e2e

package e2e

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"easel/internal/library"
)

// A model the service does not list works when typed in the window
// (issue 39): gpt-image-2.5-sunburst, served by the demo but missing
// from its /v1/models as gateways' lists lagged GPT Image 2.5, is sent
// as typed and its image lands in the gallery under that name.
func TestATypedUnlistedModelWorksInTheWindow(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	p := start(t, bin, home, "--demo")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	p.waitDrawn(ctx)
	p.waitSettled(ctx)
	p.key("ctrl+2")
	time.Sleep(500 * time.Millisecond)
	p.click(300, 292) // the model field
	p.key("ctrl+a")
	p.typeText("gpt-image-2.5-sunburst")
	time.Sleep(300 * time.Millisecond)
	p.click(270, 166) // the prompt
	p.typeText("a harbour drawn by a model not listed")
	p.key("ctrl+Return")
	p.waitInLibrary(ctx, home, "listed")
	lib, err := library.Open(filepath.Join(home, "easel"))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	items, _ := lib.List(ctx, library.Query{Search: "listed", Limit: 2})
	if len(items) == 0 || items[0].Model != "gpt-image-2.5-sunburst" {
		t.Errorf("made by %+v", items)
	}
}
