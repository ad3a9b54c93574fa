//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// dropdown is a Select (or a model field's list button) to click, at its
// place in a 1280x800 window with no banner.
type dropdown struct {
	name string
	x, y int
}

// Each tab's dropdowns, and the status bar's profile picker. A layout
// change that moves one makes the test fail (no pop-up opens), not pass.
var (
	generateDropdowns = []dropdown{{"model", 472, 291}, {"size", 200, 330}, {"quality", 200, 369}, {"background", 200, 408},
		{"format", 200, 447}, {"moderation", 200, 486}, {"images", 200, 525}, {"previews", 200, 603}}
	// Edit's tool in the painter's bar beside the canvas, and its side
	// panel's form (labels above fields).
	editDropdowns = []dropdown{{"mask tool", 940, 176}, {"input fidelity", 1150, 291}, {"feather", 1160, 408}}
	// The form at its end (its model, size, quality and background
	// fields, the same widgets as Text to image's above, sit between:
	// the wheel's step is not steady enough under Xvfb to find them by
	// place).
	editDropdownsScrolled = []dropdown{{"format", 1100, 117}, {"moderation", 1100, 195}, {"images", 1100, 273}, {"previews", 1100, 430}}
	chatDropdowns         = []dropdown{{"model", 1216, 93}}
	statusDropdowns       = []dropdown{{"profile", 185, 777}}
)

// The window crashed four times out of four (SIGSEGV in
// widget.NewPopUpMenu, from Select.showPopUp with a nil canvas) when a
// new user chose the demo service in the first-run dialog, opened a
// dropdown, left the window idle and then opened another. Fyne 2.7.1
// let a window that repaints all the time (a blinking cursor) expire its
// own object-to-canvas cache, and a tap in the frame after the cache was
// cleaned found no canvas; Fyne 2.8.1 keeps the entries alive. The cache
// lasts FYNE_CACHE here instead of a minute, so the idle wait is short.
func TestDropdownsOpenAfterTheWindowIdles(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	const cache = 15 * time.Second
	p := startEnv(t, bin, t.TempDir(), []string{"FYNE_CACHE=" + cache.String()})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p.waitDrawn(ctx)
	time.Sleep(time.Second)
	p.click(422, 577) // the first-run dialog's "Use the demo service"
	p.waitTitle("Demo service", 10*time.Second)
	p.openAndClose(dropdown{"background", 200, 408})

	time.Sleep(2*cache + 10*time.Second) // the cache expires and is cleaned
	for _, d := range generateDropdowns {
		p.openAndClose(d)
	}
	p.key("ctrl+3")
	time.Sleep(500 * time.Millisecond)
	for _, d := range editDropdowns {
		p.openAndClose(d)
	}
	// The rest of the form is below: its scroll bar dragged to the end.
	p.drag(1274, 150, 1274, 520)
	time.Sleep(300 * time.Millisecond)
	for _, d := range editDropdownsScrolled {
		p.openAndClose(d)
	}
	p.key("ctrl+1")
	time.Sleep(500 * time.Millisecond)
	for _, d := range append(chatDropdowns, statusDropdowns...) {
		p.openAndClose(d)
	}
	p.key("ctrl+q")
	if err := p.waitExit(10 * time.Second); err != nil {
		t.Fatalf("exit: %v\n%s", err, p.out)
	}
}

// click clicks at a point of the window.
func (p *proc) click(x, y int) {
	p.t.Helper()
	w := fmt.Sprint(uint32(p.window))
	xdo(p.t, "mousemove", "--window", w, "--sync", fmt.Sprint(x), fmt.Sprint(y))
	xdo(p.t, "click", "1")
}

// drag drags with the left button from one point of the window to
// another, in steps, as a hand does.
func (p *proc) drag(x0, y0, x1, y1 int) {
	p.t.Helper()
	w := fmt.Sprint(uint32(p.window))
	xdo(p.t, "mousemove", "--window", w, "--sync", fmt.Sprint(x0), fmt.Sprint(y0))
	xdo(p.t, "mousedown", "1")
	for i := 1; i <= 5; i++ {
		xdo(p.t, "mousemove", "--window", w, "--sync", fmt.Sprint(x0+(x1-x0)*i/5), fmt.Sprint(y0+(y1-y0)*i/5))
		time.Sleep(30 * time.Millisecond)
	}
	xdo(p.t, "mouseup", "1")
	time.Sleep(300 * time.Millisecond)
}

// openAndClose clicks a dropdown, checks that its pop-up opened and the
// program lives, and closes the pop-up with Esc.
func (p *proc) openAndClose(d dropdown) {
	p.t.Helper()
	xdo(p.t, "mousemove", "--window", fmt.Sprint(uint32(p.window)), "--sync", "1", "1")
	time.Sleep(300 * time.Millisecond)
	before := p.screenshot()
	p.click(d.x, d.y)
	time.Sleep(700 * time.Millisecond)
	p.alive(d.name)
	if n := differingPixels(before, p.screenshot()); n < 3000 {
		p.t.Errorf("%s: clicking it changed %d pixels: no pop-up opened", d.name, n)
		if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
			save(p.t, filepath.Join(dir, "dropdown-"+strings.ReplaceAll(d.name, " ", "-")+".png"), before)
		}
	}
	p.key("Escape")
	time.Sleep(300 * time.Millisecond)
	p.alive(d.name)
}

// alive fails the test if the program has ended.
func (p *proc) alive(when string) {
	p.t.Helper()
	select {
	case err := <-p.done:
		p.done <- err
		p.t.Fatalf("easel ended at %s: %v\n%s", when, err, p.out)
	default:
	}
}

// waitTitle waits until the window's title holds want.
func (p *proc) waitTitle(want string, limit time.Duration) {
	p.t.Helper()
	deadline := time.Now().Add(limit)
	for {
		out, _ := exec.Command("xdotool", "getwindowname", fmt.Sprint(uint32(p.window))).Output()
		if strings.Contains(strings.ToLower(string(out)), strings.ToLower(want)) {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("title %q never held %q", strings.TrimSpace(string(out)), want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
