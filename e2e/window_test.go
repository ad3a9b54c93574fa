//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"image"
	"image/png"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestWindowTabsAndQuit starts the real binary, switches tabs with the
// keyboard, checks that the picture changes, and quits with Ctrl+Q.
func TestWindowTabsAndQuit(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	p := start(t, bin, t.TempDir(), "--demo")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	generate := p.waitSettled(ctx)

	// Each shortcut must change the window; a loaded machine may take a
	// few frames to draw the tab, so each is given up to five seconds.
	switched := func(combo string, from *image.RGBA) *image.RGBA {
		t.Helper()
		p.key(combo)
		var shot *image.RGBA
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			shot = p.screenshot()
			n := differingPixels(from, shot)
			if n >= 1000 {
				return shot
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s changed only %d pixels: the tab did not switch", combo, n)
			}
		}
	}
	chat := switched("ctrl+1", generate)
	back := switched("ctrl+2", chat)
	switched("ctrl+4", back)

	p.key("ctrl+q")
	if err := p.waitExit(10 * time.Second); err != nil {
		t.Fatalf("exit after Ctrl+Q: %v\n%s", err, p.out)
	}
	// On X11 without a Wayland display, libwayland's complaint about
	// XDG_RUNTIME_DIR is not printed at every start (#57).
	if strings.Contains(p.out.String(), "XDG_RUNTIME_DIR") {
		t.Errorf("the window's output speaks of XDG_RUNTIME_DIR:\n%s", p.out)
	}
}

// TestWindowClosesCleanly starts the real binary, finds its window as
// xdotool does, and closes it the way a window manager's close button
// does: the program ends, with status 0.
func TestWindowClosesCleanly(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	p := start(t, bin, t.TempDir(), "--demo")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p.waitDrawn(ctx)
	out, err := exec.Command("xdotool", "search", "--onlyvisible", "--pid", strconv.Itoa(p.cmd.Process.Pid)).Output()
	if err != nil || !slices.Contains(strings.Fields(string(out)), strconv.Itoa(int(p.window))) {
		t.Fatalf("xdotool search --pid found %q (%v), not window %d", out, err, p.window)
	}
	if err := closeWindow(p.window); err != nil {
		t.Fatalf("close: %v", err)
	}
	if err := p.waitExit(10 * time.Second); err != nil {
		t.Fatalf("exit after closing the window: %v\n%s", err, p.out)
	}
}

// TestWindowRemembersLastTab quits on Gallery and expects the next start
// to open there.
func TestWindowRemembersLastTab(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()

	p := start(t, bin, home, "--demo")
	p.waitDrawn(ctx)
	p.key("ctrl+4")
	time.Sleep(500 * time.Millisecond)
	gallery := p.screenshot()
	p.key("ctrl+q")
	if err := p.waitExit(10 * time.Second); err != nil {
		t.Fatalf("exit: %v", err)
	}

	again := start(t, bin, home, "--demo")
	again.waitDrawn(ctx)
	time.Sleep(500 * time.Millisecond)
	if n := differingPixels(gallery, again.screenshot()); n > 2000 {
		t.Errorf("second start differs from the Gallery by %d pixels: last tab not restored", n)
	}
	again.key("ctrl+q")
	_ = again.waitExit(10 * time.Second)
}

// TestScreenshot writes docs/screenshot.png when SCREENSHOT_DIR is set
// (make screenshot).
func TestScreenshot(t *testing.T) {
	dir := os.Getenv("SCREENSHOT_DIR")
	if dir == "" {
		t.Skip("SCREENSHOT_DIR not set")
	}
	bin := binary(t, "EASEL_BIN")
	p := start(t, bin, t.TempDir(), "--demo")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p.waitDrawn(ctx)
	time.Sleep(time.Second)
	f, err := os.Create(filepath.Join(dir, "screenshot.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, p.screenshot()); err != nil {
		t.Fatal(err)
	}
	p.key("ctrl+q")
	_ = p.waitExit(10 * time.Second)
}

// SIGTERM (what a logout, kill and systemd send) leaves as Ctrl+Q does:
// the prompt typed since the start is kept for the next one, and nothing
// panics on the way out. (Under load, the CI run at ae83bff lost it from
// Fyne's file: the copy now has the last word when it is newer.)
func TestSIGTERMKeepsTheDraftInRealWindow(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	p := start(t, bin, home, "--demo")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p.waitSettled(ctx)
	p.key("ctrl+2")
	time.Sleep(300 * time.Millisecond)
	prompt := image.Rect(16, 120, 520, 230)
	empty := p.screenshot().SubImage(prompt)
	p.typeText("a harbour in the fog")
	// Typed, as the window shows it: on a loaded machine the keys can
	// still be on their way when the signal goes.
	p.waitScreen(ctx, "the typed prompt", func(img *image.RGBA) bool {
		return differingPixels(empty, img.SubImage(prompt)) > 300
	})
	time.Sleep(500 * time.Millisecond)
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := p.waitExit(15 * time.Second); err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, p.out)
	}
	if strings.Contains(p.out.String(), "panic") {
		t.Errorf("panicked on the way out:\n%s", p.out)
	}
	// The draft is in Fyne's file, or in Easel's own copy written after
	// it (Fyne defers a write within 100 ms of its last to the loop the
	// quit stopped): either way the next start has it. Started again
	// and left with Ctrl+Q, Fyne's file holds it.
	again := start(t, bin, home, "--demo")
	again.waitSettled(ctx)
	again.key("ctrl+q")
	if err := again.waitExit(15 * time.Second); err != nil {
		t.Fatalf("exit: %v\n%s", err, again.out)
	}
	prefs, err := os.ReadFile(filepath.Join(home, ".config", "fyne", "dev.easel.app", "preferences.json"))
	if err != nil || !strings.Contains(string(prefs), "a harbour in the fog") {
		t.Errorf("the draft was not kept (%v): %s", err, prefs)
	}
}

// #53: of 45 SIGTERMs one left a process with no window and one emptied
// the preferences. Twenty SIGTERMs at random moments of a start and its
// first seconds: each run ends within quitWithin (5 s), and Fyne's
// preferences and Easel's own copy of them are whole JSON after every
// one.
func TestSIGTERMAtRandomMomentsAlwaysEndsInRealWindow(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	dir := filepath.Join(home, ".config", "fyne", "dev.easel.app")
	rng := rand.New(rand.NewPCG(53, uint64(time.Now().UnixNano())))
	for run := range 20 {
		p := start(t, bin, home, "--demo")
		wait := time.Duration(rng.IntN(1500)) * time.Millisecond
		time.Sleep(wait)
		if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		sent := time.Now()
		select {
		case <-p.done:
		case <-time.After(5 * time.Second):
			_ = p.cmd.Process.Kill()
			<-p.done
			t.Fatalf("run %d: SIGTERM %v after the window showed: still running after 5 s:\n%s", run+1, wait, p.out)
		}
		t.Logf("run %d: SIGTERM %v after the window showed, ended in %v", run+1, wait, time.Since(sent).Round(time.Millisecond))
		if strings.Contains(p.out.String(), "panic") {
			t.Errorf("run %d panicked on the way out:\n%s", run+1, p.out)
		}
		for _, name := range []string{"preferences.json", "easel-state.json"} {
			data, err := os.ReadFile(filepath.Join(dir, name))
			if errors.Is(err, fs.ErrNotExist) && run == 0 {
				continue // a SIGTERM before anything was set
			}
			var v map[string]any
			if err != nil || json.Unmarshal(data, &v) != nil || len(v) == 0 {
				t.Errorf("run %d: %s is not whole (%v): %q", run+1, name, err, data)
			}
		}
	}
}
