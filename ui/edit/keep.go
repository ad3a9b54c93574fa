package edit

import (
	"image"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/imageio"
	"easel/internal/jobs"
	"easel/ui/imageform"
	"easel/ui/kit"
)

// feathers are the seam widths offered, in pixels.
var feathers = []string{"0 px", "4 px", "8 px", "16 px", "32 px"}

// keepOption is "Keep the unmasked area": on by default, it asks that
// each result be kept a second time with the first image's pixels put
// back where the mask protects them, and says before sending whether it
// can apply to the size chosen.
type keepOption struct {
	box     *fyne.Container
	check   *widget.Check
	feather *widget.Select
	note    *widget.Label
	// strip, mask and form are what it reads: the first image's size,
	// whether a mask is painted, the size that would be sent and whether
	// "Match the first image" is chosen (then a first image of a shape
	// the model cannot make is padded to one).
	strip *refStrip
	mask  *maskTools
	form  *imageform.Form
}

// newKeepOption makes the option; its form is set once the form it goes
// in is made.
func newKeepOption(strip *refStrip, mask *maskTools) *keepOption {
	k := &keepOption{strip: strip, mask: mask, note: kit.HintLabel("")}
	k.check = widget.NewCheck(catalogue.T("Keep the unmasked area"), func(bool) { k.sync() })
	k.check.Checked = true
	k.feather = widget.NewSelect(feathers, func(string) { k.sync() })
	k.feather.Selected = "8 px"
	k.box = container.NewVBox(k.check, container.NewHBox(widget.NewLabel(catalogue.T("Feather")), k.feather), k.note)
	return k
}

// featherPx is the feather chosen, in pixels.
func (k *keepOption) featherPx() int {
	n, _ := strconv.Atoi(strings.TrimSuffix(k.feather.Selected, " px"))
	return n
}

// pads reports whether the first image goes padded to the shape of the
// size sent: the model makes none of its own shape, and "Match the first
// image" asked for the nearest it makes.
func (k *keepOption) pads(masked bool) (image.Point, bool) {
	first, ok := k.strip.firstSize()
	if !ok {
		return image.Point{}, false
	}
	return jobs.PadsTo(k.request(masked), k.form.Matching(), k.form.Options().Size, first)
}

// request is the job's Keep: nil when off or without a mask.
func (k *keepOption) request(masked bool) *jobs.Keep {
	if !k.check.Checked || !masked {
		return nil
	}
	return &jobs.Keep{Feather: k.featherPx()}
}

// sync says what will happen to the result, and why not when it cannot.
func (k *keepOption) sync() {
	k.note.Importance = widget.MediumImportance
	first, ok := k.strip.firstSize()
	size := k.form.Options().Size
	w, h, sized := api.ParseSize(size)
	switch {
	case !k.check.Checked:
		k.note.SetText(catalogue.T("Only the service's result is kept; it may change pixels outside the mask."))
	case !k.mask.painted() || !ok:
		k.note.SetText(catalogue.T("Applies once a mask is painted: the pixels it protects are put back in a second copy of each result."))
	case !sized:
		k.note.SetText(catalogue.F("With size %q the service picks the shape; the area is put back when it matches the first image's. “Match the first image” makes sure.", size))
	case !imageio.SameShape(image.Pt(w, h), first) && k.form.Matching():
		k.note.SetText(catalogue.F("The model makes no %d×%d shape: the first image goes padded to %d×%d's (the padding protected), and each result is cropped back to %d×%d with the area the mask protects put back, blended over %d px.",
			first.X, first.Y, w, h, first.X, first.Y, k.featherPx()))
	case !imageio.SameShape(image.Pt(w, h), first):
		k.note.Importance = widget.DangerImportance
		k.note.SetText(catalogue.F("The result will be %d×%d and the first image is %d×%d: their shapes differ, so the unmasked area cannot be put back. Choose “Match the first image” as the size.", w, h, first.X, first.Y))
	default:
		k.note.SetText(catalogue.F("Each result is scaled to %d×%d and the area the mask protects is put back, blended over %d px; both go to the gallery.", first.X, first.Y, k.featherPx()))
	}
	k.note.Refresh()
}
