//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// #57 in the real window: the painter's bar beside the canvas, the
// reference board, a note that reads at 50 %, a restart that brings six
// references back. Screenshots go to $SCREENSHOT_DIR (docs/).

// shotTo saves img as name in $SCREENSHOT_DIR, when it is set.
func shotTo(t *testing.T, name string, img image.Image) {
	t.Helper()
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, name), img)
	}
}

// shade is a picture of one colour, w×h, at path.
func shade(t *testing.T, path string, w, h int, c color.NRGBA) {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	save(t, path, img)
}

// The brush's size and hardness are in the bar beside the canvas at
// 1280x800 and at 1024x700: dragging the size slider there changes the
// brush's size figure beside it (docs/edit-tool-options-1280.png,
// docs/edit-tool-options-1024.png).
func TestTheBrushsOptionsStandBesideTheCanvas(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	for _, c := range []struct {
		w, h         int
		knob, figure image.Rectangle
	}{
		// The size slider's knob and its figure ("66 px") in the bar.
		{1280, 800, image.Rect(885, 327, 909, 351), image.Rect(955, 288, 1012, 312)},
		{1024, 700, image.Rect(672, 327, 696, 351), image.Rect(742, 288, 800, 312)},
	} {
		home := t.TempDir()
		rememberWindowSize(t, home, c.w, c.h)
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		p := start(t, bin, home, "--demo", wideFirst(t, home))
		p.waitSettled(ctx)
		p.waitPicture(ctx, "the wide picture in the painter", image.Rect(100, 380, 500, 520))
		time.Sleep(time.Second)
		before := p.screenshot()
		if b := before.Bounds(); b.Dx() != c.w || b.Dy() != c.h {
			t.Fatalf("the window is %dx%d, not %dx%d", b.Dx(), b.Dy(), c.w, c.h)
		}
		knob := c.knob.Min.Add(image.Pt(12, 12))
		p.drag(knob.X, knob.Y, knob.X+50, knob.Y)
		time.Sleep(500 * time.Millisecond)
		after := p.screenshot()
		shotTo(t, fmt.Sprintf("edit-tool-options-%d.png", c.w), after)
		if n := differingPixels(before.SubImage(c.figure), after.SubImage(c.figure)); n < 20 {
			t.Errorf("at %dx%d dragging the size slider beside the canvas changed its figure by %d pixels", c.w, c.h, n)
		}
		p.key("ctrl+q")
		_ = p.waitExit(10 * time.Second)
		cancel()
	}
}

// sessionOrder is the names of the inputs Edit's session on disk holds,
// in order.
func sessionOrder(t *testing.T, home string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(home, "easel", "edit-session", "session.json"))
	if err != nil {
		return nil
	}
	var doc struct {
		Inputs []struct {
			Name string `json:"name"`
		} `json:"inputs"`
		Marks *struct {
			Items []json.RawMessage `json:"items"`
		} `json:"marks"`
	}
	if json.Unmarshal(data, &doc) != nil {
		return nil
	}
	var names []string
	for _, in := range doc.Inputs {
		names = append(names, in.Name)
	}
	return names
}

// Sixteen references on the board, the 12th dragged onto the 2nd's place
// with the mouse: it is the 2nd in Edit's order (its session on disk says
// so) and on the board (docs/reference-board.png).
func TestSixteenReferencesOnTheBoardInRealWindow(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	var files []string
	for i := range 16 {
		f := filepath.Join(home, fmt.Sprintf("ref-%02d.png", i+1))
		shade(t, f, 160, 120, color.NRGBA{uint8(30 + 13*i), uint8(200 - 9*i), 120, 255})
		files = append(files, f)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	p := start(t, bin, home, append([]string{"--demo"}, files...)...)
	p.waitSettled(ctx)
	p.waitScreen(ctx, "sixteen in Edit's session", func(*image.RGBA) bool { return len(sessionOrder(t, home)) == 16 })
	p.click(999, 93) // the board's icon beside the strip's count
	time.Sleep(1500 * time.Millisecond)
	open := p.screenshot()
	shotTo(t, "reference-board-open.png", open)
	// The board's cards, 176x236 each, six to a row from boardOrigin.
	card := func(i int) image.Point {
		return boardOrigin.Add(image.Pt((i%6)*180, (i/6)*240))
	}
	from, to := card(11).Add(image.Pt(88, 60)), card(1).Add(image.Pt(30, 60))
	p.drag(from.X, from.Y, to.X, to.Y)
	p.waitScreen(ctx, "the 12th second in Edit's order", func(*image.RGBA) bool {
		o := sessionOrder(t, home)
		return len(o) == 16 && o[1] == "ref-12.png" && o[11] == "ref-11.png"
	})
	time.Sleep(500 * time.Millisecond)
	shotTo(t, "reference-board.png", p.screenshot())
	p.key("Escape")
	p.key("ctrl+q")
	_ = p.waitExit(10 * time.Second)
}

// boardOrigin is the first card's top left on the board dialog in a
// 1280x800 window.
var boardOrigin = image.Pt(80, 140)

// A note placed with the note tool and Enter reads at 50 %: a chip of
// words in the window's type, in the marks' blue, at the point clicked
// (docs/edit-note-50.png). The picture is 1202 pixels square, so the
// painter fits it at 50 %.
func TestANotePlacedWithEnterReadsAtHalfSize(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	pic := filepath.Join(home, "wall.png")
	shade(t, pic, 1202, 1202, color.NRGBA{70, 150, 90, 255})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p := start(t, bin, home, "--demo", pic)
	p.waitSettled(ctx)
	p.waitPicture(ctx, "the wall in the painter", image.Rect(200, 250, 600, 650))
	p.click(940, 176) // the tool's drop-down in the bar
	time.Sleep(400 * time.Millisecond)
	p.click(910, 445) // Mark: note
	time.Sleep(300 * time.Millisecond)
	p.click(300, 400)
	time.Sleep(800 * time.Millisecond)
	p.typeText("make this a window")
	p.key("Return")
	chip := image.Rect(296, 370, 520, 404)
	shot := p.waitScreen(ctx, "the note's chip", func(s *image.RGBA) bool { return markBlue(s, chip) > 600 })
	shotTo(t, "edit-note-50.png", shot)
	// Its words: light pixels on the chip, in a line of the UI's type.
	if n := countPixels(shot, chip, func(r, g, b int) bool { return r > 200 && g > 200 && b > 200 }); n < 150 {
		t.Errorf("the chip has %d light pixels of words", n)
	}
	p.key("ctrl+q")
	_ = p.waitExit(10 * time.Second)
}

// markBlue counts the pixels of area in the marks' blue (markup.Bright).
func markBlue(img *image.RGBA, area image.Rectangle) int {
	return countPixels(img, area, func(r, g, b int) bool { return abs(r-0x0a)+abs(g-0x84)+abs(b-0xff) < 40 })
}

// Six references, a stroke of mask and an arrow over the first; a kill;
// the next start brings back the six in order, the mask and the arrow
// (docs/edit-session-restored-6.png).
func TestSixReferencesTheMaskAndTheMarksSurviveAKill(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	first, _ := markupSquare(t, home)
	files := []string{first}
	for i := range 5 {
		f := filepath.Join(home, fmt.Sprintf("ref-%d.png", i+2))
		shade(t, f, 300, 200, color.NRGBA{uint8(40 * i), 120, 200, 255})
		files = append(files, f)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	painter := image.Rect(150, 170, 720, 740)
	p := start(t, bin, home, append([]string{"--demo"}, files...)...)
	p.waitSettled(ctx)
	p.waitPicture(ctx, "the first in the painter", image.Rect(250, 300, 700, 700))
	p.waitScreen(ctx, "six in Edit's session", func(*image.RGBA) bool { return len(sessionOrder(t, home)) == 6 })
	p.stroke(300, 600, 450) // a band of mask
	p.click(940, 176)
	time.Sleep(400 * time.Millisecond)
	p.click(910, 366) // Mark: arrow
	time.Sleep(300 * time.Millisecond)
	p.drag(250, 650, 550, 550)
	time.Sleep(1500 * time.Millisecond) // the session is written 400 ms after a change
	marked := p.screenshot()
	if markBlue(marked, painter) < 300 {
		t.Fatal("the arrow is not drawn")
	}
	_ = p.cmd.Process.Kill()
	_ = p.waitExit(10 * time.Second)

	again := start(t, bin, home, "--demo")
	again.waitSettled(ctx)
	again.key("ctrl+3")
	again.waitPicture(ctx, "the first reference back in the painter", image.Rect(250, 300, 700, 700))
	time.Sleep(2 * time.Second)
	back := again.screenshot()
	shotTo(t, "edit-session-restored-6.png", back)
	if o := sessionOrder(t, home); len(o) != 6 || o[0] != "room.png" || o[5] != "ref-6.png" {
		t.Errorf("after the restart Edit holds %v", o)
	}
	if n := differingPixels(marked.SubImage(painter), back.SubImage(painter)); n > 1500 {
		t.Errorf("the painter differs in %d pixels after the restart: the mask or the arrow did not come back", n)
	}
	if markBlue(back, painter) < 300 {
		t.Error("the arrow did not come back")
	}
	again.key("ctrl+q")
	if err := again.waitExit(10 * time.Second); err != nil {
		t.Errorf("exit: %v\n%s", err, again.out)
	}
}

// A comparison of three models, one of which refuses: the three cells
// side by side on the board at 1280x800, the two pictures in the first
// two columns, the refusal's words wrapped in the third
// (docs/board-three-models.png).
func TestAThreeModelBoardFitsTheWindow(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	p := start(t, bin, home, "--demo")
	p.waitSettled(ctx)
	p.key("ctrl+2")
	time.Sleep(time.Second)
	p.click(200, 170) // the prompt
	p.typeText("a red kite over a grey sea")
	p.click(66, 251) // Compare…
	time.Sleep(1500 * time.Millisecond)
	p.click(700, 159) // the values
	p.key("ctrl+a")
	p.typeText("gpt-image-1, dall-e-3, fault-invalid-size")
	time.Sleep(500 * time.Millisecond)
	p.click(1178, 198) // Send all
	p.waitInLibrary(ctx, home, "kite")
	shot := p.waitScreen(ctx, "two pictures and a refusal side by side", func(s *image.RGBA) bool {
		colourful := func(r image.Rectangle) int {
			return countPixels(s, r, func(r, g, b int) bool { return max(r, g, b)-min(r, g, b) > 40 })
		}
		light := countPixels(s, image.Rect(850, 230, 1225, 690), func(r, g, b int) bool { return r > 200 && g > 200 && b > 200 })
		return colourful(image.Rect(60, 240, 440, 560)) > 20000 && colourful(image.Rect(450, 240, 830, 560)) > 20000 && light > 300
	})
	_ = shot
	time.Sleep(3 * time.Second) // the cells' notes fill in
	shotTo(t, "board-three-models.png", p.screenshot())
	p.key("ctrl+q")
	_ = p.waitExit(10 * time.Second)
}

// At 944x500 (2x on a 1080p screen) the canvas takes the tab and the
// side panel is a drawer the Panel button opens over it, Send edit in
// sight and the Panel button beside it to close it again
// (docs/edit-drawer-944.png).
func TestASmallScreenOpensThePanelAsADrawer(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	rememberWindowSize(t, home, 944, 500)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p := start(t, bin, home, "--demo", wideFirst(t, home))
	p.waitSettled(ctx)
	p.waitPicture(ctx, "the wide picture across the tab", image.Rect(100, 200, 700, 400))
	if n := bluePixels(p.screenshot(), image.Rect(600, 150, 944, 460)); n > 200 {
		t.Errorf("before the drawer opens, %d pixels of Send edit's blue are on screen", n)
	}
	p.click(866, 433) // Panel, at the foot of the painter's bar
	shot := p.waitScreen(ctx, "Send edit in the drawer", func(s *image.RGBA) bool { return bluePixels(s, image.Rect(600, 150, 944, 460)) > 1000 })
	shotTo(t, "edit-drawer-944.png", shot)
	p.click(866, 433) // Panel again, beside the drawer: it closes
	p.waitScreen(ctx, "the drawer closed", func(s *image.RGBA) bool { return bluePixels(s, image.Rect(600, 150, 944, 460)) < 200 })
	p.key("ctrl+q")
	_ = p.waitExit(10 * time.Second)
}
