//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb/damage"
	"github.com/jezek/xgb/xproto"
)

// proc is one running copy of a program under test with its window.
type proc struct {
	t      testing.TB
	cmd    *exec.Cmd
	window xproto.Window
	out    *bytes.Buffer
	// ev hears the window being mapped and drawn to (launchEvents).
	ev *launchEvents
	// started is when the program was started, after the harness's own
	// set-up, so the start-up bench times the program alone.
	started time.Time
	done    chan error
}

// binary returns the path in env var name, or skips when it is not set.
func binary(t testing.TB, name string) string {
	p := os.Getenv(name)
	if p == "" {
		t.Skipf("%s not set: run through make e2e", name)
	}
	return p
}

// start runs bin with a private HOME so preferences and data do not leak
// between tests, and waits until its window is visible.
func start(t testing.TB, bin, home string, args ...string) *proc {
	t.Helper()
	return startEnv(t, bin, home, nil, args...)
}

// startEnv is start with extra environment variables.
func startEnv(t testing.TB, bin, home string, env []string, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(append(os.Environ(), env...), homeEnv(home)...)
	p := launch(t, cmd, func() {})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var err error
	if p.window, err = p.ev.mapped(ctx, cmd.Process.Pid, p.done); err != nil {
		t.Fatalf("no window (%v):\n%s", err, p.out)
	}
	return p
}

// launch starts cmd, its output kept, listening to the X server for its
// window; a test that ends with it running kills it, then runs after.
// The caller finds the window.
func launch(t testing.TB, cmd *exec.Cmd, after func()) *proc {
	t.Helper()
	out := &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	ev, err := listen()
	if err != nil {
		t.Fatalf("X11: %v", err)
	}
	t.Cleanup(ev.close)
	started := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", cmd.Path, err)
	}
	p := &proc{t: t, cmd: cmd, out: out, ev: ev, started: started, done: make(chan error, 1)}
	go func() { p.done <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-p.done
			after()
		}
	})
	return p
}

// homeEnv is the environment that gives an easel its own HOME, gallery,
// profiles and preferences under home.
func homeEnv(home string) []string {
	return []string{"HOME=" + home, "EASEL_HOME=" + filepath.Join(home, "easel"), "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local/share"), "LANG=en_US.UTF-8"}
}

// waitScreen waits until the window's pixels satisfy ok and returns them;
// it saves the last screen and fails the test when ctx ends first.
func (p *proc) waitScreen(ctx context.Context, what string, ok func(*image.RGBA) bool) *image.RGBA {
	p.t.Helper()
	for {
		shot := p.screenshot()
		if ok(shot) {
			return shot
		}
		select {
		case <-ctx.Done():
			path := filepath.Join(lastScreenDir(p.t), "timeout.png")
			save(p.t, path, shot)
			p.t.Fatalf("%s never showed (last screen: %s)", what, path)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// lastScreenDir is where a failing wait leaves the last screen it saw:
// E2E_DEBUG_DIR when set (CI keeps it), else the test's own folder.
func lastScreenDir(t testing.TB) string {
	if dir := os.Getenv("E2E_DEBUG_DIR"); dir != "" {
		dir = filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_"))
		if err := os.MkdirAll(dir, 0o755); err == nil {
			return dir
		}
	}
	return t.TempDir()
}

// xdo runs xdotool with args.
func xdo(t testing.TB, args ...string) {
	t.Helper()
	if out, err := exec.Command("xdotool", args...).CombinedOutput(); err != nil {
		t.Fatalf("xdotool %v: %v: %s", args, err, out)
	}
}

// key focuses the window and presses a key combination such as "ctrl+2".
func (p *proc) key(combo string) {
	p.t.Helper()
	// Xvfb runs no window manager, so focus is set directly.
	xdo(p.t, "windowfocus", "--sync", fmt.Sprint(uint32(p.window)))
	xdo(p.t, "key", "--clearmodifiers", combo)
}

// typeText types text into the focused widget.
func (p *proc) typeText(text string) {
	p.t.Helper()
	xdo(p.t, "type", "--delay", "5", text)
}

// screenshot captures the window's pixels.
func (p *proc) screenshot() *image.RGBA {
	p.t.Helper()
	img, err := grab(p.window)
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	return img
}

// waitExit waits for the program to end and returns its error.
func (p *proc) waitExit(limit time.Duration) error {
	p.t.Helper()
	select {
	case err := <-p.done:
		return err
	case <-time.After(limit):
		p.t.Fatalf("still running %v after quit:\n%s", limit, p.out)
		return nil
	}
}

// differingPixels counts pixels that differ between a and b.
func differingPixels(a, b image.Image) int {
	n := 0
	r := a.Bounds().Intersect(b.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if a.At(x, y) != b.At(x, y) {
				n++
			}
		}
	}
	return n
}

// waitDrawn waits until the window shows drawn content, and returns it.
func (p *proc) waitDrawn(ctx context.Context) *image.RGBA {
	p.t.Helper()
	p.waitFirstFrame(ctx)
	return p.screenshot()
}

// waitSettled waits for the window's first frame and then for what
// start-up fills in after it (the demo service's note, the balance) to
// be drawn: until two looks settleGap apart differ by fewer pixels than
// a blink of the text cursor and a little more. Keys pressed in the
// first frames can go before the window is ready for them, so a test
// that judges a key by the change it makes starts from here.
func (p *proc) waitSettled(ctx context.Context) *image.RGBA {
	p.t.Helper()
	const settleGap, stillPixels = 250 * time.Millisecond, 400
	last := p.waitDrawn(ctx)
	for {
		select {
		case <-ctx.Done():
			p.t.Fatalf("the window never settled after its first frame")
		case <-time.After(settleGap):
		}
		shot := p.screenshot()
		if differingPixels(last, shot) < stillPixels {
			return shot
		}
		last = shot
	}
}

// waitFirstFrame returns as soon as the window has drawn its widgets. It
// looks each time the window is drawn to, at the top 64 rows only (the
// menu and tab bar, or the bare window's label): a frame is drawn whole,
// and a few rows are read in a fraction of the time of the whole window.
func (p *proc) waitFirstFrame(ctx context.Context) {
	p.t.Helper()
	id, err := p.ev.watchDamage(p.window)
	if err != nil {
		p.t.Fatalf("X11 damage: %v", err)
	}
	defer damage.Destroy(p.ev.c, id)
	for {
		top, err := grabRows(p.window, 64)
		if err != nil {
			p.t.Fatalf("screenshot: %v", err)
		}
		if hasDrawn(top) {
			return
		}
		if err := p.ev.drawn(ctx, id, p.done); err != nil {
			p.t.Fatalf("window never drew its content (%v):\n%s", err, p.out)
		}
	}
}

// writeProfiles writes a profiles file into home's config folder, where
// an easel started with that home reads it.
func writeProfiles(t *testing.T, home, profiles string) {
	t.Helper()
	cfg := filepath.Join(home, ".config", "easel")
	if err := os.MkdirAll(cfg, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg, "profiles.json"), []byte(profiles), 0o600); err != nil {
		t.Fatal(err)
	}
}
