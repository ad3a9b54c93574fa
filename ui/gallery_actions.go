package ui

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/imageio"
	"easel/internal/library"
)

// reuse fills Text to image with an item's prompt and settings and shows
// that tab, ready for a variation.
func (a *App) reuse(it library.Item) {
	a.SelectTab(TabGenerate)
	a.generate.prompt.SetText(it.Prompt)
	a.generate.options.setOptions(it.Params.ImageOptions)
}

// sendToEdit adds an item to the Edit tab's reference images, after
// those already there, and shows that tab.
func (a *App) sendToEdit(it library.Item) {
	data, err := os.ReadFile(a.svc.lib.Path(it))
	if err != nil {
		dialog.ShowError(fmt.Errorf("cannot read image %d: %w", it.ID, err), a.win)
		return
	}
	a.SelectTab(TabEdit)
	a.edit.add(editRef{item: it.ID, image: api.InputImage{
		Name: fmt.Sprintf("gallery-%d%s", it.ID, imageio.Extension(it.Format)), ContentType: "image/" + it.Format, Data: data}})
}

// export asks for a format and quality, then where to write the file.
func (a *App) export(it library.Item) {
	format := widget.NewSelect([]string{"PNG", "JPEG", "WebP"}, nil)
	quality := widget.NewSlider(1, 100)
	quality.Step = 1
	quality.SetValue(90)
	qLabel := widget.NewLabel("90")
	quality.OnChanged = func(v float64) { qLabel.SetText(strconv.Itoa(int(v))) }
	qRow := container.NewBorder(nil, nil, widget.NewLabel("Quality"), qLabel, quality)
	format.OnChanged = func(s string) {
		if s == "PNG" {
			qRow.Hide()
		} else {
			qRow.Show()
		}
	}
	format.SetSelected(map[string]string{"png": "PNG", "jpeg": "JPEG", "webp": "WebP"}[it.Format])
	if format.Selected == "" {
		format.SetSelected("PNG")
	}
	body := container.NewVBox(widget.NewForm(widget.NewFormItem("Format", format)), qRow,
		hintLabel("The same format at full quality exports the original bytes unchanged."))
	dialog.ShowCustomConfirm("Export image", "Choose file…", "Cancel", body, func(ok bool) {
		if !ok {
			return
		}
		to := strings.ToLower(strings.ReplaceAll(format.Selected, "JPEG", "jpeg"))
		a.exportTo(it, to, int(quality.Value))
	}, a.win)
}

func (a *App) exportTo(it library.Item, to string, quality int) {
	save := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
		if err != nil || w == nil {
			return
		}
		defer w.Close()
		orig, err := os.ReadFile(a.svc.lib.Path(it))
		if err == nil {
			var out []byte
			if out, err = imageio.Export(orig, it.Format, to, quality); err == nil {
				_, err = w.Write(out)
			}
		}
		if err != nil {
			dialog.ShowError(fmt.Errorf("the export failed: %w", err), a.win)
		}
	}, a.win)
	save.SetFileName(fmt.Sprintf("easel-%d%s", it.ID, imageio.Extension(to)))
	save.Show()
}
