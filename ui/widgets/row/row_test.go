package row

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// counted is a label that counts its refreshes.
type counted struct {
	widget.Label
	refreshes int
}

func newCounted(text string) *counted {
	c := &counted{}
	c.Text = text
	c.ExtendBaseWidget(c)
	return c
}

func (c *counted) Refresh() {
	c.refreshes++
	c.Label.Refresh()
}

// A row lays its objects side by side at their own widths, padded, and
// a refresh after one is added lays them out again without refreshing
// the others.
func TestARowLaysOutWithoutRefreshingItsObjects(t *testing.T) {
	test.NewTempApp(t)
	a, b := newCounted("first"), newCounted("a second, longer")
	r := New(a, b)
	w := test.NewTempWindow(t, r)
	w.Resize(fyne.NewSize(600, 100))
	pad := theme.Padding()
	if got, want := b.Position().X, a.MinSize().Width+pad; got != want {
		t.Fatalf("the second is at %v, want %v", got, want)
	}
	if r.MinSize().Width != a.MinSize().Width+b.MinSize().Width+pad {
		t.Errorf("the row's width %v is not its objects' and the padding", r.MinSize().Width)
	}
	before := a.refreshes + b.refreshes
	c := canvas.NewRectangle(nil)
	c.SetMinSize(fyne.NewSize(40, 10))
	r.Objects = append(r.Objects, c)
	r.Refresh()
	if got, want := c.Position().X, b.Position().X+b.MinSize().Width+pad; got != want {
		t.Errorf("the added object is at %v, want %v", got, want)
	}
	if a.refreshes+b.refreshes != before {
		t.Errorf("the row's refresh refreshed its objects %d times", a.refreshes+b.refreshes-before)
	}
	b.Hide()
	r.Refresh()
	if c.Position().X != a.MinSize().Width+pad {
		t.Errorf("a hidden object still takes its place: the last is at %v", c.Position().X)
	}
}
