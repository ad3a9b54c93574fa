package honesty_test

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"easel/internal/api"
	"easel/internal/demoservice"
	"easel/internal/honesty"
	"easel/internal/imageio"
	"easel/internal/testsupport/fixture"
)

func client(t *testing.T, quirks ...demoservice.Quirk) *api.Client {
	t.Helper()
	ts := httptest.NewServer(demoservice.New(demoservice.Config{Quirks: quirks}))
	t.Cleanup(ts.Close)
	return api.New(api.Config{BaseURL: ts.URL + "/v1", APIKey: "sk-honesty-test-0123456789"})
}

func generate(t *testing.T, c *api.Client, o api.ImageOptions) (honesty.Asked, *api.ImageResult) {
	t.Helper()
	req := api.GenerateRequest{Prompt: "a lighthouse at dusk", ImageOptions: o}
	res, err := c.Generate(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	return honesty.AskedOf(&req, nil), res
}

// An answer as asked has no departures; each gateway quirk shows as the
// departure it is, in a sentence.
func TestDeparturesFromWhatWasAsked(t *testing.T) {
	opts := api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", N: 4, Stream: true, PartialImages: 1, OutputFormat: "png"}
	a, res := generate(t, client(t), opts)
	if d := honesty.Measure(a, res).Departures(); len(d) != 0 {
		t.Errorf("an honest answer has departures: %+v", d)
	}
	for _, tc := range []struct {
		quirk    demoservice.Quirk
		opts     api.ImageOptions
		trait    honesty.Trait
		sentence string
	}{
		{demoservice.QuirkOneImage, opts, honesty.Count, "asked for 4 images, the service sent 1"},
		{demoservice.QuirkNoImageStream, opts, honesty.Stream, "no previews"},
		{demoservice.QuirkLinksForInline, api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024"}, honesty.Inline, "sent links"},
		{demoservice.QuirkRewritePrompt, api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024"}, honesty.Prompt, "rewrote your prompt: “a lighthouse at dusk, masterpiece"},
		{demoservice.QuirkDropsBackground, api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", Background: "transparent", OutputFormat: "png"}, honesty.Transparency, "opaque image"},
	} {
		t.Run(string(tc.quirk), func(t *testing.T) {
			a, res := generate(t, client(t, tc.quirk), tc.opts)
			r := honesty.Measure(a, res)
			d := r.Departures()
			if len(d) != 1 || d[0].Trait != tc.trait {
				t.Fatalf("departures %+v, want one of %s", d, tc.trait)
			}
			if s := r.Sentences(); len(s) != 1 || !strings.Contains(s[0], tc.sentence) {
				t.Errorf("sentences %q, want %q", s, tc.sentence)
			}
		})
	}
	// A transparent image asked and sent is honoured.
	a, res = generate(t, client(t), api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", Background: "transparent", OutputFormat: "png"})
	if c, ok := honesty.Measure(a, res).Find(honesty.Transparency); !ok || !c.Honoured {
		t.Errorf("transparency: %+v %v", c, ok)
	}
}

// maskPNG keeps the left half (opaque) and frees the right (transparent).
func maskPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w/2; x++ {
			m.Set(x, y, color.NRGBA{0, 0, 0, 255})
		}
	}
	return fixture.PNG(t, m)
}

// The mask's honesty figure: ~0 % where the service honours the mask,
// ~100 % where it repaints everything (sub2api #6273).
func TestMaskHonestyFigure(t *testing.T) {
	for _, tc := range []struct {
		name     string
		quirks   []demoservice.Quirk
		min, max float64
		honoured bool
	}{
		{"honours the mask", nil, 0, 0.02, true},
		{"ignores the mask", []demoservice.Quirk{demoservice.QuirkIgnoreMask}, 0.95, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := client(t, tc.quirks...)
			req := api.EditRequest{Prompt: "a red boat on the right", ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024"},
				Images: []api.InputImage{{Name: "a.png", ContentType: "image/png", Data: fixture.SolidPNG(t, 1024, 1024, color.NRGBA{R: 255, B: 255, A: 255})}},
				Mask:   &api.InputImage{Name: "mask.png", ContentType: "image/png", Data: maskPNG(t, 1024, 1024)}}
			res, err := c.Edit(context.Background(), req, nil)
			if err != nil {
				t.Fatal(err)
			}
			r := honesty.Measure(honesty.AskedOf(nil, &req), res)
			m, ok := r.Find(honesty.Mask)
			if !ok || m.Changed < tc.min || m.Changed > tc.max || m.Honoured != tc.honoured {
				t.Fatalf("mask check %+v (found %v), want changed in [%v, %v]", m, ok, tc.min, tc.max)
			}
			r.Restored = true
			s := strings.Join(r.Sentences(), "; ")
			if !strings.Contains(s, "the area your mask protects") || strings.Contains(s, "changed 0 %") {
				t.Errorf("sentence %q", s)
			}
			if !tc.honoured && !strings.Contains(s, "Easel restored it") {
				t.Errorf("sentence %q does not say the area was restored", s)
			}
		})
	}
}

// Failures that show what a service cannot do become checks too.
func TestFailuresThatShowATrait(t *testing.T) {
	c := client(t, demoservice.QuirkStreamedEditFails)
	req := api.EditRequest{Prompt: "a boat", ImageOptions: api.ImageOptions{Model: "gpt-image-1", Stream: true},
		Images: []api.InputImage{{Name: "a.png", ContentType: "image/png", Data: fixture.SolidPNG(t, 64, 64, color.NRGBA{R: 255, B: 255, A: 255})}}}
	_, err := c.Edit(context.Background(), req, nil)
	e, _ := err.(*api.Error)
	if got := honesty.FromError(honesty.AskedOf(nil, &req), e); len(got) != 1 || got[0].Trait != honesty.StreamedEdit || got[0].Honoured {
		t.Errorf("streamed edit failure: %+v (%v)", got, err)
	}
	gen := api.GenerateRequest{Prompt: "a sticker", ImageOptions: api.ImageOptions{Model: "gpt-image-2", Background: "transparent", OutputFormat: "png"}}
	_, err = client(t, demoservice.QuirkRefusesTransparency).Generate(context.Background(), gen, nil)
	e, _ = err.(*api.Error)
	if got := honesty.FromError(honesty.AskedOf(&gen, nil), e); len(got) != 1 || got[0].Trait != honesty.Transparency {
		t.Errorf("refused transparency: %+v (%v)", got, err)
	}
}

// An edit of several reference images through a gateway that keeps only
// the first shows it in the service's own token count.
func TestDroppedReferenceImagesShowInTheTokenCount(t *testing.T) {
	for _, tc := range []struct {
		quirks   []demoservice.Quirk
		honoured bool
	}{{nil, true}, {[]demoservice.Quirk{demoservice.QuirkFirstImageOnly}, false}} {
		c := client(t, tc.quirks...)
		req := api.EditRequest{Prompt: "the first in the style of the second and the third", ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024"}}
		for range 3 {
			req.Images = append(req.Images, api.InputImage{Name: "a.png", ContentType: "image/png", Data: fixture.SolidPNG(t, 64, 64, color.NRGBA{R: 255, B: 255, A: 255})})
		}
		res, err := c.Edit(context.Background(), req, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := honesty.Measure(honesty.AskedOf(nil, &req), res)
		got, ok := r.Find(honesty.References)
		if !ok || got.Honoured != tc.honoured {
			t.Fatalf("quirks %v: %+v (%v)", tc.quirks, got, ok)
		}
		if !tc.honoured && !strings.Contains(strings.Join(r.Sentences(), ";"), "sent 3 reference images, the service's own token count shows at most 1 reached the model") {
			t.Errorf("sentences %q", r.Sentences())
		}
	}
}

// A masked edit answered at another shape says so, rather than nothing
// about the mask (issue 41, words).
func TestAMaskedEditAtAnotherShapeSaysSo(t *testing.T) {
	req := api.EditRequest{Prompt: "p", ImageOptions: api.ImageOptions{Model: "gpt-image-1"},
		Images: []api.InputImage{{Data: fixture.SolidPNG(t, 1000, 300, color.NRGBA{R: 255, B: 255, A: 255})}}, Mask: &api.InputImage{Data: maskPNG(t, 1000, 300)}}
	res := &api.ImageResult{Images: []api.Image{{Data: fixture.SolidPNG(t, 1536, 1024, color.NRGBA{R: 255, B: 255, A: 255}), Format: "png", Width: 1536, Height: 1024}}}
	r := honesty.Measure(honesty.AskedOf(nil, &req), res)
	c, ok := r.Find(honesty.MaskShape)
	if !ok || c.Honoured || c.Asked != "1000x300" || c.Got != "1536x1024" {
		t.Fatalf("check %+v (found %v)", c, ok)
	}
	if s := strings.Join(r.Sentences(), "; "); !strings.Contains(s, "1536x1024") || !strings.Contains(s, "mask") {
		t.Errorf("said %q", s)
	}
}

// An answer from a model whose maker signs (gpt-image-1) is checked for
// its Content Credentials: signed through a route that keeps them,
// unsigned through one that re-encodes; a model whose maker does not
// sign (dall-e-2) is not checked.
func TestARouteThatDropsCredentialsIsSaid(t *testing.T) {
	signedTS := httptest.NewServer(demoservice.New(demoservice.Config{}))
	t.Cleanup(signedTS.Close)
	unsignedTS := httptest.NewServer(demoservice.New(demoservice.Config{Unsigned: true}))
	t.Cleanup(unsignedTS.Close)
	for _, c := range []struct {
		url, model      string
		check, honoured bool
	}{
		{signedTS.URL, "gpt-image-1", true, true},
		{unsignedTS.URL, "gpt-image-1", true, false},
		{unsignedTS.URL, "dall-e-3", true, false},
	} {
		cl := api.New(api.Config{BaseURL: c.url + "/v1", APIKey: "sk-honesty-test-0123456789"})
		asked, res := generate(t, cl, api.ImageOptions{Model: c.model})
		got, found := honesty.Measure(asked, res).Find(honesty.Credentials)
		if found != c.check || found && got.Honoured != c.honoured {
			t.Errorf("%s via %s: check %+v (made %v), want made %v honoured %v", c.model, c.url, got, found, c.check, c.honoured)
		}
		if found && !got.Honoured && !strings.Contains(strings.Join(honesty.Measure(asked, res).Sentences(), " "), "re-encoded or stripped") {
			t.Errorf("the departure is not said")
		}
	}
}

// #53: an answer carrying a colour profile Easel cannot use (the tag
// count bomb) says on the card that its colours could not be drawn as
// made; a sound profile is a kept promise, and a picture without one is
// not checked.
func TestAnAnswerWhoseProfileIsDamagedSaysItsColoursCouldNotBeDrawn(t *testing.T) {
	var b bytes.Buffer
	png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, 8, 8)))
	bomb, err := os.ReadFile("../colour/testdata/bomb-tagcount.icc")
	if err != nil {
		t.Fatal(err)
	}
	damaged, ok := imageio.WithProfile(b.Bytes(), bomb, "Display P3")
	if !ok {
		t.Fatal("no profile embedded")
	}
	asked := honesty.Asked{Options: api.ImageOptions{Model: "gpt-image-1"}}
	answer := func(data []byte) honesty.Report {
		return honesty.Measure(asked, &api.ImageResult{Images: []api.Image{{Data: data, Format: "png", Width: 8, Height: 8}}})
	}
	r := answer(damaged)
	c, found := r.Find(honesty.Colours)
	if !found || c.Honoured || !strings.Contains(c.Got, "4294967295 tags") {
		t.Fatalf("check %+v (found %v)", c, found)
	}
	if s := strings.Join(r.Sentences(), " "); !strings.Contains(s, "could not draw this picture's colours") || !strings.Contains(s, "shown as sRGB") {
		t.Errorf("the card says %q", s)
	}
	if _, found := answer(b.Bytes()).Find(honesty.Colours); found {
		t.Error("a picture with no profile was checked for one")
	}
}

// A failure inside a 200 (the service's side) is not learnt as the
// refusal of a value its words happen to quote (#53).
func TestAServerFailureInsideA200IsNotLearntAsARefusal(t *testing.T) {
	a := honesty.Asked{Options: api.ImageOptions{Model: "gpt-image-1", Quality: "xhigh"}}
	failed := &api.Error{Kind: api.KindServer, Message: "The image could not be finished for quality 'xhigh': upstream error"}
	if got := honesty.FromError(a, failed); len(got) != 0 {
		t.Errorf("learnt %+v from a failure", got)
	}
	refused := &api.Error{Kind: api.KindInvalidRequest, Param: "quality", Message: "Invalid value for quality: 'xhigh'"}
	if got := honesty.FromError(a, refused); len(got) != 1 || got[0].Honoured {
		t.Errorf("learnt %+v from a refusal", got)
	}
}
