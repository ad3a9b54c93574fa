//go:build e2e

package e2e

import (
	"bytes"
	"context"
	be "encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/library"
)

// #53: a picture whose decoding fails is decoded first in a child
// process: the window stays up, the failure is remembered beside the
// thumbnails with its reason, and the details say Easel could not draw
// it (docs/undrawable.png). The other pictures' thumbnails, made by
// children too, show.
func TestAnUndrawablePictureIsSaidAndTheWindowStaysUp(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	lib, err := library.Open(filepath.Join(home, "easel"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, image.NewNRGBA(image.Rect(0, 0, 320, 240)))
	var broken library.Item
	for _, prompt := range []string{"a readable lighthouse", "a lighthouse whose file broke"} {
		id, err := lib.Add(context.Background(), library.NewItem{Image: api.Image{Data: buf.Bytes(), Format: "png", Width: 320, Height: 240},
			Kind: "generate", Prompt: prompt, Model: "gpt-image-1"})
		if err != nil {
			t.Fatal(err)
		}
		if broken, err = lib.Get(context.Background(), id); err != nil {
			t.Fatal(err)
		}
	}
	// Its bytes are a PNG's head and then nothing a decoder can use; its
	// cached thumbnail is gone, so the window must make one.
	if err := os.WriteFile(lib.Path(broken), append(buf.Bytes()[:40], bytes.Repeat([]byte{0xff}, 4000)...), 0o600); err != nil {
		t.Fatal(err)
	}
	thumbs, _ := filepath.Glob(filepath.Join(home, "easel", "thumbs", "*.png"))
	for _, p := range thumbs {
		_ = os.Remove(p)
	}
	lib.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p := start(t, bin, home, "--demo")
	p.waitSettled(ctx)
	p.key("ctrl+4")
	var undrawable []string
	for deadline := time.Now().Add(30 * time.Second); len(undrawable) == 0 && time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		undrawable, _ = filepath.Glob(filepath.Join(home, "easel", "thumbs", "*.undrawable"))
	}
	if len(undrawable) != 1 {
		t.Fatalf("%d pictures remembered as undrawable, want 1:\n%s", len(undrawable), p.out)
	}
	why, _ := os.ReadFile(undrawable[0])
	if !strings.Contains(string(why), "PNG") && !strings.Contains(string(why), "image") {
		t.Errorf("the reason kept: %q", why)
	}
	made, _ := filepath.Glob(filepath.Join(home, "easel", "thumbs", "*.png"))
	if len(made) != 1 {
		t.Errorf("%d thumbnails made, want the readable picture's", len(made))
	}
	time.Sleep(700 * time.Millisecond)
	p.key("Right")
	p.key("Left")
	time.Sleep(1500 * time.Millisecond)
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "undrawable.png"), p.screenshot())
	}
	p.key("ctrl+q")
	if err := p.waitExit(10 * time.Second); err != nil {
		t.Errorf("exit: %v\n%s", err, p.out)
	}
}

// #53: a paid answer carrying #53's ICC bomb (a profile whose header
// claims 2^32−1 tags, which took the window down and then every start
// after it): the picture is kept, the window stays up, and a start on
// that gallery opens and shows the Gallery. The profile is refused by
// Easel's check in front of the ICC library, so the pixels are drawn as
// sRGB; the card says Easel could not draw its colours as made and why,
// and the details say the profile is damaged (docs/icc-bomb-card.png,
// docs/icc-bomb-gallery.png).
func TestAPaidAnswerCarryingAProfileBombKeepsTheWindowUp(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	bomb, err := filepath.Abs("../internal/colour/testdata/bomb-tagcount.icc")
	if err != nil {
		t.Fatal(err)
	}
	base := serveDemoWith(t, bin, "--answer-profile", bomb)
	home := t.TempDir()
	writeProfiles(t, home, `{"active":"p-bomb","profiles":[{"id":"p-bomb","name":"Hostile upstream","base_url":"`+base+`"}]}`)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	p := start(t, bin, home)
	p.waitDrawn(ctx)
	p.waitSettled(ctx)
	p.generate("a lighthouse with a hostile profile")
	p.waitInLibrary(ctx, home, "lighthouse")
	p.waitPicture(ctx, "the finished card", cardPreview)
	time.Sleep(1500 * time.Millisecond)
	p.alive("after the answer was kept")
	if marks, _ := filepath.Glob(filepath.Join(home, "easel", "thumbs", "*.undrawable")); len(marks) != 0 {
		t.Errorf("the picture was set aside as undrawable: its pixels are sound")
	}
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "icc-bomb-card.png"), p.screenshot())
	}
	p.key("ctrl+q")
	if err := p.waitExit(10 * time.Second); err != nil {
		t.Fatalf("exit: %v\n%s", err, p.out)
	}

	again := start(t, bin, home)
	again.waitDrawn(ctx)
	again.waitSettled(ctx)
	again.key("ctrl+4")
	again.waitPicture(ctx, "the Gallery's first cell", firstGalleryCell)
	time.Sleep(700 * time.Millisecond)
	again.key("Right") // the first picture, its details beside it
	time.Sleep(1500 * time.Millisecond)
	// down the details to their Colours line
	xdo(t, "mousemove", "--window", fmt.Sprint(uint32(again.window)), "--sync", "1070", "400")
	for range 40 {
		xdo(t, "click", "5")
	}
	time.Sleep(700 * time.Millisecond)
	again.alive("on the Gallery after a restart")
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "icc-bomb-gallery.png"), again.screenshot())
	}
	again.key("ctrl+q")
	if err := again.waitExit(10 * time.Second); err != nil {
		t.Errorf("exit: %v\n%s", err, again.out)
	}
}

// #53: a reference Easel has not seen before is drawn by a child first.
// A PNG whose chunks are whole (so the file's integrity walk passes) but
// whose pixels no decoder can inflate is refused with the child's
// reason, the window stays up, and the readable reference beside it is
// in Edit, drawn in the painter (docs/undrawable-reference.png).
func TestAReferenceNoChildCouldDrawIsRefusedAndTheWindowStaysUp(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	good, _ := markupSquare(t, home)
	broken := filepath.Join(home, "broken-inside.png")
	if err := os.WriteFile(broken, garbledPixels(t), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	p := start(t, bin, home, "--demo", good, broken)
	p.waitDrawn(ctx)
	p.waitSettled(ctx)
	p.waitPicture(ctx, "the readable reference in the painter", image.Rect(250, 300, 700, 700))
	time.Sleep(1500 * time.Millisecond)
	p.alive("after the undrawable reference was refused")
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "undrawable-reference.png"), p.screenshot())
	}
	// The edit goes out with the readable reference alone.
	p.key("Escape")
	time.Sleep(300 * time.Millisecond)
	p.key("ctrl+3")
	p.typeText("only the readable one")
	p.key("ctrl+Return")
	p.waitInLibrary(ctx, home, "readable")
	p.key("ctrl+q")
	if err := p.waitExit(10 * time.Second); err != nil {
		t.Errorf("exit: %v\n%s", err, p.out)
	}
	lib, err := library.Open(filepath.Join(home, "easel"))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	items, _ := lib.List(ctx, library.Query{Search: "readable", Limit: 5})
	for _, it := range items {
		if ins, _ := lib.Inputs().Of(ctx, it.ID); len(ins) != 1 {
			t.Errorf("the edit went out with %d inputs, not the readable one alone", len(ins))
		}
	}
	if len(items) == 0 {
		t.Error("the edit did not reach the gallery")
	}
}

// garbledPixels is a 64x64 PNG whose IDAT holds bytes no inflater takes,
// with its chunk checksum made right, so only drawing it finds the fault.
func garbledPixels(t *testing.T) []byte {
	var buf bytes.Buffer
	_ = png.Encode(&buf, image.NewNRGBA(image.Rect(0, 0, 64, 64)))
	data := buf.Bytes()
	for off := 8; off+12 <= len(data); {
		n := int(be.BigEndian.Uint32(data[off:]))
		if string(data[off+4:off+8]) == "IDAT" {
			body := data[off+8 : off+8+n]
			for i := range body {
				body[i] = 0xff
			}
			be.BigEndian.PutUint32(data[off+8+n:], crc32.ChecksumIEEE(data[off+4:off+8+n]))
			return data
		}
		off += 12 + n
	}
	t.Fatal("no IDAT chunk")
	return nil
}
