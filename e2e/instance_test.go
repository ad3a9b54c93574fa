//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// editTabHeader is where the Edit tab's label is, with or without a
// banner above the tabs; it turns the primary colour when Edit is shown.
var editTabHeader = image.Rect(225, 30, 290, 200)

// A second `easel a.png` while a window runs on the same gallery hands
// a.png to that window, which shows it in Edit, and exits without a
// window of its own.
func TestASecondStartHandsItsFileToTheRunningWindow(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	p := start(t, bin, home, "--demo")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	before := p.waitDrawn(ctx)
	if n := bluePixels(before, editTabHeader); n > 20 {
		t.Fatalf("Edit is already shown (%d blue pixels on its tab)", n)
	}

	img := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for i := range img.Pix {
		img.Pix[i] = 200
	}
	img.Set(0, 0, color.NRGBA{255, 0, 0, 255})
	var buf bytes.Buffer
	png.Encode(&buf, img)
	file := filepath.Join(t.TempDir(), "reference.png")
	os.WriteFile(file, buf.Bytes(), 0o600)

	ev, err := listen()
	if err != nil {
		t.Fatal(err)
	}
	defer ev.close()
	second := exec.Command(bin, file)
	second.Env = append(os.Environ(), homeEnv(home)...)
	var out bytes.Buffer
	second.Stdout, second.Stderr = &out, &out
	started := time.Now()
	if err := second.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- second.Wait() }()
	if _, err := ev.mapped(ctx, second.Process.Pid, done); err == nil {
		t.Fatal("the second start opened a window of its own")
	}
	if second.ProcessState == nil || !second.ProcessState.Success() {
		t.Fatalf("the second start did not exit cleanly: %v\n%s", second.ProcessState, out.String())
	}
	t.Logf("the second start handed over and exited in %v", time.Since(started).Round(time.Millisecond))

	p.waitScreen(ctx, "Edit in the running window", func(shot *image.RGBA) bool { return bluePixels(shot, editTabHeader) > 20 })
	p.key("ctrl+q")
	if err := p.waitExit(10 * time.Second); err != nil {
		t.Errorf("exit: %v", err)
	}
	// With the window gone, the next start opens its own.
	third := start(t, bin, home, "--demo")
	third.waitDrawn(ctx)
}
