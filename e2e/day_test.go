//go:build e2e

package e2e

import (
	"context"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"easel/internal/library"
)

// A prompt the service rewrote is kept when the answer was streamed too
// (issue 40, item 8): through a gateway that rewrites prompts, a
// generation from the real window, streamed as Text to image sends it,
// is in the gallery with the prompt the gateway used.
func TestAStreamedRewrittenPromptIsKept(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	base := serveDemoWith(t, bin, "--gateway", "rewrite-prompt")
	home := t.TempDir()
	writeProfiles(t, home, `{"active":"p-rewrite","profiles":[{"id":"p-rewrite","name":"Rewriting gateway","base_url":"`+base+`"}]}`)
	p := start(t, bin, home)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p.waitDrawn(ctx)
	p.waitSettled(ctx)
	p.generate("a lighthouse rewritten")
	p.waitInLibrary(ctx, home, "lighthouse")
	lib, err := library.Open(filepath.Join(home, "easel"))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	items, _ := lib.List(ctx, library.Query{Search: "lighthouse", Limit: 5})
	if len(items) == 0 || !strings.Contains(items[0].RevisedPrompt, "masterpiece") {
		t.Fatalf("the streamed answer's rewritten prompt was not kept: %+v", items)
	}
	if !items[0].Params.Stream {
		t.Error("the request was not streamed: this test is of a streamed answer")
	}
}

// wideFirst writes a 1000x300 picture, a shape no image model makes, so
// Edit pads it to send and crops the kept result back.
func wideFirst(t *testing.T, home string) string {
	img := image.NewNRGBA(image.Rect(0, 0, 1000, 300))
	for y := 0; y < 300; y++ {
		for x := 0; x < 1000; x++ {
			img.SetNRGBA(x, y, color.NRGBA{uint8(x * 255 / 1000), uint8(90 + y/3), 160, 255})
		}
	}
	path := filepath.Join(home, "wide.png")
	save(t, path, img)
	return path
}

// startNarrow starts the window on the demo with the wide picture in
// Edit, at 1024x700, once the painter shows it.
func startNarrow(ctx context.Context, t *testing.T, bin, home string) *proc {
	t.Helper()
	rememberWindowSize(t, home, 1024, 700)
	p := start(t, bin, home, "--demo", wideFirst(t, home))
	p.waitSettled(ctx)
	if w := p.windowWidth(); w != 1024 {
		t.Fatalf("the window opened %d wide, not at its remembered 1024", w)
	}
	p.waitPicture(ctx, "the wide picture in the painter", image.Rect(100, 330, 600, 480))
	return p
}

// keptEdit paints a stroke of mask on the wide picture, as the painter
// shows it at 1280x800 (or at 1024x700 when narrow), and sends a kept
// edit; it waits for the kept copy in the gallery.
func (p *proc) keptEdit(ctx context.Context, home, prompt string, narrow bool) library.Item {
	p.t.Helper()
	stroke, promptAt := [4]int{250, 420, 620, 420}, image.Pt(1100, 170)
	if narrow {
		stroke, promptAt = [4]int{150, 400, 550, 400}, image.Pt(830, 170)
	}
	// Each step waits to be seen: on a loaded machine a stroke or keys
	// can still be on their way when the next step begins.
	band := image.Rect(stroke[0], stroke[1]-12, stroke[2], stroke[3]+12)
	unpainted := p.screenshot().SubImage(band)
	p.drag(stroke[0], stroke[1], stroke[2], stroke[3])
	p.waitScreen(ctx, "the painted stroke", func(img *image.RGBA) bool {
		return differingPixels(unpainted, img.SubImage(band)) > 300
	})
	box := image.Rect(promptAt.X-200, promptAt.Y-40, promptAt.X+150, promptAt.Y+40)
	p.click(promptAt.X, promptAt.Y)
	time.Sleep(200 * time.Millisecond)
	empty := p.screenshot().SubImage(box)
	p.typeText(prompt)
	p.waitScreen(ctx, "the typed prompt", func(img *image.RGBA) bool {
		return differingPixels(empty, img.SubImage(box)) > 200
	})
	time.Sleep(300 * time.Millisecond)
	p.key("ctrl+Return")
	lib, err := library.Open(filepath.Join(home, "easel"))
	if err != nil {
		p.t.Fatal(err)
	}
	defer lib.Close()
	for {
		items, _ := lib.List(ctx, library.Query{Search: prompt, Limit: 10})
		for _, it := range items {
			if it.Kind == "kept" {
				return it
			}
		}
		select {
		case <-ctx.Done():
			last := filepath.Join(lastScreenDir(p.t), "timeout.png")
			save(p.t, last, p.screenshot())
			p.t.Fatalf("no kept copy arrived (last screen: %s): %+v\n%s", last, items, p.out)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// A kept edit of a 1000x300 picture (sent padded to 1536x1024) is listed
// at its own file's size, 1000x300 (issue 40, item 7), as is every item
// the edit made; and the Gallery's Compare… sets it against the picture
// as the user gave it, each at its own aspect (item 6): above the wide
// band the before half shows the dialog, not a picture stretched to 3:2.
func TestAKeptOddShapedEditIsItsOwnSizeAndComparedWithThePicture(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	p := start(t, bin, home, "--demo", wideFirst(t, home))
	p.waitDrawn(ctx)
	p.waitSettled(ctx)
	p.waitPicture(ctx, "the wide picture in the painter", image.Rect(100, 350, 800, 560))
	kept := p.keptEdit(ctx, home, "an odd shaped keep", false)
	if kept.Width != 1000 || kept.Height != 300 {
		t.Errorf("the kept copy is listed as %dx%d, not the picture's 1000x300", kept.Width, kept.Height)
	}
	lib, err := library.Open(filepath.Join(home, "easel"))
	if err != nil {
		t.Fatal(err)
	}
	items, _ := lib.List(ctx, library.Query{Search: "odd shaped", Limit: 10})
	for _, it := range items {
		f, err := os.Open(lib.Path(it))
		if err != nil {
			t.Fatal(err)
		}
		cfg, _, err := image.DecodeConfig(f)
		f.Close()
		if err != nil || cfg.Width != it.Width || cfg.Height != it.Height {
			t.Errorf("item %d (%s) is listed as %dx%d; its file is %dx%d (%v)", it.ID, it.Kind, it.Width, it.Height, cfg.Width, cfg.Height, err)
		}
	}
	lib.Close()
	// The Gallery, newest first: the kept copy is the first cell, opened
	// with the arrows and Enter, then its details' Compare….
	p.key("ctrl+4")
	time.Sleep(time.Second)
	p.key("Right")
	p.key("Left")
	time.Sleep(500 * time.Millisecond)
	p.click(1060, 450)
	for range 12 {
		xdo(t, "click", "5")
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(800 * time.Millisecond)
	p.click(1158, 438) // Compare…
	shot := p.waitScreen(ctx, "the compare dialog", func(img *image.RGBA) bool {
		return coloured(img, image.Rect(650, 300, 1050, 500)) > 20000
	})
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "compare-odd-shaped.png"), shot)
	}
	// The before half, above the band where a 1000x300 picture sits:
	// dialog grey, where a picture stretched to 3:2 was coloured.
	if n := coloured(shot, image.Rect(260, 160, 620, 250)); n > 500 {
		t.Errorf("%d coloured pixels above the picture in the before half: it is stretched, not at its own aspect", n)
	}
	if n := coloured(shot, image.Rect(260, 300, 620, 500)); n < 20000 {
		t.Errorf("only %d coloured pixels where the user's picture should show", n)
	}
}

// At 1024x700 a kept edit's card leaves the window at its width (issue
// 40, item 2): its status wraps rather than widen the side panel and
// push Send edit and the status bar off the screen.
func TestAKeptEditAt1024KeepsTheWindowOnScreen(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	p := startNarrow(ctx, t, bin, home)
	p.keptEdit(ctx, home, "a narrow keep", true)
	time.Sleep(1500 * time.Millisecond) // the card fills in
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "kept-edit-card-1024.png"), p.screenshot())
	}
	if w := p.windowWidth(); w != 1024 {
		t.Errorf("after a kept edit at 1024x700 the window is %d wide", w)
	}
}

// The keyboard reaches what it should (issue 40, item 9): Ctrl+4 under
// Settings changes nothing and Esc closes Settings; the Gallery arrives
// with its grid focused, so Right and Enter open an image large; Delete
// asks and Enter keeps the image; a letter typed on the grid searches.
func TestTheKeyboardReachesDialogsAndTheGallery(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	seedColoured(t, home, 3)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	p := start(t, bin, home, "--demo")
	p.waitDrawn(ctx)
	before := p.waitSettled(ctx)

	p.key("ctrl+comma")
	time.Sleep(1500 * time.Millisecond)
	settings := p.screenshot()
	if n := differingPixels(before, settings); n < 20000 {
		t.Fatalf("Ctrl+, changed only %d pixels: no Settings?", n)
	}
	p.key("ctrl+4")
	time.Sleep(800 * time.Millisecond)
	if n := differingPixels(settings, p.screenshot()); n > 3000 {
		t.Errorf("Ctrl+4 under Settings changed %d pixels: the tab switched under the dialog", n)
	}
	p.key("Escape")
	time.Sleep(800 * time.Millisecond)
	if n := differingPixels(before, p.screenshot()); n > 3000 {
		t.Errorf("Esc left %d pixels changed: Settings did not close", n)
	}

	p.key("ctrl+4")
	time.Sleep(1200 * time.Millisecond)
	grid := p.screenshot()
	p.key("Right")
	p.key("Return")
	time.Sleep(1500 * time.Millisecond)
	if n := differingPixels(grid, p.screenshot()); n < 100000 {
		t.Errorf("Right and Enter on arriving in the Gallery changed %d pixels: the large view did not open", n)
	}
	p.key("Escape")
	time.Sleep(800 * time.Millisecond)
	p.key("Delete")
	time.Sleep(800 * time.Millisecond)
	if n := differingPixels(grid, p.screenshot()); n < 20000 {
		t.Errorf("Delete changed %d pixels: no question", n)
	}
	p.key("Return")
	time.Sleep(800 * time.Millisecond)
	if n := libraryCount(t, home, "poster"); n != 3 {
		t.Errorf("Enter on \"Delete this image?\" left %d of 3 images: the default deleted one", n)
	}
	p.key("Escape") // the selection
	time.Sleep(300 * time.Millisecond)
	p.typeText("zzz")
	time.Sleep(1500 * time.Millisecond)
	if n := coloured(p.screenshot(), firstGalleryCell); n > 500 {
		t.Errorf("typing zzz on the grid left the first cell coloured (%d pixels): no search began", n)
	}
}

// The estimate beside Generate follows Quality (issue 40, item 3): once
// a quality is picked from its list with the keyboard, the words under
// Generate are drawn anew.
func TestTheEstimateFollowsQuality(t *testing.T) {
	p, _, ctx := startDemo(t)
	p.waitSettled(ctx)
	p.key("ctrl+2")
	time.Sleep(800 * time.Millisecond)
	estimate := image.Rect(120, 664, 530, 690) // above Generate, 1280x800 without a banner
	before := p.screenshot().SubImage(estimate)
	p.click(190, 370) // Quality
	time.Sleep(500 * time.Millisecond)
	for range 3 {
		p.key("Down")
	}
	p.key("Return")
	time.Sleep(1500 * time.Millisecond)
	after := p.screenshot()
	if n := differingPixels(before, after.SubImage(estimate)); n < 100 {
		t.Errorf("picking another quality changed %d pixels of the estimate: it did not follow", n)
	}
}

// At 1024×700 the painter's tools keep their places (issue 40, item
// 10): the zoom's controls were drawn over Eraser (E) and undo, so a
// click on Eraser zoomed. Clicking Eraser's box checks it, and leaves
// the zoom's figure as it was.
func TestAt1024TheEraserIsNotUnderTheZoom(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p := startNarrow(ctx, t, bin, home)
	// In the painter's bar beside the canvas: the eraser's box under the
	// tool's drop-down, the zoom's figure at the bar's foot.
	box, zoom := image.Rect(662, 204, 686, 228), image.Rect(700, 540, 750, 566)
	before := p.screenshot()
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "painter-tools-1024.png"), before)
	}
	p.click(673, 216)
	p.waitScreen(ctx, "Eraser's box checked", func(img *image.RGBA) bool {
		return differingPixels(before.SubImage(box), img.SubImage(box)) > 40
	})
	time.Sleep(300 * time.Millisecond)
	if n := differingPixels(before.SubImage(zoom), p.screenshot().SubImage(zoom)); n > 0 {
		t.Errorf("a click on Eraser changed the zoom's figure (%d pixels)", n)
	}
}
