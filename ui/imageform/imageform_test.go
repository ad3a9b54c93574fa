package imageform

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/ui/modelpick"
)

func TestTransparentBackgroundSwitchesJPEGToPNG(t *testing.T) {
	test.NewTempApp(t)
	f := New(modelpick.NewRegistry(nil).New(api.EndpointImages, "", "gpt-image-1"))
	f.format.SetSelected("JPEG")
	if !f.compressRow.Visible() {
		t.Fatal("compression hidden for JPEG")
	}
	f.background.SetSelected("Transparent")
	if f.format.Selected != "PNG" {
		t.Errorf("format stayed %s with a transparent background", f.format.Selected)
	}
	if !f.bgNote.Visible() || f.bgNote.Text == "" {
		t.Error("no explanation shown for the format change")
	}
	if f.compressRow.Visible() {
		t.Error("compression still shown for PNG")
	}
	f.format.SetSelected("JPEG")
	if f.background.Selected == "Transparent" {
		t.Error("JPEG chosen but background still transparent")
	}
	if !f.formatNote.Visible() {
		t.Error("the background's change is not said")
	}
	// The note is about that change: the next edit clears it.
	f.quality.SetSelected(f.quality.Options[1])
	if f.formatNote.Visible() {
		t.Errorf("the note %q stays after another option changed", f.formatNote.Text)
	}
}

func TestOptionsReadEveryControl(t *testing.T) {
	test.NewTempApp(t)
	f := New(modelpick.NewRegistry(nil).New(api.EndpointImages, "", "gpt-image-1"))
	f.size.SetSelected(CustomSizeLabel())
	if !f.customRow.Visible() {
		t.Fatal("custom size fields hidden")
	}
	f.customW.SetText("1536")
	f.customH.SetText(" 864 ")
	f.quality.SetSelected("High")
	f.format.SetSelected("WebP")
	f.compression.SetValue(70)
	f.moderation.SetSelected("Low")
	f.n.SetSelected("4")
	f.partials.SetSelected("3")
	o := f.Options()
	if o.Size != "1536x864" || o.Quality != "high" || o.OutputFormat != "webp" || o.Moderation != "low" || o.N != 4 {
		t.Errorf("options = %+v", o)
	}
	if o.OutputCompression == nil || *o.OutputCompression != 70 {
		t.Errorf("compression = %v, want 70", o.OutputCompression)
	}
	if !o.Stream || o.PartialImages != 3 {
		t.Errorf("stream %v partial %d, want true 3", o.Stream, o.PartialImages)
	}
	f.stream.SetChecked(false)
	f.format.SetSelected("PNG")
	o = f.Options()
	if o.Stream || o.PartialImages != 0 || o.OutputCompression != nil {
		t.Errorf("unstreamed PNG options = %+v", o)
	}
	if !f.partials.Disabled() {
		t.Error("previews still enabled without streaming")
	}
}

func TestSetOptionsRoundTrips(t *testing.T) {
	test.NewTempApp(t)
	src := New(modelpick.NewRegistry(nil).New(api.EndpointImages, "", "gpt-image-1"))
	src.Model.Entry.SetText("gpt-image-2")
	src.size.SetSelected(CustomSizeLabel())
	src.customW.SetText("1536")
	src.customH.SetText("864")
	src.quality.SetSelected("Medium")
	src.background.SetSelected("Transparent")
	src.format.SetSelected("WebP")
	src.compression.SetValue(55)
	src.n.SetSelected("3")
	src.partials.SetSelected("1")
	want := src.Options()

	dst := New(modelpick.NewRegistry(nil).New(api.EndpointImages, "", "gpt-image-1"))
	dst.SetOptions(want)
	got := dst.Options()
	if got.Model != want.Model || got.Size != want.Size || got.Quality != want.Quality || got.Background != want.Background ||
		got.OutputFormat != want.OutputFormat || *got.OutputCompression != 55 || got.N != 3 || got.PartialImages != 1 {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestCustomSizeValidatedAsTyped(t *testing.T) {
	test.NewTempApp(t)
	f := New(modelpick.NewRegistry(nil).New(api.EndpointImages, "", "gpt-image-1"))
	f.size.SetSelected(CustomSizeLabel())
	f.customW.SetText("1000")
	f.customH.SetText("1000")
	if !f.sizeNote.Visible() || !strings.Contains(f.sizeNote.Text, "1008x1008") {
		t.Errorf("note %q", f.sizeNote.Text)
	}
	// The suggestion is a button that puts it in the fields.
	if !f.useNearest.Visible() {
		t.Fatal("no button for the nearest size")
	}
	f.useNearest.OnTapped()
	if f.customW.Text != "1008" || f.customH.Text != "1008" || f.useNearest.Visible() || f.Options().Size != "1008x1008" {
		t.Errorf("after the button: %sx%s, button shown %v", f.customW.Text, f.customH.Text, f.useNearest.Visible())
	}
	f.customW.SetText("1536")
	f.customH.SetText("864")
	if strings.Contains(f.sizeNote.Text, "multiples") {
		t.Errorf("valid size still flagged: %q", f.sizeNote.Text)
	}
}

// Each silent change now says what changed and why, next to the control
// it changed.
func TestFormatAndBackgroundChangesAreSaid(t *testing.T) {
	test.NewTempApp(t)
	f := New(modelpick.NewRegistry(nil).New(api.EndpointImages, "", "gpt-image-1"))
	f.format.SetSelected("JPEG")
	f.background.SetSelected("Transparent")
	if !f.bgNote.Visible() || !strings.Contains(f.bgNote.Text, "from JPEG to PNG") {
		t.Errorf("background note %q (shown %v)", f.bgNote.Text, f.bgNote.Visible())
	}
	f.format.SetSelected("JPEG")
	if f.background.Selected != "Auto" {
		t.Fatalf("background %q after choosing JPEG", f.background.Selected)
	}
	if !f.formatNote.Visible() || !strings.Contains(f.formatNote.Text, "from Transparent to Auto") {
		t.Errorf("format note %q (shown %v)", f.formatNote.Text, f.formatNote.Visible())
	}
	if f.bgNote.Visible() {
		t.Error("the background's old note stays")
	}
	f.format.SetSelected("WebP")
	if f.formatNote.Visible() {
		t.Error("the format note stays after another change")
	}
}

// The compression slider reads as Export's quality does, a plain number
// with no per cent, and is named apart from the image's Quality above it.
func TestCompressionReadsAsQuality(t *testing.T) {
	test.NewTempApp(t)
	f := New(modelpick.NewRegistry(nil).New(api.EndpointImages, "", "gpt-image-1"))
	f.format.SetSelected("JPEG")
	f.compression.SetValue(52)
	if f.qualityValue.Text != "52" {
		t.Errorf("the slider reads %q", f.qualityValue.Text)
	}
	found := false
	for _, o := range f.compressRow.Objects {
		if lb, ok := o.(*widget.Label); ok && lb.Text == "Compression quality" {
			found = true
		}
	}
	if !found {
		t.Error("the slider has no Compression quality label")
	}
	if o := f.Options(); o.OutputCompression == nil || *o.OutputCompression != 52 {
		t.Errorf("sent compression %v", o.OutputCompression)
	}
}

// The "×" sits with the fields, just before the height, not centred in
// a third column as wide as a field.
func TestTheTimesSignSitsBetweenTheSizeFields(t *testing.T) {
	test.NewTempApp(t)
	f := New(modelpick.NewRegistry(nil).New(api.EndpointImages, "", "gpt-image-1"))
	f.size.SetSelected(CustomSizeLabel())
	w := test.NewTempWindow(t, f.Form)
	w.Resize(fyne.NewSize(500, 800))
	times := findLabel(f.customRow, "×")
	if times == nil {
		t.Fatal("no × between the fields")
	}
	abs := fyne.CurrentApp().Driver().AbsolutePositionForObject
	wEnd := abs(f.customW).X + f.customW.Size().Width
	gap := abs(f.customH).X - wEnd
	if gap <= 0 || gap > 3*times.MinSize().Width {
		t.Errorf("the fields are %.0f px apart around a %.0f px ×", gap, times.MinSize().Width)
	}
}

func findLabel(o fyne.CanvasObject, text string) *widget.Label {
	if l, ok := o.(*widget.Label); ok && l.Text == text {
		return l
	}
	if c, ok := o.(*fyne.Container); ok {
		for _, child := range c.Objects {
			if l := findLabel(child, text); l != nil {
				return l
			}
		}
	}
	return nil
}

// The pickers of short choices share one width, the longest choice's,
// rather than the form's; the size keeps the form's width for its long
// names; and a form narrower than the shared width still shows each
// picker whole within it.
func TestShortPickersShareTheWidestChoicesWidth(t *testing.T) {
	test.NewTempApp(t)
	f := New(modelpick.NewRegistry(nil).New(api.EndpointImages, "", "gpt-image-1"))
	w := test.NewTempWindow(t, f.Form)
	w.Resize(fyne.NewSize(600, 900))
	short := []*widget.Select{f.quality, f.background, f.format, f.moderation, f.n, f.partials}
	width := short[0].Size().Width
	for _, s := range short {
		if s.Size().Width != width {
			t.Errorf("%v is %v wide, the others %v", s.Options, s.Size().Width, width)
		}
	}
	if width >= f.size.Size().Width*0.6 {
		t.Errorf("the short pickers are %v wide beside the size's %v: not narrowed", width, f.size.Size().Width)
	}
	longest := fyne.MeasureText("Transparent", test.Theme().Size("text"), fyne.TextStyle{}).Width
	if width < longest {
		t.Errorf("the short pickers are %v wide, narrower than their longest choice (%v)", width, longest)
	}
	// At its narrowest the form's field column is the size picker's
	// width; no short picker may be wider than that column.
	w.Resize(fyne.NewSize(f.Form.MinSize().Width, 900))
	column := f.size.Size().Width
	for _, s := range short {
		if s.Size().Width > column {
			t.Errorf("%v is %v wide in a field column of %v", s.Options, s.Size().Width, column)
		}
	}
}
