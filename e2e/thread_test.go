//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"easel/internal/imageio"
	"easel/internal/library"
)

// #55 in the real window: a picture generated and edited from its card
// (turn 2); the thread beside the canvas; turn 2 continued (turn 3);
// a branch from turn 1 (turn 4); back to turn 2, where it changed shown
// as a map, and the band it changed painted over and taken back from
// turn 1 (turn 5). Screenshots: docs/thread-beside-canvas.png,
// docs/thread-change-map.png, docs/thread-restored.png.
func TestAThreadInRealWindow(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	base := serveDemoWith(t, bin, "--drift", "0.05") // under the 10 % limit: no turn flagged, no title wrapped
	home := t.TempDir()
	writeProfiles(t, home, `{"active":"p-thread","profiles":[{"id":"p-thread","name":"Studio","base_url":"`+base+`"}]}`)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Second)
	defer cancel()
	p := start(t, bin, home)
	p.waitDrawn(ctx)
	p.waitSettled(ctx)
	p.generate("a lighthouse at dusk")
	p.waitInLibrary(ctx, home, "lighthouse")
	time.Sleep(1500 * time.Millisecond)
	// The card's "Edit this result", a line lower than on the built-in
	// demo's: serve-demo signs with a root only its own process trusts,
	// so the card says the credentials are missing.
	p.click(editThisX, editThisY+58)
	time.Sleep(1500 * time.Millisecond)
	shot := func(name string) {
		if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
			save(t, filepath.Join(dir, name), p.screenshot())
		}
	}
	shot("thread-0.png")
	// The painter shows the 1024-pixel picture at 58.7 % from (133, 155):
	// a band across image rows 555, x 569–933.
	p.stroke(467, 681, 480) // paint where the edit may change
	p.key("ctrl+3")
	p.typeText("warmer light")
	p.key("ctrl+Return")
	p.waitInLibrary(ctx, home, "warmer")
	time.Sleep(2500 * time.Millisecond)
	shot("thread-1.png")
	// Give the thread the width it had beside a horizontal form (the
	// clicks below count on its rows' places): the panel's divider
	// dragged to x 934, making the panel about 340 wide.
	p.drag(995, 415, 934, 415)
	time.Sleep(500 * time.Millisecond)
	// Give the thread the side panel's height: its divider dragged up.
	w := fmt.Sprint(uint32(p.window))
	// (Sending the edit gave the edits 60 % of the column: the divider
	// is at y 305.)
	xdo(t, "mousemove", "--window", w, "--sync", "1135", "305")
	xdo(t, "mousedown", "1")
	for y := 290; y >= 230; y -= 15 {
		xdo(t, "mousemove", "--window", w, "--sync", "1135", fmt.Sprint(y))
		time.Sleep(20 * time.Millisecond)
	}
	xdo(t, "mouseup", "1")
	time.Sleep(500 * time.Millisecond)
	shot("thread-1b.png")
	// The thread's tab, its title in blue, now sits near the top: the
	// clicks below count on the rows' places.
	p.waitScreen(ctx, "the thread's tab moved up", func(s *image.RGBA) bool { return bluePixels(s, image.Rect(998, 240, 1068, 262)) > 40 })
	time.Sleep(800 * time.Millisecond)
	shot("thread-2.png")
	send := func(prompt, search string) {
		t.Helper()
		p.stroke(467, 681, 480) // paint where the edit may change
		p.key("ctrl+3")
		p.typeText(prompt)
		p.key("ctrl+Return")
		p.waitInLibrary(ctx, home, search)
		time.Sleep(2500 * time.Millisecond)
	}
	// Continue from turn 2 (its Go on), then edit: turn 3.
	p.click(1037, 506)
	time.Sleep(2000 * time.Millisecond)
	shot("thread-3.png")
	send("a red roof", "roof")
	shot("thread-4.png")
	// Branch from turn 1 (its Go on): turn 4, after 1.
	p.click(1037, 396)
	time.Sleep(2000 * time.Millisecond)
	shot("thread-5.png")
	send("a bluer sea", "bluer")
	shot("thread-6.png")
	// Back to turn 2 (its Go on, turn 1 being in Edit).
	p.click(1037, 506)
	time.Sleep(2000 * time.Millisecond)
	shot("thread-beside-canvas.png")
	// Where turn 2 changed: its figure is the link to the map.
	p.click(1110, 515)
	time.Sleep(2500 * time.Millisecond)
	shot("thread-change-map.png")
	p.key("Escape")
	time.Sleep(800 * time.Millisecond)
	// Paint over what turn 2 changed and take it back from turn 1.
	p.stroke(467, 697, 480)
	p.click(1150, 396)
	time.Sleep(3000 * time.Millisecond)
	shot("thread-restored.png")
	p.key("ctrl+q")
	if err := p.waitExit(10 * time.Second); err != nil {
		t.Errorf("exit: %v\n%s", err, p.out)
	}
	checkThread(t, home)
}

// checkThread reads the gallery the window left: one thread of five
// turns, turn 3 after 2, turn 4 a branch after 1, turn 5 the area
// taken back into turn 2 from turn 1, exact where it was painted.
func checkThread(t *testing.T, home string) {
	t.Helper()
	ctx := context.Background()
	lib, err := library.Open(filepath.Join(home, "easel"))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	items, _ := lib.List(ctx, library.Query{Search: "lighthouse", Limit: 5})
	var turns []library.Turn
	for _, it := range items {
		if turns, _ = lib.Lineage().Thread(ctx, it.ID); len(turns) > 0 {
			break
		}
	}
	if len(turns) != 5 {
		t.Fatalf("the thread has %d turns, want 5: %+v", len(turns), turns)
	}
	item := func(n int) int64 { return turns[n-1].Item }
	for n, parent := range map[int]int64{2: item(1), 3: item(2), 4: item(1), 5: item(2)} {
		if turns[n-1].Parent != parent {
			t.Errorf("turn %d continued %d, want %d", n, turns[n-1].Parent, parent)
		}
	}
	if turns[4].Way != library.WayRestored || turns[1].Drift == nil {
		t.Errorf("turns: %+v", turns)
	}
	// The middle of the band painted over turn 2 (canvas 576,482 at 58.7 %).
	at := func(n int) color.NRGBA {
		it, err := lib.Get(ctx, item(n))
		if err != nil {
			t.Fatal(err)
		}
		img, err := imageio.DecodeFile(lib.Path(it))
		if err != nil {
			t.Fatal(err)
		}
		return color.NRGBAModel.Convert(img.At(754, 557)).(color.NRGBA)
	}
	if got, want, was := at(5), at(1), at(2); got != want || was == want {
		t.Errorf("in the painted band the restored turn has %v, turn 1 %v, turn 2 %v", got, want, was)
	}
}

// #55: a thread made on the command line (a picture `easel gen` wrote,
// continued three times) is the window's too: `easel thread` lists four
// turns with their costs, and the window opened on that gallery shows
// the same thread beside Edit's canvas (docs/thread-from-cli.png). The
// demo plays a gateway without the Responses API: each turn went as an
// edit, and the thread says why, on the command line and in the window.
func TestAThreadFromTheCommandLineShowsInTheWindow(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	base := serveDemoWith(t, bin, "--drift", "0.25", "--responses", "none")
	home := t.TempDir()
	env := append(homeEnv(home), "OPENAI_BASE_URL="+base, "OPENAI_API_KEY=sk-e2e-thread-0123456789")
	out := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), env...)
		stdout, stderr, code := runCommand(t, cmd)
		if code != 0 {
			t.Fatalf("easel %v: %s", args, stderr)
		}
		return strings.TrimSpace(stdout)
	}
	file := run("gen", "--prompt", "a lighthouse at dusk", "--size", "1024x1024", "--out", out)
	for _, prompt := range []string{"warmer light", "a red roof", "a calmer sea"} {
		file = run("edit", "--continue", file, "--prompt", prompt, "--out", out)
	}
	listed := run("thread", file)
	// Three turns cost what they cost; the start is the file gen wrote,
	// imported into the gallery to begin the thread (gen's own picture
	// goes to --out only), so it has no cost of its own there.
	if strings.Count(listed, "\n    ") != 4 || strings.Count(listed, "$") != 3 {
		t.Fatalf("easel thread:\n%s", listed)
	}
	if strings.Count(listed, "sent as an edit") != 3 || strings.Count(listed, "Sent through the Images API: the service has no Responses API (HTTP 404)") != 3 {
		t.Errorf("easel thread does not say each turn went as an edit, and why:\n%s", listed)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	p := startEnv(t, bin, home, env)
	p.waitDrawn(ctx)
	p.waitSettled(ctx)
	p.key("ctrl+4")
	p.waitPicture(ctx, "the Gallery's first cell", firstGalleryCell)
	time.Sleep(700 * time.Millisecond)
	p.key("Right") // the newest picture, turn 4, its details beside it
	time.Sleep(1500 * time.Millisecond)
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "thread-from-cli-gallery.png"), p.screenshot())
	}
	p.click(1173, 618) // the details' Edit this
	time.Sleep(2500 * time.Millisecond)
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "thread-from-cli.png"), p.screenshot())
	}
	p.key("ctrl+q")
	if err := p.waitExit(10 * time.Second); err != nil {
		t.Errorf("exit: %v\n%s", err, p.out)
	}
}
