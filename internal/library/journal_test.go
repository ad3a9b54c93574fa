package library

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"easel/internal/api"
)

// A job written down and never crossed out (a kill, a close) comes back
// at the next open, once, with its prompt, settings, lineage and an
// edit's inputs in order; one crossed out does not.
func TestJournalListsWhatAKillCutOff(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lib")
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	red, blue := pngOf(t, 8, 8, color.NRGBA{255, 0, 0, 255}), pngOf(t, 8, 8, color.NRGBA{0, 0, 255, 255})
	mask := pngOf(t, 8, 8, color.NRGBA{0, 0, 0, 0})
	feather := 6
	frame := image.Rect(5, 0, 85, 60) // a padded first input's picture
	started := time.Date(2026, 11, 24, 19, 3, 0, 0, time.UTC)
	edit := &api.EditRequest{Prompt: "the first in the style of the second", ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", N: 2},
		Images: []api.InputImage{{Name: "red.png", Data: red.Data}, {Name: "blue.png", Data: blue.Data}},
		Mask:   &api.InputImage{Name: "mask.png", Data: mask.Data}, InputFidelity: "high"}
	if err := l.Journal().Begin(ctx, Journalled{Job: "job-edit", Profile: "p1", Started: started, Edit: edit, Parents: []int64{4}, KeepFeather: &feather, KeepFrame: &frame}); err != nil {
		t.Fatal(err)
	}
	gen := &api.GenerateRequest{Prompt: "a lighthouse", ImageOptions: api.ImageOptions{Model: "gpt-image-1", Quality: "high"}}
	if err := l.Journal().Begin(ctx, Journalled{Job: "job-gen", Profile: "p1", Started: started.Add(time.Second), Generate: gen}); err != nil {
		t.Fatal(err)
	}
	if err := l.Journal().Begin(ctx, Journalled{Job: "job-done", Profile: "p1", Started: started, Generate: gen}); err != nil {
		t.Fatal(err)
	}
	if err := l.Journal().End(ctx, "job-done"); err != nil {
		t.Fatal(err)
	}
	l.Close() // the kill: two jobs never crossed out

	l, err = Open(dir) // recovery runs, and must keep the journal's inputs
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	got, err := l.Journal().Interrupted(ctx)
	if err != nil || len(got) != 2 {
		t.Fatalf("interrupted %+v (%v)", got, err)
	}
	e := got[0]
	if e.Job != "job-edit" || e.Profile != "p1" || !e.Started.Equal(started) || e.Edit == nil || e.Edit.Prompt != edit.Prompt ||
		e.Edit.N != 2 || e.Edit.InputFidelity != "high" || len(e.Parents) != 1 || e.KeepFeather == nil || *e.KeepFeather != 6 || e.KeepFrame == nil || *e.KeepFrame != frame {
		t.Fatalf("edit back as %+v", e)
	}
	// The references come back as the stored files, read as they are
	// sent again; the mask as its bytes.
	var first []byte
	if len(e.Edit.Images) > 0 {
		first, _ = e.Edit.Images[0].Bytes()
	}
	if len(e.Edit.Images) != 2 || !bytes.Equal(first, red.Data) || e.Edit.Images[0].Data != nil || e.Edit.Images[1].Name != "blue.png" ||
		e.Edit.Mask == nil || !bytes.Equal(e.Edit.Mask.Data, mask.Data) || e.Edit.Images[0].ContentType != "image/png" {
		t.Errorf("inputs back out of order or lost: %d images, mask %v", len(e.Edit.Images), e.Edit.Mask != nil)
	}
	if g := got[1]; g.Generate == nil || g.Generate.Quality != "high" {
		t.Errorf("generation back as %+v", g)
	}
	if again, _ := l.Journal().Interrupted(ctx); len(again) != 0 {
		t.Errorf("listed twice: %+v", again)
	}
}

// A command line's job is left in the journal while its process holds
// it: neither the window's start nor another run takes it. Once the
// process is gone (its lock released), the next run is told of it once,
// and it stays listed until the window takes it.
func TestCommandLineJobsOutlivedByTheirProcess(t *testing.T) {
	l, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	release, err := l.Journal().HoldJob("cli-1")
	if err != nil {
		t.Fatal(err)
	}
	j := Journalled{Job: "cli-1", Profile: "p", Started: time.Now(), Owner: OwnerCLI, Group: "vip",
		Generate: &api.GenerateRequest{Prompt: "a fox", ImageOptions: api.ImageOptions{Model: "gpt-image-1"}}}
	if err := l.Journal().Begin(ctx, j); err != nil {
		t.Fatal(err)
	}
	if got, _ := l.Journal().Orphans(ctx); len(got) != 0 {
		t.Errorf("a job at work was called cut off: %+v", got)
	}
	if got, _ := l.Journal().Interrupted(ctx); len(got) != 0 {
		t.Errorf("the window took a job at work: %+v", got)
	}
	release()
	got, err := l.Journal().Orphans(ctx)
	if err != nil || len(got) != 1 || got[0].Group != "vip" || got[0].Generate.Prompt != "a fox" {
		t.Fatalf("the cut-off job: %+v %v", got, err)
	}
	if again, _ := l.Journal().Orphans(ctx); len(again) != 0 {
		t.Errorf("told twice: %+v", again)
	}
	if listed, _ := l.Journal().CutOff(ctx); len(listed) != 1 {
		t.Errorf("easel jobs lists %+v", listed)
	}
	if taken, _ := l.Journal().Interrupted(ctx); len(taken) != 1 {
		t.Errorf("the window's start lists %+v", taken)
	}
}

// An edit's references given as files are copied into the store while
// the request goes out, not before: Begin returns at once, and a close
// (the end of a command line) waits for them, so the next open can
// send the edit again from its own copies, in order, even once the
// user's files are gone.
func TestReferenceFilesAreKeptWhileTheEditGoesOut(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lib")
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	files := t.TempDir()
	var images []api.InputImage
	var want [][]byte
	for i, c := range []color.NRGBA{{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}} {
		p := pngOf(t, 8+i, 8, c)
		path := filepath.Join(files, fmt.Sprintf("ref%d.png", i))
		if err := os.WriteFile(path, p.Data, 0o600); err != nil {
			t.Fatal(err)
		}
		images = append(images, api.InputImage{Name: filepath.Base(path), ContentType: "image/png", Path: path, Size: int64(len(p.Data))})
		want = append(want, p.Data)
	}
	made := pngOf(t, 8, 8, color.NRGBA{9, 9, 9, 255}) // a padded first image Easel made
	images = append([]api.InputImage{{Name: "padded.png", Data: made.Data}}, images...)
	want = append([][]byte{made.Data}, want...)
	edit := &api.EditRequest{Prompt: "the four", ImageOptions: api.ImageOptions{Model: "gpt-image-1"}, Images: images}
	if err := l.Journal().Begin(ctx, Journalled{Job: "job-files", Profile: "p1", Started: time.Now(), Edit: edit}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	if err := os.RemoveAll(files); err != nil {
		t.Fatal(err)
	}
	l, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	got, err := l.Journal().Interrupted(ctx)
	if err != nil || len(got) != 1 || got[0].Edit == nil || len(got[0].Edit.Images) != 4 {
		t.Fatalf("interrupted %+v (%v)", got, err)
	}
	for i, in := range got[0].Edit.Images {
		data, err := in.Bytes()
		if err != nil || !bytes.Equal(data, want[i]) || in.Name != images[i].Name {
			t.Errorf("reference %d came back as %s (%v), not %s", i+1, in.Name, err, images[i].Name)
		}
	}
}

// A reference hashed once is not read again to be kept a second time,
// but a file changed since (same size, another time) is hashed afresh.
func TestAReferenceChangedSinceItWasHashedIsHashedAgain(t *testing.T) {
	l, err := Open(filepath.Join(t.TempDir(), "lib"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	path := filepath.Join(t.TempDir(), "ref.png")
	// Stored uncompressed, two colours are files of one size.
	stored := func(c color.NRGBA) []byte {
		img := image.NewNRGBA(image.Rect(0, 0, 8, 8))
		for i := 0; i < len(img.Pix); i += 4 {
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
		}
		var b bytes.Buffer
		(&png.Encoder{CompressionLevel: png.NoCompression}).Encode(&b, img)
		return b.Bytes()
	}
	red, blue := stored(color.NRGBA{255, 0, 0, 255}), stored(color.NRGBA{0, 0, 255, 255})
	os.WriteFile(path, red, 0o600)
	first, err := l.inputs.storeInput(Input{Name: "ref.png", Path: path})
	if err != nil {
		t.Fatal(err)
	}
	again, _ := l.inputs.storeInput(Input{Name: "ref.png", Path: path})
	os.WriteFile(path, blue, 0o600)
	later := time.Now().Add(time.Minute)
	os.Chtimes(path, later, later)
	changed, err := l.inputs.storeInput(Input{Name: "ref.png", Path: path})
	if err != nil {
		t.Fatal(err)
	}
	if again.Hash != first.Hash || changed.Hash == first.Hash {
		t.Errorf("hashes %s, %s, then after a change %s", first.Hash[:8], again.Hash[:8], changed.Hash[:8])
	}
}
