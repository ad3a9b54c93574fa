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
	// Back to a model that does not list max: the value stays, as typed.
	f.Model.SetText("gpt-image-1")
	if f.quality.Selected != OtherLabel() || f.qualityC.other.Text != "max" || !f.qualityC.other.Visible() {
		t.Errorf("max became %q / %q", f.quality.Selected, f.qualityC.other.Text)
	}
	if o := f.Options(); o.Quality != "max" || o.Complexity != "" {
		t.Errorf("options on gpt-image-1 %+v", o)
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
