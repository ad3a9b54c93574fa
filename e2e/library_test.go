//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/library"
)

// The banner across the top of a 1280x800 window, and the job list.
var (
	bannerArea = image.Rect(0, 30, 1280, 90)
	jobsArea   = image.Rect(545, 130, 1280, 750)
)

// bannerTint counts the pixels of the banner's warning tint in area.
func bannerTint(img *image.RGBA, area image.Rectangle) int {
	return countPixels(img, area, func(r, g, b int) bool {
		return abs(r-81) < 12 && abs(g-55) < 12 && abs(b-18) < 12
	})
}

func abs(n int) int { return max(n, -n) }

// seed puts n images in the library of home and closes it.
func seed(t *testing.T, home string, n int) {
	t.Helper()
	lib, err := library.Open(filepath.Join(home, "easel"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	png.Encode(&buf, image.NewGray(image.Rect(0, 0, 64, 64)))
	for i := 0; i < n; i++ {
		if _, err := lib.Add(context.Background(), library.NewItem{Image: api.Image{Data: buf.Bytes(), Format: "png", Width: 64, Height: 64},
			Kind: "generate", Prompt: "a paid poster"}); err != nil {
			t.Fatal(err)
		}
	}
	lib.Close()
}

// A gallery whose images folder is missing opens in the real window with
// a banner, sends nothing, and deletes nothing: with the folder back,
// every image is there and the banner is gone.
func TestAMissingImagesFolderShowsABannerAndChangesNothing(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	seed(t, home, 3)
	images := filepath.Join(home, "easel", "images")
	away := filepath.Join(home, "away")
	if err := os.Rename(images, away); err != nil {
		t.Fatal(err)
	}
	p := start(t, bin, home, "--demo")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	shot := p.waitDrawn(ctx)
	if n := bannerTint(shot, bannerArea); n < 20000 {
		save(t, filepath.Join(t.TempDir(), "no-banner.png"), shot)
		t.Fatalf("no banner across the top (%d tinted pixels)", n)
	}
	p.generate("one more poster")
	time.Sleep(3 * time.Second) // the demo would have drawn and saved by now
	// Two banners push the tabs down: no card's preview anywhere below
	// the job list's heading.
	if shot := p.screenshot(); coloured(shot, image.Rect(545, 290, 1280, 740)) > 500 {
		save(t, filepath.Join(t.TempDir(), "card.png"), shot)
		n := coloured(shot, image.Rect(545, 290, 1280, 740))
		t.Errorf("a job ran though its images could not be kept (%d coloured pixels on the card)", n)
	}
	p.key("ctrl+q")
	if err := p.waitExit(10 * time.Second); err != nil {
		t.Errorf("exit: %v", err)
	}
	if _, err := os.Stat(images); err == nil {
		t.Error("the missing images folder was made")
	}
	os.Rename(away, images)
	if n := libraryCount(t, home, "poster"); n != 3 {
		t.Errorf("%d images after the folder came back, want 3", n)
	}
	p = start(t, bin, home, "--demo")
	shot = p.waitDrawn(ctx)
	if n := bannerTint(shot, bannerArea); n > 2000 {
		t.Errorf("the banner stays with the folder back (%d tinted pixels)", n)
	}
}

// A job whose image arrives when the disk has filled since it was sent
// keeps the image on its card with Save as…, in the real window.
func TestAnImageThatCannotBeSavedStaysOnItsCard(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	data := filepath.Join(home, "easel")
	os.MkdirAll(data, 0o700)
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=80m", "tmpfs", data).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small disk here: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", data).Run() })
	p := start(t, bin, home, "--demo")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p.waitDrawn(ctx)
	p.generate("a kite over the dunes")
	// The job is on its way once its first preview shows: fill the disk.
	p.waitPicture(ctx, "the first preview", cardPreview)
	_ = os.WriteFile(filepath.Join(data, "filler"), make([]byte, 100<<20), 0o600)
	shot := p.waitScreen(ctx, "Save as… on the card", func(shot *image.RGBA) bool { return bluePixels(shot, jobsArea) > 1500 })
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "unsaved-card.png"), shot)
	}
	os.Remove(filepath.Join(data, "filler"))
	if n := libraryCount(t, home, "kite"); n != 0 {
		t.Errorf("%d images saved on a full disk", n)
	}
}
