package api

import (
	"fmt"
	"strings"
	"testing"
)

func TestPreflight(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n0000")
	jpg := []byte("\xff\xd8\xff\xe0")
	ok := GenerateRequest{Prompt: "x", ImageOptions: ImageOptions{Model: "gpt-image-2"}}
	with := func(f func(*GenerateRequest)) GenerateRequest { r := ok; f(&r); return r }
	for _, tc := range []struct {
		name  string
		req   GenerateRequest
		field string // "" means accepted
		kind  Kind
	}{
		{"plain", ok, "", 0},
		{"empty prompt", with(func(r *GenerateRequest) { r.Prompt = "  \n" }), "prompt", KindInvalidRequest},
		{"no model", with(func(r *GenerateRequest) { r.Model = "" }), "model", KindInvalidRequest},
		{"preset", with(func(r *GenerateRequest) { r.Size = "1536x1024" }), "", 0},
		{"dall-e-2 preset", with(func(r *GenerateRequest) { r.Size = "256x256" }), "", 0},
		{"auto", with(func(r *GenerateRequest) { r.Size = "auto" }), "", 0},
		{"custom ok", with(func(r *GenerateRequest) { r.Size = "1536x864" }), "", 0},
		{"custom max", with(func(r *GenerateRequest) { r.Size = "3840x2160" }), "", 0},
		{"not multiple of 16", with(func(r *GenerateRequest) { r.Size = "1000x1000" }), "size", KindInvalidSize},
		{"too wide", with(func(r *GenerateRequest) { r.Size = "3200x1024" }), "size", KindInvalidSize},
		{"side too long", with(func(r *GenerateRequest) { r.Size = "3856x2160" }), "size", KindInvalidSize},
		{"too few pixels", with(func(r *GenerateRequest) { r.Size = "768x768" }), "size", KindInvalidSize},
		{"too many pixels", with(func(r *GenerateRequest) { r.Size = "3840x2400" }), "size", KindInvalidSize},
		{"not a size", with(func(r *GenerateRequest) { r.Size = "big" }), "size", KindInvalidSize},
		{"transparent jpeg", with(func(r *GenerateRequest) { r.Background, r.OutputFormat = "transparent", "jpeg" }), "background", KindInvalidRequest},
		{"transparent webp", with(func(r *GenerateRequest) { r.Model, r.Background, r.OutputFormat = "gpt-image-1", "transparent", "webp" }), "", 0},
		{"transparent after gpt-image-2 lost it", with(func(r *GenerateRequest) { r.Background = "transparent" }), "background", KindInvalidRequest},
		{"xhigh on 2.5", with(func(r *GenerateRequest) { r.Model, r.Quality = "gpt-image-2.5-flare", "xhigh" }), "", 0},
		{"2.6 svg, complexity", with(func(r *GenerateRequest) { r.Model, r.OutputFormat, r.Complexity = "gpt-image-2.6-flare", "svg", "low" }), "", 0},
		{"2.6 gif of 4 frames", with(func(r *GenerateRequest) { r.Model, r.OutputFormat, r.Frames = "gpt-image-2.6-flare", "gif", 4 }), "", 0},
		{"2.6 gif sheet too long", with(func(r *GenerateRequest) {
			r.Model, r.OutputFormat, r.Frames = "gpt-image-2.6-flare", "gif", 9
			r.Size = "1536x1024"
		}), "frames", KindInvalidRequest},
		{"frames without gif", with(func(r *GenerateRequest) { r.Frames = 4 }), "frames", KindInvalidRequest},
		{"compression png", with(func(r *GenerateRequest) { r.OutputFormat, r.OutputCompression = "png", ptr(50) }), "output_compression", KindInvalidRequest},
		{"compression 101", with(func(r *GenerateRequest) { r.OutputFormat, r.OutputCompression = "jpeg", ptr(101) }), "output_compression", KindInvalidRequest},
		{"compression jpeg 0", with(func(r *GenerateRequest) { r.OutputFormat, r.OutputCompression = "jpeg", ptr(0) }), "", 0},
		{"n 11", with(func(r *GenerateRequest) { r.N = 11 }), "n", KindInvalidRequest},
		{"n 10", with(func(r *GenerateRequest) { r.N = 10 }), "", 0},
		{"partials 4", with(func(r *GenerateRequest) { r.PartialImages = 4 }), "partial_images", KindInvalidRequest},
		// A value no sheet lists goes to the service, which decides.
		{"unknown quality", with(func(r *GenerateRequest) { r.Quality = "ultra" }), "", 0},
		{"unknown model", with(func(r *GenerateRequest) { r.Model, r.Quality, r.Complexity = "acme-paint-9", "ultra", "low" }), "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.req.Check(DefaultLimits)
			if tc.field == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			e, _ := err.(*Error)
			if e == nil {
				t.Fatalf("accepted, want a %s error on %s", tc.kind, tc.field)
			}
			if e.Param != tc.field || e.Kind != tc.kind || !e.Preflight || e.Hint == "" {
				t.Errorf("got %+v", e)
			}
		})
	}

	edit := EditRequest{Prompt: "x", ImageOptions: ImageOptions{Model: "gpt-image-1"}, Images: []InputImage{{Name: "a.png", Data: png}}}
	if err := edit.Check(DefaultLimits); err != nil {
		t.Errorf("edit refused: %v", err)
	}
	many := edit
	many.Images = make([]InputImage, 17)
	for i := range many.Images {
		many.Images[i] = InputImage{Name: "a.jpg", Data: jpg}
	}
	if e, _ := many.Check(DefaultLimits).(*Error); e == nil || e.Param != "image" || !strings.Contains(e.Hint, "Remove 1") {
		t.Errorf("17 images: %v", e)
	}
	none := edit
	none.Images = nil
	if e, _ := none.Check(DefaultLimits).(*Error); e == nil || e.Param != "image" {
		t.Errorf("no images: %v", e)
	}
	gif := edit
	gif.Images = []InputImage{{Name: "a.gif", Data: []byte("GIF89a....")}}
	if e, _ := gif.Check(DefaultLimits).(*Error); e == nil || e.Kind != KindInvalidImage {
		t.Errorf("gif: %v", e)
	}
	badMask := edit
	badMask.Mask = &InputImage{Data: jpg}
	if e, _ := badMask.Check(DefaultLimits).(*Error); e == nil || e.Param != "mask" {
		t.Errorf("jpeg mask: %v", e)
	}
	custom := Limits{Multiple: 8, MaxAspect: 2, MaxSide: 2048, MinPixels: 1, MaxPixels: 1 << 30, MaxImages: 1}
	if err := custom.CheckSize("1000x1000"); err != nil {
		t.Errorf("configured limits ignored: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }

func TestSizeFixSuggestsNearestMultiple(t *testing.T) {
	e := DefaultLimits.CheckSize("1000x1010").(*Error)
	if !strings.Contains(e.Hint, "1008x1008") {
		t.Errorf("hint %q", e.Hint)
	}
}

func TestClosestModels(t *testing.T) {
	listed := []string{"gpt-image-1", "gpt-image-1-mini", "gpt-image-1.5", "dall-e-3", "gpt-4o-mini"}
	for _, tc := range []struct {
		name  string
		first string
	}{
		{"GPT-Image-1", "gpt-image-1"},
		{"gpt_image_1", "gpt-image-1"},
		{"gpt-image-15", "gpt-image-1.5"},
		{"dalle-3", "dall-e-3"},
		{"gpt-imag-1", "gpt-image-1"},
	} {
		got := ClosestModels(tc.name, listed)
		if len(got) == 0 || got[0] != tc.first {
			t.Errorf("ClosestModels(%q) = %v, want %s first", tc.name, got, tc.first)
		}
	}
	if got := ClosestModels("stable-diffusion-xl", listed); len(got) != 0 {
		t.Errorf("far name suggested %v", got)
	}
}

// Every suggestion passes every rule the client checks, for sizes that
// break each rule and several at once; and the message is a sentence.
func TestSizeSuggestionsPassEveryRule(t *testing.T) {
	for _, size := range []string{"4000x500", "1000x1010", "5000x5000", "100x100", "3840x3840", "500x4000",
		"1008x16", "16x16", "3850x2160", "2000x600", "7680x4320", "1x1", "1536x1023"} {
		err := DefaultLimits.CheckSize(size)
		e, _ := err.(*Error)
		if e == nil {
			t.Errorf("%s passed", size)
			continue
		}
		var w, h int
		if _, serr := fmt.Sscanf(e.Hint, "Try %dx%d", &w, &h); serr != nil {
			t.Errorf("%s: hint %q suggests no size", size, e.Hint)
			continue
		}
		if err := DefaultLimits.CheckSize(fmt.Sprintf("%dx%d", w, h)); err != nil {
			t.Errorf("%s: the suggested %dx%d fails: %v", size, w, h, err)
		}
		if !strings.HasPrefix(e.Message, "The size ") {
			t.Errorf("%s: message %q does not begin with words", size, e.Message)
		}
	}
	// The aspect is kept where the rules allow it.
	if w, h := DefaultLimits.Nearest(1000, 1010); w != 1008 || h != 1008 && h != 1024 {
		t.Errorf("1000x1010 suggests %dx%d", w, h)
	}
	if w, h := DefaultLimits.Nearest(4000, 500); float64(w)/float64(h) > 3 || w > 3840 {
		t.Errorf("4000x500 suggests %dx%d", w, h)
	}
}

// A message found before sending begins with words and ends as a
// sentence, never with a field's name ("size: 4000x500: …").
func TestPreflightMessagesAreSentences(t *testing.T) {
	bad := []error{
		GenerateRequest{Prompt: "", ImageOptions: ImageOptions{Model: "m"}}.Check(DefaultLimits),
		GenerateRequest{Prompt: "x", ImageOptions: ImageOptions{}}.Check(DefaultLimits),
		GenerateRequest{Prompt: "x", ImageOptions: ImageOptions{Model: "gpt-image-2", Background: "transparent"}}.Check(DefaultLimits),
		GenerateRequest{Prompt: "x", ImageOptions: ImageOptions{Model: "m", N: 11}}.Check(DefaultLimits),
		GenerateRequest{Prompt: "x", ImageOptions: ImageOptions{Model: "m", Size: "wide"}}.Check(DefaultLimits),
		EditRequest{Prompt: "x", ImageOptions: ImageOptions{Model: "m"}}.Check(DefaultLimits),
	}
	for i, err := range bad {
		e, _ := err.(*Error)
		if e == nil {
			t.Errorf("case %d passed", i)
			continue
		}
		first := e.Message[:1]
		if first != strings.ToUpper(first) || strings.HasPrefix(e.Message, e.Param+":") || !strings.HasSuffix(e.Message, ".") {
			t.Errorf("case %d: %q is not a sentence", i, e.Message)
		}
	}
}

// "Match the first image" keeps the first image's shape: exactly, within
// the rules, for a model that takes custom sizes; the closest standard
// shape for one that does not.
func TestMatchSizeKeepsTheShape(t *testing.T) {
	for _, c := range []struct {
		model string
		w, h  int
		want  string
	}{
		{"gpt-image-2", 3000, 2000, "3008x2000"},
		{"gpt-image-2", 1000, 1000, "1008x1008"},
		{"gpt-image-1", 3000, 2000, "1536x1024"},
		{"gpt-image-1", 1080, 1920, "1024x1536"},
		{"gpt-image-1", 1100, 1000, "1024x1024"},
		{"gpt-image-1", 0, 0, "auto"},
	} {
		got := MatchSize(c.model, c.w, c.h)
		if got != c.want {
			t.Errorf("%s %dx%d: %s, want %s", c.model, c.w, c.h, got, c.want)
		}
		if err := DefaultLimits.CheckSize(got); err != nil {
			t.Errorf("%s: %v", got, err)
		}
	}
}
