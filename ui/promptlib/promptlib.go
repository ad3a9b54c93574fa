// Package promptlib is the prompt library's window: search, favourites,
// kinds, an entry's text edited in place, and buttons that use it in
// each tab that takes a prompt (a style is added to that tab's prompt,
// a prompt replaces it). It works through dialogs.LibraryHost and a list of
// targets, so it knows no tab; the store is internal/prompts.
package promptlib

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/latest"
	"easel/internal/prompts"
	"easel/internal/wording"
	"easel/internal/work"
	"easel/ui/dialogs"
	"easel/ui/kit"
	"easel/ui/widgets/choice"
)

// Target is a place a prompt is used: a tab's prompt field.
type Target struct {
	// Name is the tab's name, on the button that uses an entry there.
	Name string
	// Get reads the tab's prompt; Set writes it and shows the tab.
	Get func() string
	Set func(string)
}

// kinds are the kind filter's choices, in order: all, prompts, styles.
func kindLabels() []string {
	return []string{catalogue.T("Prompts and styles"), catalogue.T("Prompts"), catalogue.T("Styles")}
}

// placementLabels are where a style goes.
func placementLabels() []string {
	return []string{catalogue.T("After the prompt"), catalogue.T("Before the prompt")}
}

// view is the open library.
type view struct {
	h       dialogs.LibraryHost
	store   *prompts.Store
	targets []Target
	search  *widget.Entry
	favs    *kit.Check
	kind    *widget.Select
	list    *widget.List
	entries []prompts.Entry
	chosen  int           // index in entries; -1 for none
	loads   *latest.Loads // the list's reads: the newest is shown
	detail  *fyne.Container
	d       *dialog.CustomDialog
}

// shown is the library last opened, for tests.
var shown *view

// Show opens the library over h's window.
func Show(h dialogs.LibraryHost, targets []Target) {
	lib := h.Library()
	if lib == nil {
		dialog.ShowInformation(catalogue.T("Prompt library"), catalogue.T("The prompt library is kept with the gallery, which could not be opened."), h.Window())
		return
	}
	v := &view{h: h, store: prompts.Open(lib), targets: targets, chosen: -1, loads: latest.New(h.Work())}
	shown = v
	v.search = &widget.Entry{PlaceHolder: catalogue.T("Search prompts and styles"), OnChanged: func(string) { v.load() }}
	v.favs = kit.NewCheck(catalogue.T("Favourites"), func(bool) { v.load() })
	v.kind = widget.NewSelect(kindLabels(), func(string) { v.load() })
	v.list = widget.NewList(func() int { return len(v.entries) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i < len(v.entries) {
				o.(*widget.Label).SetText(line(v.entries[i]))
			}
		})
	v.list.OnSelected = func(i widget.ListItemID) { v.chosen = i; v.showDetail() }
	v.detail = container.NewVBox()
	kind := container.NewGridWrap(fyne.NewSize(210, v.kind.MinSize().Height), v.kind)
	top := container.NewBorder(nil, nil, nil, container.NewHBox(kind, v.favs), v.search)
	split := container.NewHSplit(v.list, container.NewVScroll(container.NewPadded(v.detail)))
	split.Offset = 0.42
	v.d = dialog.NewCustomWithoutButtons(catalogue.T("Prompt library"), container.NewBorder(top, nil, nil, nil, split), h.Window())
	v.d.SetButtons([]fyne.CanvasObject{
		&widget.Button{Text: catalogue.T("New…"), Icon: theme.ContentAddIcon(), OnTapped: func() { Keep(h, "", "", v.load) }},
		&widget.Button{Text: catalogue.T("Import…"), Icon: theme.FolderOpenIcon(), OnTapped: v.importFile},
		&widget.Button{Text: catalogue.T("Export…"), Icon: theme.DocumentSaveIcon(), OnTapped: v.exportFile},
		&widget.Button{Text: catalogue.T("Close"), OnTapped: v.d.Hide},
	})
	v.kind.SetSelected(kindLabels()[0])
	size := h.Window().Canvas().Size()
	v.d.Resize(fyne.NewSize(min(960, size.Width*0.94), min(600, size.Height*0.9)))
	v.d.Show()
	v.showDetail()
	h.Window().Canvas().Focus(v.search)
}

// line is an entry as the list shows it.
func line(e prompts.Entry) string {
	mark := ""
	if e.Favorite {
		mark = "★ "
	}
	if e.Kind == prompts.Style {
		return mark + catalogue.F("Style · %s", e.Title())
	}
	return mark + e.Title()
}

// load lists what the search and filters ask for, off the UI goroutine;
// the latest load wins.
func (v *view) load() {
	if v.kind == nil || v.list == nil {
		return // still being built
	}
	q := prompts.Query{Search: v.search.Text, Favorites: v.favs.Checked}
	switch v.kind.Selected {
	case kindLabels()[1]:
		q.Kind = prompts.Prompt
	case kindLabels()[2]:
		q.Kind = prompts.Style
	}
	latest.Run(v.loads, func(ctx context.Context) ([]prompts.Entry, error) { return v.store.List(ctx, q) },
		func(got []prompts.Entry, err error) {
			if err != nil {
				dialog.ShowError(err, v.h.Window())
				return
			}
			v.entries, v.chosen = got, -1
			v.list.UnselectAll()
			v.list.Refresh()
			v.showDetail()
		})
}

// showDetail shows the chosen entry, editable, with what it can do.
func (v *view) showDetail() {
	if v.chosen < 0 || v.chosen >= len(v.entries) {
		msg := catalogue.T("Keep prompts that worked and styles to add to any prompt: from a tab's prompt (Edit ▸ Keep prompt in library), a gallery item or a chat reply. Choose one to use it.")
		if len(v.entries) == 0 && v.search.Text == "" && !v.favs.Checked {
			msg = catalogue.T("The library is empty. Keep a prompt from a tab (Edit ▸ Keep prompt in library), a gallery item or a chat reply, or press New.")
		}
		v.detail.Objects = []fyne.CanvasObject{kit.HintLabel(msg)}
		v.detail.Refresh()
		return
	}
	e := v.entries[v.chosen]
	name := &widget.Entry{Text: e.Name, PlaceHolder: catalogue.T("Name (optional)")}
	text := widget.NewMultiLineEntry()
	text.Wrapping = fyne.TextWrapWord
	text.SetText(e.Text)
	text.SetMinRowsVisible(5)
	placement := widget.NewSelect(placementLabels(), nil)
	placement.SetSelected(placementLabels()[0])
	if e.Placement == prompts.Before {
		placement.SetSelected(placementLabels()[1])
	}
	placement.Hidden = e.Kind != prompts.Style
	fav := kit.NewCheck(catalogue.T("Favourite"), nil)
	fav.Checked = e.Favorite
	edited := func() prompts.Entry {
		out := e
		out.Name, out.Text, out.Favorite = name.Text, text.Text, fav.Checked
		out.Placement = prompts.After
		if placement.Selected == placementLabels()[1] {
			out.Placement = prompts.Before
		}
		return out
	}
	save := &widget.Button{Text: catalogue.T("Save changes"), Icon: theme.DocumentSaveIcon(), OnTapped: func() {
		v.write(func(ctx context.Context) error { _, err := v.store.Save(ctx, edited()); return err })
	}}
	del := &widget.Button{Text: catalogue.T("Delete"), Icon: theme.DeleteIcon(), Importance: widget.DangerImportance, OnTapped: func() {
		v.write(func(ctx context.Context) error { return v.store.Delete(ctx, e.ID) })
	}}
	var uses []fyne.CanvasObject
	for i, t := range v.targets {
		label := catalogue.F("Use in %s", t.Name)
		if e.Kind == prompts.Style {
			label = catalogue.F("Add to %s's prompt", t.Name)
		}
		importance := widget.MediumImportance
		if i == 0 {
			importance = widget.HighImportance // the usual place
		}
		uses = append(uses, &widget.Button{Text: label, Importance: importance, OnTapped: func() {
			cur := edited()
			t.Set(cur.Apply(t.Get()))
			work.Run(v.h.Work(), func(ctx context.Context) error { return v.store.Used(context.WithoutCancel(ctx), cur.ID) }, nil)
			v.d.Hide()
		}})
	}
	said := []fyne.CanvasObject{}
	if e.Source != "" {
		said = append(said, kit.HintLabel(catalogue.F("Kept from %s, %s.", e.Source, e.Created.Format("2006-01-02"))))
	}
	switch {
	case e.Uses == 1:
		said = append(said, kit.HintLabel(catalogue.T("Used once.")))
	case e.Uses > 1:
		said = append(said, kit.HintLabel(catalogue.F("Used %d times.", e.Uses)))
	}
	if vars := e.Vars(); len(vars) > 0 {
		said = append(said, kit.HintLabel(catalogue.F("Its variables (%s) are filled by a batch: easel batch --prompt … --var name=a,b.", fmt.Sprint(vars))))
	}
	v.detail.Objects = append([]fyne.CanvasObject{
		widget.NewForm(widget.NewFormItem(catalogue.T("Name"), name), widget.NewFormItem(catalogue.T("Text"), text)),
		container.NewBorder(nil, nil, fav, nil, placement),
		container.NewGridWithColumns(2, uses...),
		container.NewHBox(save, del),
	}, said...)
	v.detail.Refresh()
}

// write runs a change off the UI goroutine, then lists again.
func (v *view) write(f func(context.Context) error) {
	work.Run(v.h.Work(), f, func(err error) {
		if err != nil {
			dialog.ShowError(err, v.h.Window())
			return
		}
		v.load()
	})
}

// exportFile writes the whole library as JSON where the user says.
func (v *view) exportFile() {
	var buf bytes.Buffer
	work.Load(v.h.Work(), func(ctx context.Context) (int, error) { return v.store.Export(ctx, &buf) }, func(n int, err error) {
		if err != nil {
			dialog.ShowError(err, v.h.Window())
			return
		}
		if n == 0 {
			dialog.ShowInformation(catalogue.T("Prompt library"), catalogue.T("The library is empty: nothing to export."), v.h.Window())
			return
		}
		dialogs.SaveFile(v.h, catalogue.T("Export the prompt library"), "easel-prompts.json", catalogue.T("prompt library"), buf.Bytes())
	})
}

// importFile adds the entries of a library file, skipping those kept.
func (v *view) importFile() {
	dialogs.PickFile(v.h, catalogue.T("Import a prompt library"), catalogue.T("Import"), ".json", catalogue.T("prompt library files (.json)"), func(path string) {
		work.Load(v.h.Work(), func(ctx context.Context) ([2]int, error) {
			added, skipped, err := v.importPath(path)
			return [2]int{added, skipped}, err
		}, func(n [2]int, err error) {
			if err != nil {
				dialog.ShowError(fmt.Errorf("%s: %w", filepath.Base(path), err), v.h.Window())
				return
			}
			dialog.ShowInformation(catalogue.T("Prompt library"), catalogue.F("%d added; %d already kept or empty, skipped.", n[0], n[1]), v.h.Window())
			v.load()
		})
	})
}

// importPath adds the entries of the library file at path.
func (v *view) importPath(path string) (added, skipped int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, wording.PathCause(err)
	}
	defer f.Close()
	return v.store.Import(v.h.Work().Context(), f)
}

// Keep asks for a name and a kind and keeps text in the library; source
// says where it came from. done, if given, runs once it is kept.
func Keep(h dialogs.LibraryHost, text, source string, done func()) {
	lib := h.Library()
	if lib == nil {
		dialog.ShowInformation(catalogue.T("Prompt library"), catalogue.T("The prompt library is kept with the gallery, which could not be opened."), h.Window())
		return
	}
	name := kit.NewDialogEntry()
	name.SetPlaceHolder(catalogue.T("Name (optional)"))
	body := widget.NewMultiLineEntry()
	body.Wrapping = fyne.TextWrapWord
	body.SetText(text)
	body.SetMinRowsVisible(4)
	kind := choice.New([]string{catalogue.T("A prompt"), catalogue.T("A style, added to prompts")}, nil)
	kind.Horizontal = true
	kind.Required = true
	kind.SetSelected(catalogue.T("A prompt"))
	placement := widget.NewSelect(placementLabels(), nil)
	placement.SetSelected(placementLabels()[0])
	d := dialog.NewForm(catalogue.T("Keep in the prompt library"), catalogue.T("Keep"), catalogue.T("Cancel"), []*widget.FormItem{
		widget.NewFormItem(catalogue.T("Name"), name),
		widget.NewFormItem(catalogue.T("Text"), body),
		widget.NewFormItem(catalogue.T("Kind"), kind),
		widget.NewFormItem(catalogue.T("A style goes"), placement),
	}, func(ok bool) {
		if !ok {
			return
		}
		e := prompts.Entry{Name: name.Text, Text: body.Text, Source: source, Kind: prompts.Prompt, Placement: prompts.After}
		if kind.Selected != catalogue.T("A prompt") {
			e.Kind = prompts.Style
		}
		if placement.Selected == placementLabels()[1] {
			e.Placement = prompts.Before
		}
		work.Run(h.Work(), func(ctx context.Context) error {
			_, err := prompts.Open(lib).Save(ctx, e)
			return err
		}, func(err error) {
			if err != nil {
				dialog.ShowError(err, h.Window())
				return
			}
			if done != nil {
				done()
			}
		})
	}, h.Window())
	kit.AnswerKeys(d, name)
	d.Resize(fyne.NewSize(560, d.MinSize().Height))
	d.Show()
	h.Window().Canvas().Focus(name)
}
