package barchart

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
)

func dollars(v float64) string { return fmt.Sprintf("$%.2f", v) }

// Bars stack their series from the bottom, in proportion, under round
// gridlines; every series is in the legend.
func TestBarsStackInProportion(t *testing.T) {
	test.NewTempApp(t)
	c := New(dollars)
	w := test.NewWindow(c)
	defer w.Close()
	w.Resize(fyne.NewSize(600, 300))
	c.Set([]string{"gpt-image-1", "gpt-4o"}, []Bar{{Label: "23", Values: []float64{0.5, 0.25}}, {Label: "24", Values: []float64{0, 1}}})
	r := test.WidgetRenderer(c).(*renderer)
	if got := len(r.ticks); got != 5 || r.ticks[4].Text != "$1.00" {
		t.Errorf("gridlines: %d, top %q", got, r.ticks[len(r.ticks)-1].Text)
	}
	a, b := r.rects[0][0], r.rects[0][1]
	if a.Size().Height <= 0 || b.Size().Height*2 < a.Size().Height-1 || b.Size().Height*2 > a.Size().Height+1 {
		t.Errorf("0.5 and 0.25 drawn %v and %v tall", a.Size().Height, b.Size().Height)
	}
	if b.Position().Y+b.Size().Height > a.Position().Y+0.5 {
		t.Error("the second series is not stacked on the first")
	}
	full := r.rects[1][1]
	if full.Size().Height < 2*(a.Size().Height+b.Size().Height)*0.66 {
		t.Errorf("a bar of 1.00 is %v tall beside 0.75's %v", full.Size().Height, a.Size().Height+b.Size().Height)
	}
	if len(r.names) != 2 || r.names[1].Text != "gpt-4o" || r.swatch[1].FillColor != Palette[1] {
		t.Error("the legend")
	}
	if r.empty != nil {
		t.Error("a chart with spend says it is empty")
	}
}

// An empty chart says so rather than drawing nothing.
func TestAnEmptyChartSaysSo(t *testing.T) {
	test.NewTempApp(t)
	c := New(dollars)
	c.Empty = "Nothing spent in this period"
	w := test.NewWindow(c)
	defer w.Close()
	w.Resize(fyne.NewSize(400, 240))
	c.Set(nil, []Bar{{Label: "1"}, {Label: "2"}})
	r := test.WidgetRenderer(c).(*renderer)
	found := false
	for _, o := range r.Objects() {
		if t, ok := o.(*canvas.Text); ok && t.Text == "Nothing spent in this period" {
			found = true
		}
	}
	if !found {
		t.Error("no word for an empty chart")
	}
}

// Labels under many narrow bars thin out, the last always shown.
func TestCrowdedLabelsThinOut(t *testing.T) {
	test.NewTempApp(t)
	c := New(dollars)
	w := test.NewWindow(c)
	defer w.Close()
	w.Resize(fyne.NewSize(360, 240))
	var bars []Bar
	for i := range 30 {
		bars = append(bars, Bar{Label: fmt.Sprintf("Nov %d", i+1), Values: []float64{float64(i)}})
	}
	c.Set([]string{"a"}, bars)
	r := test.WidgetRenderer(c).(*renderer)
	shown := 0
	for _, l := range r.labels {
		if !l.Hidden {
			shown++
		}
	}
	if shown == 30 || shown == 0 || r.labels[29].Hidden {
		t.Errorf("%d of 30 labels shown; the last hidden: %v", shown, r.labels[29].Hidden)
	}
}
