package dialogs

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"easel/internal/imageio"
	"easel/internal/library"
	"easel/ui/kit"
)

// formatLabels maps the export formats to what the dialog shows.
var formatLabels = map[string]string{"png": "PNG", "jpeg": "JPEG", "webp": "WebP"}

// Export asks for a format and quality, then where to write the image
// (original at path). The decode and encode run off the UI goroutine,
// and the file is written only once the encoded image is whole; done,
// if given, gets where it was written or why not.
func Export(h Host, it library.Item, path string, done func(to string, err error)) {
	format := widget.NewSelect([]string{"PNG", "JPEG", "WebP"}, nil)
	quality := widget.NewSlider(1, 100)
	quality.Step = 1
	quality.SetValue(90)
	qLabel := widget.NewLabel("90")
	quality.OnChanged = func(v float64) { qLabel.SetText(strconv.Itoa(int(v))) }
	qRow := container.NewBorder(nil, nil, widget.NewLabel("Quality"), qLabel, quality)
	format.OnChanged = func(s string) { qRow.Hidden = s == "PNG"; qRow.Refresh() }
	format.SetSelected(formatLabels[it.Format])
	if format.Selected == "" {
		format.SetSelected("PNG")
	}
	body := container.NewVBox(widget.NewForm(widget.NewFormItem("Format", format)), qRow,
		kit.HintLabel("The same format at quality 100 exports the original bytes unchanged."))
	dialog.ShowCustomConfirm("Export image", "Choose file…", "Cancel", body, func(ok bool) {
		if !ok {
			return
		}
		to := strings.ToLower(format.Selected)
		chooseFile(h, it, path, to, int(quality.Value), done)
	}, h.Window())
}

func chooseFile(h Host, it library.Item, path, to string, quality int, done func(string, error)) {
	save := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
		if err != nil || w == nil {
			return
		}
		ExportTo(h, w, w.URI().Path(), path, it.Format, to, quality, done)
	}, h.Window())
	save.SetFileName(ExportName(it, to))
	save.Show()
}

// ExportTo reads the original at path (of format from), encodes it as to
// and writes it to w (named target), all off the UI goroutine, then says
// where it wrote or why it could not; done, if given, gets the same.
func ExportTo(h Host, w io.WriteCloser, target, path, from, to string, quality int, done func(to string, err error)) {
	go func() {
		err := encodeTo(w, path, from, to, quality)
		h.Do(func() {
			if err != nil {
				dialog.ShowError(fmt.Errorf("the export failed: %w", err), h.Window())
			} else {
				dialog.ShowInformation("Exported", "The image was written to "+target+".", h.Window())
			}
			if done != nil {
				done(target, err)
			}
		})
	}()
}

// encodeTo reads and encodes the original, then writes it to w.
func encodeTo(w io.WriteCloser, path, from, to string, quality int) error {
	defer w.Close()
	orig, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, err := imageio.Export(orig, from, to, quality)
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

// ExportName is an export's default file name: the prompt's first words,
// then the item's id, so a folder of exports reads as what they show.
func ExportName(it library.Item, format string) string {
	var words []string
	for _, w := range strings.FieldsFunc(strings.ToLower(it.Prompt), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if len(words) == 5 {
			break
		}
		words = append(words, w)
	}
	name := strings.Join(words, "-")
	if r := []rune(name); len(r) > 48 {
		name = string(r[:48])
	}
	if name == "" {
		name = "easel"
	}
	return fmt.Sprintf("%s-%d%s", name, it.ID, imageio.Extension(format))
}
