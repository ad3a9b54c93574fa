//go:build e2e

package e2e

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

// An image copied in the gallery (its thumbnail clicked, Ctrl+C) pastes
// into another app as that image: a GTK program reads it off the
// clipboard at its size.
func TestCopiedImagePastesElsewhere(t *testing.T) {
	if _, err := exec.LookPath("/usr/bin/python3"); err != nil {
		t.Skip("no python3 for the pasting app")
	}
	p, _, _ := galleryWithOneImage(t)
	c := firstGalleryCell.Min.Add(firstGalleryCell.Size().Div(2))
	p.click(c.X, c.Y)
	time.Sleep(500 * time.Millisecond)
	p.key("ctrl+c")
	var got string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(300 * time.Millisecond) {
		out, err := exec.Command("/usr/bin/python3", "testdata/readclip.py").Output()
		if got = strings.TrimSpace(string(out)); err == nil && got != "none" {
			break
		}
	}
	if got != "1024 1024" {
		t.Errorf("the pasting app read %q from the clipboard, want the 1024x1024 image", got)
	}
}
