package saver

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/honesty"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/testsupport/fixture"
)

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
	big := api.Image{Data: append(fixture.SolidPNG(t, 8, 8, color.Black), make([]byte, 3<<20)...), Format: "png", Width: 8, Height: 8}
	small := api.Image{Data: fixture.SolidPNG(t, 8, 8, color.Black), Format: "png", Width: 8, Height: 8}
	job := jobs.Info{ID: "j1", Started: time.Now(), Request: jobs.Request{Generate: &api.GenerateRequest{Prompt: "two foxes"}}}
	out := Library{Lib: lib}.Save(context.Background(), job, &api.ImageResult{Images: []api.Image{big, small}}, honesty.Report{}, nil)
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

// An edit with a mask keeps the result as sent and, as its own item
// made from it, the result with the first input's pixels back where the
// mask protected them.
func TestAMaskedEditKeepsWhatTheMaskProtects(t *testing.T) {
	lib, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	enc := func(img image.Image) []byte {
		var buf bytes.Buffer
		png.Encode(&buf, img)
		return buf.Bytes()
	}
	orig := image.NewNRGBA(image.Rect(0, 0, 8, 8))
	res := image.NewNRGBA(image.Rect(0, 0, 8, 8))
	msk := image.NewNRGBA(image.Rect(0, 0, 8, 8))
	for i := 0; i < len(orig.Pix); i += 4 {
		copy(orig.Pix[i:], []byte{0, 0, 255, 255})
		copy(res.Pix[i:], []byte{255, 0, 0, 255})
		copy(msk.Pix[i:], []byte{0, 0, 0, 255}) // kept…
	}
	for y := 0; y < 8; y++ {
		for x := 0; x < 4; x++ {
			msk.Pix[msk.PixOffset(x, y)+3] = 0 // …but the left half may change
		}
	}
	edit := &api.EditRequest{Prompt: "left half red", Images: []api.InputImage{{Name: "a.png", Data: enc(orig)}},
		Mask: &api.InputImage{Name: "mask.png", Data: enc(msk)}}
	sent := api.Image{Data: enc(res), Format: "png", Width: 8, Height: 8}
	unasked := Library{Lib: lib}.Save(context.Background(), jobs.Info{ID: "j0", Started: time.Now(), Request: jobs.Request{Edit: edit}}, &api.ImageResult{Images: []api.Image{sent}}, honesty.Report{}, nil)
	if len(unasked) != 1 {
		t.Fatalf("without Keep, %d images saved, want only the raw one", len(unasked))
	}
	job := jobs.Info{ID: "j", Started: time.Now(), Request: jobs.Request{Edit: edit, Keep: &jobs.Keep{}}}
	out := Library{Lib: lib}.Save(context.Background(), job, &api.ImageResult{Images: []api.Image{{Data: enc(res), Format: "png", Width: 8, Height: 8}}}, honesty.Report{}, nil)
	if len(out) != 2 || out[0].Err != nil || out[1].Err != nil {
		t.Fatalf("saved %+v, want the raw result and the kept one", out)
	}
	raw, _ := lib.Get(context.Background(), out[0].Item)
	if data, _ := os.ReadFile(lib.Path(raw)); !bytes.Equal(data, enc(res)) {
		t.Error("the raw result was not kept as the service sent it")
	}
	it, _ := lib.Get(context.Background(), out[1].Item)
	for _, id := range []int64{raw.ID, it.ID} {
		stored, err := lib.Inputs().Of(context.Background(), id)
		if err != nil || len(stored) != 2 || stored[0].Name != "a.png" || stored[1].Role != library.RoleMask {
			t.Errorf("item %d keeps inputs %+v (%v), want the first image and the mask", id, stored, err)
		}
	}
	if it.Kind != "kept" || raw.Kind != "edit" {
		t.Errorf("kinds %q and %q, want edit and kept", raw.Kind, it.Kind)
	}
	if len(it.Parents) == 0 || it.Parents[0] != raw.ID {
		t.Errorf("the kept image's parents %v, want the raw result first", it.Parents)
	}
	data, _ := os.ReadFile(lib.Path(it))
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if r, _, b, _ := img.At(1, 1).RGBA(); r>>8 != 255 || b != 0 {
		t.Error("the painted half did not keep the result")
	}
	if r, _, b, _ := img.At(6, 6).RGBA(); r != 0 || b>>8 != 255 {
		t.Error("the protected half did not get the original back")
	}
}

// A kept copy of an odd-shaped picture records its own file's size: the
// user's 10x3 picture (sent padded to 10x10), not the 20x20 result the
// service sent.
func TestAKeptCopyRecordsItsOwnSize(t *testing.T) {
	lib, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	enc := func(img image.Image) []byte {
		var buf bytes.Buffer
		png.Encode(&buf, img)
		return buf.Bytes()
	}
	padded, msk := image.NewNRGBA(image.Rect(0, 0, 10, 10)), image.NewNRGBA(image.Rect(0, 0, 10, 10))
	for i := 3; i < len(msk.Pix); i += 4 {
		msk.Pix[i] = 255
	}
	edit := &api.EditRequest{Prompt: "p", Images: []api.InputImage{{Name: "wide.png", Data: enc(padded)}},
		Mask: &api.InputImage{Name: "mask.png", Data: enc(msk)}}
	job := jobs.Info{ID: "j", Started: time.Now(), Request: jobs.Request{Edit: edit, Keep: &jobs.Keep{Frame: image.Rect(0, 3, 10, 6)}}}
	sent := api.Image{Data: enc(image.NewNRGBA(image.Rect(0, 0, 20, 20))), Format: "png", Width: 20, Height: 20}
	out := Library{Lib: lib}.Save(context.Background(), job, &api.ImageResult{Images: []api.Image{sent}}, honesty.Report{}, nil)
	if len(out) != 2 || out[1].Err != nil {
		t.Fatalf("saved %+v", out)
	}
	it, _ := lib.Get(context.Background(), out[1].Item)
	cfg, err := png.DecodeConfig(bytes.NewReader(must(os.ReadFile(lib.Path(it)))))
	if err != nil || it.Width != cfg.Width || it.Height != cfg.Height || it.Width != 10 || it.Height != 3 {
		t.Errorf("the kept item says %dx%d; its file is %dx%d (%v)", it.Width, it.Height, cfg.Width, cfg.Height, err)
	}
	// The kept copy is compared with the user's picture (the padded upload
	// cropped to its frame), kept beside it; the raw result is not.
	ins, _ := lib.Inputs().Of(context.Background(), out[1].Item)
	var own *library.StoredInput
	for i := range ins {
		if ins[i].Role == library.RoleOriginal {
			own = &ins[i]
		}
	}
	if own == nil || own.Width != 10 || own.Height != 3 {
		t.Errorf("the kept item's own picture: %+v", own)
	}
	raw, _ := lib.Inputs().Of(context.Background(), out[0].Item)
	for _, in := range raw {
		if in.Role == library.RoleOriginal {
			t.Error("the raw result was given the user's picture too")
		}
	}
}

func must(data []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return data
}
