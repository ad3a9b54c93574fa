package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"
)

func TestTransparentBackgroundSwitchesJPEGToPNG(t *testing.T) {
	test.NewTempApp(t)
	f := newImageOptionsForm("gpt-image-1")
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
}

func TestOptionsReadEveryControl(t *testing.T) {
	test.NewTempApp(t)
	f := newImageOptionsForm("gpt-image-1")
	f.size.SetSelected(customSizeLabel)
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
	o := f.options()
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
	o = f.options()
	if o.Stream || o.PartialImages != 0 || o.OutputCompression != nil {
		t.Errorf("unstreamed PNG options = %+v", o)
	}
	if !f.partials.Disabled() {
		t.Error("previews still enabled without streaming")
	}
}
