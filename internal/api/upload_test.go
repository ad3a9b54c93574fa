package api_test

import (
	"context"
	"errors"
	"image"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/demoservice"
)

// noiseFiles writes n PNG files of noise, side x side (about 4·side²
// bytes each, as noise does not compress), and returns them as inputs
// read from disk.
func noiseFiles(t *testing.T, n, side int) []api.InputImage {
	t.Helper()
	dir := t.TempDir()
	var out []api.InputImage
	for i := range n {
		img := image.NewNRGBA(image.Rect(0, 0, side, side))
		r := rand.New(rand.NewPCG(uint64(i), 7))
		for j := range img.Pix {
			img.Pix[j] = uint8(r.Uint32())
		}
		path := filepath.Join(dir, "ref"+string(rune('a'+i))+".png")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := (&png.Encoder{CompressionLevel: png.NoCompression}).Encode(f, img); err != nil {
			t.Fatal(err)
		}
		st, _ := f.Stat()
		f.Close()
		out = append(out, api.InputImage{Name: filepath.Base(path), ContentType: "image/png", Path: path, Size: st.Size()})
	}
	return out
}

// progressLog keeps what an upload reported.
type progressLog struct {
	mu   sync.Mutex
	seen []api.Upload
}

func (p *progressLog) add(u api.Upload) {
	p.mu.Lock()
	p.seen = append(p.seen, u)
	p.mu.Unlock()
}

func (p *progressLog) all() []api.Upload {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]api.Upload(nil), p.seen...)
}

// An edit's references go out from their files, told as they go: over
// a throttled link the figures rise in order and reach the total before
// the answer comes, with a rate and a time left on the way.
func TestAnUploadStreamsFromItsFilesAndSaysHowFarItIs(t *testing.T) {
	c, _, _ := newFake(t, demoservice.Config{UploadRate: 8 << 20})
	refs := noiseFiles(t, 4, 1024)
	var total int64
	for _, r := range refs {
		total += r.Size
	}
	var log progressLog
	ctx := api.WithOnUpload(context.Background(), log.add)
	res, err := c.Edit(ctx, api.EditRequest{Prompt: "the four together", ImageOptions: api.ImageOptions{Model: "gpt-image-1"}, Images: refs}, nil)
	if err != nil || len(res.Images) != 1 {
		t.Fatalf("edit: %v", err)
	}
	seen := log.all()
	if len(seen) < 4 {
		t.Fatalf("only %d progress reports for a %d-byte upload over two seconds", len(seen), total)
	}
	last := seen[len(seen)-1]
	if !last.Done() || last.Total < total || last.Total > total+64<<10 {
		t.Errorf("the last report is %d of %d; the images are %d bytes", last.Sent, last.Total, total)
	}
	rated := false
	for i, u := range seen {
		if i > 0 && u.Sent < seen[i-1].Sent {
			t.Fatalf("report %d went back from %d to %d", i, seen[i-1].Sent, u.Sent)
		}
		if u.Rate() > 0 && u.Left() > 0 {
			rated = true
		}
	}
	if !rated {
		t.Error("no report had a rate and a time left")
	}
}

// Cancel during the upload stops it at once: nothing more is read from
// the files, and the error says the request was cancelled before the
// service had it all, so it was not charged.
func TestCancelDuringTheUploadSendsNothingFurther(t *testing.T) {
	c, _, _ := newFake(t, demoservice.Config{UploadRate: 1 << 20})
	// 16 MB: more than the system's socket buffers take at once, so the
	// body is still going out when the cancel comes.
	refs := noiseFiles(t, 4, 1024)
	var log progressLog
	var cancelled time.Time
	ctx, cancel := context.WithCancel(context.Background())
	ctx = api.WithOnUpload(ctx, func(u api.Upload) {
		log.add(u)
		if u.Sent > 1<<20 && cancelled.IsZero() {
			cancelled = time.Now()
			cancel()
		}
	})
	_, err := c.Edit(ctx, api.EditRequest{Prompt: "p", ImageOptions: api.ImageOptions{Model: "gpt-image-1"}, Images: refs}, nil)
	took := time.Since(cancelled)
	var e *api.Error
	if !errors.As(err, &e) || e.Kind != api.KindCancelled || e.Reached {
		t.Fatalf("cancelled mid-upload: %v", err)
	}
	if took > time.Second {
		t.Errorf("the cancel took %v to stop the upload", took)
	}
	before := len(log.all())
	time.Sleep(300 * time.Millisecond)
	seen := log.all()
	if len(seen) != before {
		t.Errorf("the upload went on after the cancel: %d reports then %d", before, len(seen))
	}
	if last := seen[len(seen)-1]; last.Done() {
		t.Errorf("the whole body went out (%d of %d) despite the cancel", last.Sent, last.Total)
	}
}

// A file changed on disk after it was checked is not sent as something
// else: the edit stops and names the file.
func TestAFileChangedBeforeItIsSentIsNamed(t *testing.T) {
	c, _, _ := newFake(t, demoservice.Config{})
	refs := noiseFiles(t, 2, 64)
	f, err := os.OpenFile(refs[1].Path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("grown since")
	f.Close()
	_, err = c.Edit(context.Background(), api.EditRequest{Prompt: "p", ImageOptions: api.ImageOptions{Model: "gpt-image-1"}, Images: refs}, nil)
	var e *api.Error
	if !errors.As(err, &e) || e.Kind != api.KindInvalidImage || !strings.Contains(e.Message, refs[1].Name) {
		t.Fatalf("a changed file: %v", err)
	}
}
