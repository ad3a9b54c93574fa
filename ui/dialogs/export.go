package dialogs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/atomicfile"
	"easel/internal/catalogue"
	"easel/internal/export"
	"easel/internal/imageio"
	"easel/internal/library"
	"easel/internal/work"
	"easel/ui/kit"
)

// formatLabels maps the export formats to what the dialog shows.
var formatLabels = map[string]string{"png": "PNG", "jpeg": "JPEG", "webp": "WebP"}

// Export asks for a format, a quality, a folder and a name, then writes
// the image (original at path) there; done, if given, gets where it was
// written or why not.
func Export(h FileHost, it library.Item, path string, done func(to string, err error)) {
	format := widget.NewSelect([]string{"PNG", "JPEG", "WebP"}, nil)
	quality := widget.NewSlider(1, 100)
	quality.Step = 1
	quality.SetValue(90)
	qLabel := widget.NewLabel("90")
	quality.OnChanged = func(v float64) { qLabel.SetText(strconv.Itoa(int(v))) }
	qRow := container.NewBorder(nil, nil, widget.NewLabel(catalogue.T("Quality")), qLabel, quality)
	dest := newDestination(h, ExportName(it, it.Format))
	format.OnChanged = func(s string) {
		qRow.Hidden = s == "PNG"
		qRow.Refresh()
		dest.setExtension(imageio.Extension(strings.ToLower(s)))
	}
	format.SetSelected(formatLabels[it.Format])
	if format.Selected == "" {
		format.SetSelected("PNG")
	}
	body := container.NewVBox(widget.NewForm(widget.NewFormItem(catalogue.T("Format"), format)), qRow, dest.form(),
		kit.HintLabel(catalogue.T("The same format at quality 100 exports the original bytes unchanged.")))
	d := dialog.NewCustomConfirm(catalogue.T("Export image"), catalogue.T("Export"), catalogue.T("Cancel"), body, func(ok bool) {
		if ok {
			ExportTo(h, dest.target(), path, it.Format, strings.ToLower(format.Selected), int(quality.Value), done)
		}
	}, h.Window())
	d.Resize(fyne.NewSize(560, d.MinSize().Height))
	d.Show()
}

// SaveAs asks for a folder and a name and writes img there as it is: an
// image that arrived but could not be saved in the gallery, so the money
// it cost is not lost.
func SaveAs(h FileHost, img api.Image, name string, done func(to string, err error)) {
	SaveAsSaying(h, img, name, catalogue.T("The image is written as the service sent it."), done)
}

// SaveAsSaying is SaveAs with what the dialog says of the bytes written
// (a GIF's frame is not what the service sent).
func SaveAsSaying(h FileHost, img api.Image, name, said string, done func(to string, err error)) {
	dest := newDestination(h, name)
	body := container.NewVBox(dest.form(), kit.HintLabel(said))
	d := dialog.NewCustomConfirm(catalogue.T("Save image as"), catalogue.T("Save"), catalogue.T("Cancel"), body, func(ok bool) {
		if ok {
			WriteChecked(h, dest.target(), func() ([]byte, error) { return img.Data, nil }, done)
		}
	}, h.Window())
	d.Resize(fyne.NewSize(560, d.MinSize().Height))
	d.Show()
}

// destination is the folder and file name rows of the export dialogs.
type destination struct {
	h      FileHost
	folder string
	shown  *widget.Label
	name   *widget.Entry
}

// folderPref remembers the last folder exported to; exportDefaultPref is
// the folder chosen in Settings ▸ Preferences, which Export opens on
// instead when it is set.
const (
	folderPref        = "export.folder"
	exportDefaultPref = "export.defaultFolder"
)

func newDestination(h FileHost, name string) *destination {
	d := &destination{h: h, folder: defaultFolder(), name: widget.NewEntry()}
	d.shown = widget.NewLabel(d.folder)
	d.shown.Truncation = fyne.TextTruncateEllipsis
	d.name.SetText(name)
	return d
}

// defaultFolder is the folder set in Settings, else the last folder
// exported to, else Pictures, else home.
func defaultFolder() string {
	if a := fyne.CurrentApp(); a != nil {
		for _, key := range []string{exportDefaultPref, folderPref} {
			if f := a.Preferences().String(key); f != "" {
				if st, err := os.Stat(f); err == nil && st.IsDir() {
					return f
				}
			}
		}
	}
	home, _ := os.UserHomeDir()
	if pics := filepath.Join(home, "Pictures"); home != "" {
		if st, err := os.Stat(pics); err == nil && st.IsDir() {
			return pics
		}
	}
	return home
}

func (d *destination) form() fyne.CanvasObject {
	return widget.NewForm(
		widget.NewFormItem(catalogue.T("Folder"), d.folderRow()),
		widget.NewFormItem(catalogue.T("Name"), d.name))
}

// folderRow is the folder shown, with Choose….
func (d *destination) folderRow() fyne.CanvasObject {
	choose := &widget.Button{Text: catalogue.T("Choose…"), Icon: theme.FolderOpenIcon(), OnTapped: d.choose}
	return container.NewBorder(nil, nil, nil, choose, d.shown)
}

func (d *destination) choose() {
	PickFolder(d.h, catalogue.T("Export to"), catalogue.T("Use this folder"), d.folder, func(dir string) {
		d.folder = dir
		d.shown.SetText(d.folder)
	})
}

// setExtension puts ext on the name in place of the one it has.
func (d *destination) setExtension(ext string) {
	n := d.name.Text
	d.name.SetText(strings.TrimSuffix(n, filepath.Ext(n)) + ext)
}

// target is the chosen path; the folder is remembered for next time.
func (d *destination) target() string {
	if a := fyne.CurrentApp(); a != nil {
		a.Preferences().SetString(folderPref, d.folder)
	}
	name := filepath.Base(strings.TrimSpace(d.name.Text)) // a name, never a path elsewhere
	return filepath.Join(d.folder, name)
}

// ExportTo encodes the original at path (of format from) as to, then
// writes it to target as WriteChecked does.
func ExportTo(h FileHost, target, path, from, to string, quality int, done func(to string, err error)) {
	WriteChecked(h, target, func() ([]byte, error) {
		orig, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		return imageio.Export(orig, from, to, quality)
	}, done)
}

// WriteChecked asks before replacing anything at target (a file, a link,
// even one that points nowhere), then, off the UI goroutine, makes the
// bytes with encode and writes them whole beside target before renaming
// them into place: a failure leaves what was there untouched, and a link
// is replaced itself, never written through. It says where it wrote or
// why not; done, if given, gets the same.
func WriteChecked(h FileHost, target string, encode func() ([]byte, error), done func(to string, err error)) {
	writeChecked(h, target, "image", encode, done)
}

// SaveFile asks for a folder and a name (name is the default) and writes
// data there as WriteChecked does; what names it in messages ("the
// conversation").
func SaveFile(h FileHost, title, name, what string, data []byte) {
	SaveEncoded(h, title, name, what, func() ([]byte, error) { return data, nil })
}

// SaveEncoded is SaveFile for data made once the place is chosen, off
// the UI goroutine (the spend's lines, read from the ledger).
func SaveEncoded(h FileHost, title, name, what string, encode func() ([]byte, error)) {
	dest := newDestination(h, name)
	d := dialog.NewCustomConfirm(title, catalogue.T("Save"), catalogue.T("Cancel"), dest.form(), func(ok bool) {
		if ok {
			writeChecked(h, dest.target(), what, encode, nil)
		}
	}, h.Window())
	d.Resize(fyne.NewSize(560, d.MinSize().Height))
	d.Show()
}

func writeChecked(h FileHost, target, what string, encode func() ([]byte, error), done func(to string, err error)) {
	write := func() {
		work.Run(h.Work(), func(context.Context) error {
			data, err := encode()
			if err == nil {
				err = atomicfile.WriteMode(target, data, 0o644)
			}
			return err
		}, func(err error) {
			if err != nil {
				dialog.ShowError(fmt.Errorf(catalogue.T("the %s was not written to %s: %w"), what, target, err), h.Window())
			} else {
				dialog.ShowInformation(catalogue.T("Saved"), catalogue.F("The %s was written to %s.", what, target), h.Window())
			}
			if done != nil {
				done(target, err)
			}
		})
	}
	st, err := os.Lstat(target)
	if err != nil {
		write()
		return
	}
	base := filepath.Base(target)
	msg := catalogue.F("%s already exists in %s. Replace it?", base, filepath.Dir(target))
	switch {
	case st.IsDir():
		dialog.ShowError(fmt.Errorf(catalogue.T("%s is a folder: choose another name"), target), h.Window())
		return
	case st.Mode()&os.ModeSymlink != 0:
		to, _ := os.Readlink(target)
		msg = catalogue.F("%[1]s is a link to %[2]s. Replacing it puts the %[3]s in place of the link; %[2]s itself is not changed.", base, to, what)
	}
	confirm := dialog.NewConfirm(catalogue.F("Replace %s?", base), msg, func(ok bool) {
		if ok {
			write()
		}
	}, h.Window())
	confirm.SetConfirmText(catalogue.T("Replace"))
	confirm.Show()
}

// ExportName is an export's default file name: the prompt's first words
// (an import's file name's), then the item's id, so a folder of exports
// reads as what they show.
func ExportName(it library.Item, format string) string {
	return fmt.Sprintf("%s-%d%s", export.NameWords(it), it.ID, imageio.Extension(format))
}

// UnsavedName is the default file name of the n-th image of a job that
// could not be saved in the gallery: it has no id yet.
func UnsavedName(prompt, format string, n int) string {
	return fmt.Sprintf("%s-unsaved-%d%s", export.PromptWords(prompt), n, imageio.Extension(format))
}
