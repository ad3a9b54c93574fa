package gallery

import (
	"slices"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/library"
	"easel/internal/work"
)

// The filters' "everything" choices, and the orders: functions, as the
// language is chosen after packages initialise.
func allKinds() string       { return catalogue.T("All kinds") }
func allModels() string      { return catalogue.T("All models") }
func allShapes() string      { return catalogue.T("All shapes") }
func allFormats() string     { return catalogue.T("All formats") }
func anyCredentials() string { return catalogue.T("Signed or not") }
func newest() string         { return catalogue.T("Newest first") }
func oldest() string         { return catalogue.T("Oldest first") }

// kindThreaded is the kinds' choice that keeps the pictures of threads,
// whatever their kind: not a kind an item has.
const kindThreaded = "(threaded)"

// kindChoices name the kinds of item as a designer does.
func kindChoices() []struct{ label, kind string } {
	return []struct{ label, kind string }{
		{catalogue.T("Generated"), "generate"}, {catalogue.T("Edited"), "edit"}, {catalogue.T("Kept (unmasked)"), "kept"},
		{catalogue.T("Imported"), "imported"}, {catalogue.T("Recovered"), "recovered"}, {catalogue.T("Cut out"), "cutout"},
		{catalogue.T("Restored from a turn"), library.KindRestored},
		{catalogue.T("In a thread"), kindThreaded},
	}
}

type shapeChoice struct {
	label string
	o     library.Orientation
}

func shapeChoices() []shapeChoice {
	return []shapeChoice{{catalogue.T("Square"), library.Square}, {catalogue.T("Landscape"), library.Landscape}, {catalogue.T("Portrait"), library.Portrait}}
}

// credentialChoices name the states of Content Credentials a file can
// carry (library's Credentials* values), short enough for the bar's
// cells: signed, a signature that no longer matches, a manifest Easel
// could not check, none.
func credentialChoices() []struct{ label, state string } {
	return []struct{ label, state string }{
		{catalogue.T("Signed"), library.CredentialsSigned}, {catalogue.T("Signature broken"), library.CredentialsChanged},
		{catalogue.T("Unverified"), library.CredentialsUnverified}, {catalogue.T("Unsigned"), library.CredentialsNone},
	}
}

// dateLayout is how the date filters are written.
const dateLayout = "2006-01-02"

// filterBar is the gallery's filters beside the search: each a part of
// the library's query.
type filterBar struct {
	kind, model, shape, format, order *widget.Select
	credentials                       *widget.Select
	from, to                          *widget.Entry
	changed                           func()
	facetsOnce                        sync.Once
}

func newFilterBar(changed func()) *filterBar {
	f := &filterBar{changed: changed}
	on := func(string) { f.changed() }
	labels := []string{allKinds()}
	for _, k := range kindChoices() {
		labels = append(labels, k.label)
	}
	f.kind = widget.NewSelect(labels, nil)
	f.kind.Selected = allKinds()
	f.model = widget.NewSelect([]string{allModels()}, nil)
	f.model.Selected = allModels()
	shapes := []string{allShapes()}
	for _, s := range shapeChoices() {
		shapes = append(shapes, s.label)
	}
	f.shape = widget.NewSelect(shapes, nil)
	f.shape.Selected = allShapes()
	f.format = widget.NewSelect([]string{allFormats(), "PNG", "JPEG", "WebP"}, nil)
	f.format.Selected = allFormats()
	credentials := []string{anyCredentials()}
	for _, c := range credentialChoices() {
		credentials = append(credentials, c.label)
	}
	f.credentials = widget.NewSelect(credentials, nil)
	f.credentials.Selected = anyCredentials()
	f.order = widget.NewSelect([]string{newest(), oldest()}, nil)
	f.order.Selected = newest()
	for _, s := range []*widget.Select{f.kind, f.model, f.shape, f.format, f.credentials, f.order} {
		s.OnChanged = on
	}
	// The placeholders show the format with dates that mean something:
	// this month's first day, and today.
	now := time.Now()
	f.from = &widget.Entry{PlaceHolder: catalogue.F("from %s", time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.Local).Format(dateLayout)), OnChanged: on}
	f.to = &widget.Entry{PlaceHolder: catalogue.F("to %s", now.Format(dateLayout)), OnChanged: on}
	return f
}

// objects are the bar's widgets, with fav among them.
// row is the filters in cells of one width that wrap onto a second line
// when the window is narrow (1024 pixels), rather than scroll sideways with
// the sort cut off behind a scroll bar.
func (f *filterBar) row(fav fyne.CanvasObject) fyne.CanvasObject {
	size := fyne.NewSize(130, f.from.MinSize().Height)
	return container.NewGridWrap(size, f.kind, f.model, f.shape, f.format, f.credentials, f.from, f.to, fav, f.order)
}

// active reports whether any filter narrows the gallery.
func (f *filterBar) active() bool {
	return f.kind.Selected != allKinds() || f.model.Selected != allModels() || f.shape.Selected != allShapes() ||
		f.format.Selected != allFormats() || f.credentials.Selected != anyCredentials() ||
		strings.TrimSpace(f.from.Text) != "" || strings.TrimSpace(f.to.Text) != ""
}

// query is the filters as a library query, or what is wrong with a date.
func (f *filterBar) query() (library.Query, string) {
	var q library.Query
	for _, k := range kindChoices() {
		switch {
		case k.label != f.kind.Selected:
		case k.kind == kindThreaded:
			q.Threaded = true
		default:
			q.Kinds = []string{k.kind}
		}
	}
	if f.model.Selected != allModels() {
		q.Model = f.model.Selected
	}
	for _, s := range shapeChoices() {
		if s.label == f.shape.Selected {
			q.Orientation = s.o
		}
	}
	if f.format.Selected != allFormats() {
		q.Format = strings.ToLower(f.format.Selected)
	}
	for _, c := range credentialChoices() {
		if c.label == f.credentials.Selected {
			q.Credentials = c.state
		}
	}
	q.Oldest = f.order.Selected == oldest()
	for _, d := range []struct {
		e    *widget.Entry
		dst  *time.Time
		next bool
		name string
	}{{f.from, &q.From, false, catalogue.T("From")}, {f.to, &q.To, true, catalogue.T("To")}} {
		text := strings.TrimSpace(d.e.Text)
		if text == "" {
			continue
		}
		day, err := time.ParseInLocation(dateLayout, text, time.Local)
		if err != nil {
			return q, catalogue.F("%s: write a date as 2026-11-23", d.name)
		}
		if d.next {
			day = day.AddDate(0, 0, 1) // "to" includes its day
		}
		*d.dst = day
	}
	return q, ""
}

// loadFacets fills the model choice from the library, once, off the UI
// goroutine.
func (f *filterBar) loadFacets(lib *library.Library, h Host) {
	f.facetsOnce.Do(func() {
		work.Load(h.Work(), lib.Facets, func(facets library.Facets, err error) {
			if err != nil {
				return
			}
			models := append([]string{allModels()}, facets.Models...)
			if !slices.Equal(models, f.model.Options) {
				f.model.Options = models
				f.model.Refresh()
			}
		})
	})
}
