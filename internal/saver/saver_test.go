package saver

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os/exec"
	"strings"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/jobs"
	"easel/internal/library"
)

func pngBytes(t testing.TB, side int) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, side, side))); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Each image is saved on its own: on a disk that cannot take the first
// (a small tmpfs, where this machine allows mounting one), the second is
// still saved, and the first comes back with the real cause, to be saved
// elsewhere.
func TestOneFailedSaveCostsOnlyThatImage(t *testing.T) {
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small disk here: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", mnt).Run() })
	lib, err := library.Open(mnt)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	big := api.Image{Data: append(pngBytes(t, 8), make([]byte, 3<<20)...), Format: "png", Width: 8, Height: 8}
	small := api.Image{Data: pngBytes(t, 8), Format: "png", Width: 8, Height: 8}
	job := jobs.Info{ID: "j1", Started: time.Now(), Request: jobs.Request{Generate: &api.GenerateRequest{Prompt: "two foxes"}}}
	out := Library{Lib: lib}.Save(context.Background(), job, &api.ImageResult{Images: []api.Image{big, small}})
	if len(out) != 2 {
		t.Fatalf("%d outcomes, want 2", len(out))
	}
	if out[0].Err == nil || !bytes.Equal(out[0].Image.Data, big.Data) {
		t.Errorf("the image that did not fit: %v, image kept %v", out[0].Err, len(out[0].Image.Data))
	}
	if cause := library.Cause(out[0].Err); !strings.Contains(cause, "full") {
		t.Errorf("the cause reads %q, want it to say the disk is full", cause)
	}
	if out[1].Err != nil || out[1].Item == 0 {
		t.Errorf("the second image was not saved: %+v", out[1])
	}
	if it, err := lib.Get(context.Background(), out[1].Item); err != nil || it.Prompt != "two foxes" {
		t.Errorf("the saved image: %+v, %v", it, err)
	}
}
