package dialogs

import (
	"context"
	"errors"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/export"
	"easel/internal/library"
	"easel/ui/kit"
	"easel/ui/widgets/choice"
)

// exportFormats are the batch export's format choices.
func exportFormats() []string { return []string{catalogue.T("As they are"), "PNG", "JPEG", "WebP"} }

// exportMeta are the ways the prompt and settings go along.
func exportMeta() []string {
	return []string{catalogue.T("Nothing"), catalogue.T("In PNG text (JSON beside other formats and signed originals)"), catalogue.T("A JSON file beside each image")}
}

// ExportMany asks for a folder, a format, a size and where the settings
// go, then exports items on every core with a progress bar and Cancel;
// pathOf is each item's file. done, if given, gets the results.
func ExportMany(h LibraryHost, items []library.Item, pathOf func(library.Item) string, done func([]export.Result)) {
	if len(items) == 0 {
		return
	}
	dest := newDestination(h, "")
	quality := widget.NewSlider(1, 100)
	quality.Step = 1
	quality.SetValue(90)
	qualityLabel := widget.NewLabel("90")
	quality.OnChanged = func(v float64) { qualityLabel.SetText(strconv.Itoa(int(v))) }
	// Quality applies only to JPEG and WebP: off for files kept as they
	// are, and for PNG, which loses nothing.
	format := widget.NewSelect(exportFormats(), func(f string) {
		if i := indexOf(exportFormats(), f); i >= 2 {
			quality.Enable()
		} else {
			quality.Disable()
		}
	})
	format.SetSelected(exportFormats()[0])
	long := widget.NewEntry()
	long.SetPlaceHolder(catalogue.T("full size"))
	long.Validator = func(s string) error {
		if strings.TrimSpace(s) == "" {
			return nil
		}
		if n, err := strconv.Atoi(strings.TrimSpace(s)); err != nil || n < 16 {
			return errors.New(catalogue.T("a whole number of pixels, 16 or more"))
		}
		return nil
	}
	meta := choice.New(exportMeta(), nil)
	meta.SetSelected(exportMeta()[1])
	note := kit.HintLabel(catalogue.T("Images kept in their format and size are copied unchanged. Nothing in the folder is replaced: a taken name gets a number."))
	form := widget.NewForm(
		widget.NewFormItem(catalogue.T("Folder"), dest.folderRow()),
		widget.NewFormItem(catalogue.T("Format"), format),
		widget.NewFormItem(catalogue.T("Quality"), container.NewBorder(nil, nil, nil, qualityLabel, quality)),
		widget.NewFormItem(catalogue.T("Long side"), long),
		widget.NewFormItem(catalogue.T("Settings"), meta),
	)
	title := catalogue.N("Export %d images", len(items), len(items))
	d := dialog.NewCustomConfirm(title, catalogue.T("Export"), catalogue.T("Cancel"), container.NewVBox(form, note), func(ok bool) {
		if !ok {
			return
		}
		opt := export.Options{Dir: dest.folder, Quality: int(quality.Value)}
		if i := indexOf(exportFormats(), format.Selected); i > 0 {
			opt.Format = []string{"", "png", "jpeg", "webp"}[i]
		}
		if n, err := strconv.Atoi(strings.TrimSpace(long.Text)); err == nil && n >= 16 {
			opt.LongSide = n
		}
		opt.Metadata = export.Metadata(indexOf(exportMeta(), meta.Selected))
		if lib := h.Library(); lib != nil {
			// A composite's recipe names the credential of the picture
			// it was made from; read off the UI goroutine, by Run.
			ctx := h.Work().Context()
			opt.PathOfItem = func(id int64) string {
				it, err := lib.Get(ctx, id)
				if err != nil {
					return ""
				}
				return lib.Path(it)
			}
		}
		rememberFolder(dest.folder)
		runExport(h, items, pathOf, opt, done)
	}, h.Window())
	d.Resize(fyne.NewSize(620, d.MinSize().Height))
	d.Show()
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return 0
}

// rememberFolder keeps the folder for the next export.
func rememberFolder(dir string) {
	if a := fyne.CurrentApp(); a != nil {
		a.Preferences().SetString(folderPref, dir)
	}
}

// runExport exports off the UI goroutine with a progress bar and Cancel,
// then says what was written, and what failed and why.
func runExport(h FileHost, items []library.Item, pathOf func(library.Item) string, opt export.Options, done func([]export.Result)) {
	ctx, cancel := context.WithCancel(h.Work().Context())
	bar := widget.NewProgressBar()
	bar.Max = float64(len(items))
	status := widget.NewLabel(catalogue.F("0 of %d", len(items)))
	stop := &widget.Button{Text: catalogue.T("Cancel"), Icon: theme.CancelIcon(), OnTapped: cancel}
	progress := dialog.NewCustomWithoutButtons(catalogue.T("Exporting"), container.NewVBox(bar, container.NewBorder(nil, nil, nil, stop, status)), h.Window())
	progress.Resize(fyne.NewSize(460, progress.MinSize().Height))
	progress.Show()
	h.Work().Go(func(context.Context) {
		res := export.Run(ctx, items, pathOf, opt, func(n, total int) {
			h.Work().Do(func() {
				bar.SetValue(float64(n))
				status.SetText(catalogue.F("%d of %d", n, total))
			})
		})
		cancelled := ctx.Err() != nil
		cancel()
		h.Work().Do(func() {
			progress.Hide()
			written, failed := 0, []string{}
			for _, r := range res {
				switch {
				case r.Path != "":
					written++
				case r.Err != nil && !errors.Is(r.Err, context.Canceled):
					failed = append(failed, r.Err.Error())
				}
			}
			msg := catalogue.N("%d images written to %s.", written, written, opt.Dir)
			if cancelled {
				msg = catalogue.F("Cancelled: %s Nothing half-written was left.", msg)
			}
			if len(failed) > 0 {
				msg += " " + catalogue.F("%d failed: %s", len(failed), strings.Join(failed, "; "))
				dialog.ShowError(errors.New(msg), h.Window())
			} else {
				showFolderDialog(h, catalogue.T("Export"), msg, opt.Dir)
			}
			if done != nil {
				done(res)
			}
		})
	})
}

// showFolderDialog says msg, with a Show folder button that opens dir in
// the file manager.
func showFolderDialog(h FileHost, title, msg, dir string) {
	label := widget.NewLabel(msg)
	label.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustomWithoutButtons(title, label, h.Window())
	d.SetButtons([]fyne.CanvasObject{
		&widget.Button{Text: catalogue.T("Show folder"), Icon: theme.FolderOpenIcon(), OnTapped: func() {
			d.Hide()
			_ = fyne.CurrentApp().OpenURL(&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)})
		}},
		&widget.Button{Text: catalogue.T("Close"), Importance: widget.HighImportance, OnTapped: d.Hide},
	})
	d.Resize(fyne.NewSize(520, d.MinSize().Height))
	d.Show()
}
