//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// primaryBlue is the theme's primary colour, which Generate and Send edit
// are filled with.
var primaryBlue = [3]int{0x29, 0x6f, 0xf6}

// bluePixels counts the pixels in area that are the primary colour.
func bluePixels(img *image.RGBA, area image.Rectangle) int {
	return countPixels(img, area, func(r, g, b int) bool {
		return abs(r-primaryBlue[0])+abs(g-primaryBlue[1])+abs(b-primaryBlue[2]) < 24
	})
}

// rememberWindowSize leaves home's preferences as a window closed at
// width x height leaves them, so the window opens at that size. A resize
// from outside after the first frame races the window's own sizing: under
// load a late theme or scale notice sets the window back to the size it
// opened at.
func rememberWindowSize(t *testing.T, home string, width, height int) {
	t.Helper()
	prefs := filepath.Join(home, ".config", "fyne", "dev.easel.app")
	if err := os.MkdirAll(prefs, 0o700); err != nil {
		t.Fatal(err)
	}
	body := fmt.Sprintf(`{"window.width":%d,"window.height":%d}`, width, height)
	if err := os.WriteFile(filepath.Join(prefs, "preferences.json"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// At 1024x700, the smallest window Easel is made for, Generate and Send
// edit are on screen below their forms, which scroll instead. A real
// window is needed: the test driver does not shrink a window below its
// content's minimum size the way a window manager does.
func TestActionsStayOnScreenAt1024x700(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	// The window opens at the size it was closed at, as Fyne's
	// preferences remember it: 1024x700 from the first frame, with no
	// resize to race the window's own first sizing.
	home := t.TempDir()
	rememberWindowSize(t, home, 1024, 700)
	p := start(t, bin, home, "--demo")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p.waitDrawn(ctx)
	time.Sleep(time.Second)
	for _, c := range []struct {
		key, name string
		area      image.Rectangle
	}{
		{"ctrl+2", "Generate", image.Rect(0, 450, 440, 700)},
		{"ctrl+3", "Send edit", image.Rect(600, 450, 1024, 700)},
	} {
		p.key(c.key)
		time.Sleep(700 * time.Millisecond)
		shot := p.screenshot()
		if b := shot.Bounds(); b.Dx() != 1024 || b.Dy() != 700 {
			t.Fatalf("the window is %dx%d, not 1024x700", b.Dx(), b.Dy())
		}
		if n := bluePixels(shot, c.area); n < 1500 {
			t.Errorf("%s is not on screen at 1024x700 (%d pixels of its colour in %v)", c.name, n, c.area)
		}
		if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
			save(t, filepath.Join(dir, fmt.Sprintf("small-%s.png", map[string]string{"ctrl+2": "generate", "ctrl+3": "edit"}[c.key])), shot)
		}
	}
	p.key("ctrl+q")
	if err := p.waitExit(10 * time.Second); err != nil {
		t.Fatalf("exit: %v\n%s", err, p.out)
	}
}
