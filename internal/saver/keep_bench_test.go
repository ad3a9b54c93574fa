package saver

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/imageio"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/testsupport/benchfloor"
	"easel/internal/testsupport/fixture"
)

// answerAtOnce is a service whose edit answers at once with result, and
// notes when.
type answerAtOnce struct {
	result []byte
	mu     sync.Mutex
	at     time.Time
}

func (a *answerAtOnce) Generate(context.Context, api.GenerateRequest, func(api.Partial)) (*api.ImageResult, error) {
	return nil, context.Canceled
}

func (a *answerAtOnce) Edit(context.Context, api.EditRequest, func(api.Partial)) (*api.ImageResult, error) {
	a.mu.Lock()
	a.at = time.Now()
	a.mu.Unlock()
	return &api.ImageResult{Images: []api.Image{{Data: a.result, Format: "png", Width: 3840, Height: 2160}}}, nil
}

// photoPNG is a w×h picture with smooth areas and noise, as PNG.
func photoPNG(b *testing.B, w, h int, seed uint64) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(seed, 9))
	for y := range h {
		for x := range w {
			i := img.PixOffset(x, y)
			n := uint8(r.IntN(16))
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = uint8(x*255/w)+n, uint8(y*255/h)+n, uint8(seed*40)+n, 255
		}
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkKeptEdit4K runs a masked edit at 3840×2160 whose unmasked area
// is kept through the real runner, saver and library, against a service
// that answers at once, and reports the pictures decoded whole after the
// answer (goal 3: the result, the first image and the mask, each once,
// shared by the mask's honesty, the composite and the thumbnails) and
// the time from the answer to the saved composite against decoding the
// three once (goal at most 1.3×), timed in pairs.
func BenchmarkKeptEdit4K(b *testing.B) {
	const w, h = 3840, 2160
	first, result := photoPNG(b, w, h, 1), photoPNG(b, w, h, 2)
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			a := uint8(255)
			if x > w/3 && x < 2*w/3 && y > h/3 && y < 2*h/3 {
				a = 0 // the middle may change
			}
			m.SetNRGBA(x, y, color.NRGBA{A: a})
		}
	}
	mask := fixture.PNG(b, m)

	lib, err := library.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer lib.Close()
	svc := &answerAtOnce{result: result}
	done := make(chan jobs.Event, 1)
	runner := jobs.New(svc, Library{Lib: lib}, func(e jobs.Event) {
		if e.State.Final() {
			done <- e
		}
	}, jobs.Options{})
	defer runner.Wait()

	var decodes int64
	keep := func() float64 {
		req := jobs.Request{Profile: "bench", Keep: &jobs.Keep{Feather: 8}, Edit: &api.EditRequest{Prompt: "a lantern in the middle",
			ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "3840x2160"},
			Images:       []api.InputImage{{Name: "first.png", ContentType: "image/png", Data: first}},
			Mask:         &api.InputImage{Name: "mask.png", ContentType: "image/png", Data: mask}}}
		if _, err := runner.Submit(req); err != nil {
			b.Fatal(err)
		}
		e := <-done
		end := time.Now()
		if e.State != jobs.Done || len(e.ItemIDs) != 2 {
			b.Fatalf("the edit ended %v with %d items: %v", e.State, len(e.ItemIDs), e.Err)
		}
		svc.mu.Lock()
		took := end.Sub(svc.at)
		svc.mu.Unlock()
		return float64(took.Nanoseconds())
	}
	decodeThree := func() float64 {
		return benchfloor.MedianNs(1, func() {
			for _, data := range [][]byte{result, first, mask} {
				if _, err := imageio.DecodeBounded(bytes.NewReader(data), imageio.MaxPixels); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	counted := func() float64 {
		before := imageio.Decodes()
		t := keep()
		decodes = max(decodes, imageio.Decodes()-before)
		return t
	}
	b.ResetTimer()
	floors, ratios := benchfloor.Pairs(max(b.N, 5), decodeThree, counted)
	median := benchfloor.Median(ratios)
	b.Logf("kept edit at %dx%d: %d pictures decoded after the answer (goal 3); answer to saved composite %.2f× decoding the three once (%.0f ms; goal 1.3×), %.2f× to %.2f× over %d runs",
		w, h, decodes, median, benchfloor.Median(floors)/1e6, ratios[0], ratios[len(ratios)-1], len(ratios))
	if decodes > 3 {
		b.Errorf("%d pictures decoded after the answer, goal 3", decodes)
	}
	b.ReportMetric(float64(decodes), "decodes")
	b.ReportMetric(median, "x-decode-three")
}
