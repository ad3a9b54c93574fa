//go:build e2e

package e2e

import (
	"context"
	"image"
	"os"
	"path/filepath"
	"testing"
	"time"

	"easel/internal/library"
	"easel/internal/pricing"
)

// warmPixels counts the pixels of area drawn in the theme's warning
// orange, as a button of warning importance is filled.
func warmPixels(img *image.RGBA, area image.Rectangle) int {
	n := 0
	for y := area.Min.Y; y < area.Max.Y; y++ {
		for x := area.Min.X; x < area.Max.X; x++ {
			c := img.RGBAAt(x, y)
			if c.R > 200 && c.G > 110 && c.G < 190 && c.B < 80 {
				n++
			}
		}
	}
	return n
}

// A day's spend over the profile's daily cap is marked in the status bar
// (issue 40, item 11: it read as any other day), and the Spend view it
// opens answers the keyboard with one of its periods chosen (item 9: Esc
// was swallowed while a radio button had the focus).
func TestASpendOverTheCapIsMarkedAndItsViewTakesEsc(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	base := serveDemoWith(t, bin)
	home := t.TempDir()
	writeProfiles(t, home, `{"active":"p-cap","profiles":[{"id":"p-cap","name":"Capped","base_url":"`+base+`","budget":{"daily":1}}]}`)
	lib, err := library.Open(filepath.Join(home, "easel"))
	if err != nil {
		t.Fatal(err)
	}
	spent := 1.50
	_, err = lib.Ledger().Record(context.Background(), library.Entry{Profile: "p-cap", Model: "gpt-image-1", Kind: library.SpendGenerate,
		Outcome: library.Billed, Cost: &spent, Currency: pricing.USD})
	lib.Close()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p := start(t, bin, home)
	p.waitDrawn(ctx)
	bar := image.Rect(800, 755, 1280, 800)
	shot := p.waitScreen(ctx, "the spend marked over the cap", func(img *image.RGBA) bool { return warmPixels(img, bar) > 400 })
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "spend-over-cap.png"), shot)
	}
	p.click(1080, 778)
	view := p.waitScreen(ctx, "the Spend view", func(img *image.RGBA) bool { return differingPixels(shot, img) > 200000 })
	week := image.Rect(200, 95, 230, 125)
	p.click(240, 109) // Week: its radio takes the focus
	p.waitScreen(ctx, "Week chosen", func(img *image.RGBA) bool {
		return differingPixels(view.SubImage(week), img.SubImage(week)) > 50
	})
	p.key("Escape")
	time.Sleep(800 * time.Millisecond)
	// Where the dialog drew its chart, the Jobs pane shows again (the
	// prompt's focus and the button's hover may differ).
	chart := image.Rect(560, 140, 1200, 420)
	if n := differingPixels(shot.SubImage(chart), p.screenshot().SubImage(chart)); n > 200 {
		t.Errorf("Esc with a radio focused left %d pixels changed: the Spend view did not close", n)
	}
}
