package imageform

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2/test"

	"easel/internal/api"
	"easel/ui/modelpick"
)

func TestTheFormOffersWhatTheModelsSheetSays(t *testing.T) {
	test.NewTempApp(t)
	f := New(modelpick.NewRegistry(nil).New(api.EndpointImages, "", "gpt-image-1"))
	if slices.Contains(f.quality.Options, "Max") || f.complexityRow.Visible() || slices.Contains(f.format.Options, "SVG (vector)") {
		t.Fatalf("gpt-image-1 offers %v, %v, complexity %v", f.quality.Options, f.format.Options, f.complexityRow.Visible())
	}
	f.Model.SetText("gpt-image-2.6-flare")
	for _, want := range []string{"Extra high", "Max", OtherLabel()} {
		if !slices.Contains(f.quality.Options, want) {
			t.Errorf("2.6 quality offers %v, not %q", f.quality.Options, want)
		}
	}
	if !f.complexityRow.Visible() {
		t.Error("2.6 shows no complexity")
	}
	if !slices.Contains(f.format.Options, "GIF (animated)") || !slices.Contains(f.format.Options, "SVG (vector)") {
		t.Errorf("2.6 formats %v", f.format.Options)
	}
	f.quality.SetSelected("Max")
	f.complexityC.set("low")
	f.format.SetSelected("GIF (animated)")
	if !f.gifRow.Visible() {
		t.Fatal("GIF chosen, no frames shown")
	}
	f.frames.SetSelected("6")
	o := f.Options()
	if o.Quality != "max" || o.Complexity != "low" || o.OutputFormat != "gif" || o.Frames != 6 || o.FrameMillis != 120 {
		t.Errorf("options %+v", o)
	}
}

// #57: a model change from gpt-image-2.6 (Extra high, GIF of 4 frames)
// to gpt-image-1 leaves only values gpt-image-1 takes, with one line
// saying what changed; Undo puts the values back, as typed values; a
// value typed under Other value… is the user's and stays.
func TestAModelChangeResetsWhatTheNewModelCannotTake(t *testing.T) {
	test.NewTempApp(t)
	f := New(modelpick.NewRegistry(nil).New(api.EndpointImages, "", "gpt-image-2.6-sunburst"))
	f.quality.SetSelected("Extra high")
	f.format.SetSelected("GIF (animated)")
	f.frames.SetSelected("4")
	if o := f.Options(); o.Quality != "xhigh" || o.OutputFormat != "gif" || o.Frames != 4 || f.ModelNote() != "" {
		t.Fatalf("on 2.6: %+v, note %q", o, f.ModelNote())
	}
	f.Model.SetText("gpt-image-1")
	o := f.Options()
	if o.Quality != "auto" || o.OutputFormat != "png" || o.Frames != 0 || f.gifRow.Visible() || f.qualityC.other.Visible() {
		t.Errorf("on gpt-image-1: %+v, frames row shown %v", o, f.gifRow.Visible())
	}
	if note := f.ModelNote(); note != "gpt-image-1 does not take Extra high, GIF (animated): set to Auto, PNG." {
		t.Errorf("note %q", note)
	}
	f.UndoModelReset()
	if o := f.Options(); o.Quality != "xhigh" || o.OutputFormat != "gif" || f.ModelNote() != "" {
		t.Errorf("after Undo: %+v, note %q", o, f.ModelNote())
	}
	// A typed value stays through a change, and nothing is said.
	f.Model.SetText("gpt-image-2.6-sunburst")
	f.quality.SetSelected(OtherLabel())
	f.qualityC.other.SetText("")
	test.Type(f.qualityC.other, "ultra")
	f.format.SetSelected("PNG")
	f.Model.SetText("gpt-image-1")
	if o := f.Options(); o.Quality != "ultra" || f.ModelNote() != "" {
		t.Errorf("a typed value: %+v, note %q", o, f.ModelNote())
	}
}

func TestAnyValueIsOneClickAway(t *testing.T) {
	test.NewTempApp(t)
	f := New(modelpick.NewRegistry(nil).New(api.EndpointImages, "", "acme-paint-9"))
	f.quality.SetSelected(OtherLabel())
	test.Type(f.qualityC.other, "ultra")
	if o := f.Options(); o.Quality != "ultra" {
		t.Errorf("quality %q", o.Quality)
	}
	// Reused settings with a value no list has come back as typed.
	g := New(modelpick.NewRegistry(nil).New(api.EndpointImages, "", "gpt-image-1"))
	g.SetOptions(api.ImageOptions{Model: "gpt-image-2.6-sunburst", Quality: "xhigh", OutputFormat: "svg", Complexity: "medium"})
	if o := g.Options(); o.Quality != "xhigh" || o.OutputFormat != "svg" || o.Complexity != "medium" {
		t.Errorf("reused %+v", o)
	}
}
