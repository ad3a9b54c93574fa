package dialogs

import (
	"context"
	"image"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/imagefolder"
	"easel/internal/imageio"
	"easel/ui/kit"
	"easel/ui/widgets/picture"
	"easel/ui/widgets/thumbgrid"
)

// pickerFolderPref is the folder the image picker last showed.
const pickerFolderPref = "picker.folder"

// pickerThumb is the side of a picture in the picker's grid.
const pickerThumb = 112

// ImagePicker chooses several images from a folder, with previews, in
// the order they are clicked (Edit's "the first", "the second"): Ctrl
// adds or removes one, Shift a run. Folders open from the list beside
// the grid or the places above it.
type ImagePicker struct {
	h       FileHost
	dlg     dialog.Dialog
	listing imagefolder.Listing
	grid    *thumbgrid.Grid
	folders *widget.List
	where   *widget.Label
	chosen  *widget.Label
	confirm *widget.Button
	done    func(paths []string)
	// folder is set when the picker chooses a folder, not images: the
	// images show what is in it, and the action takes the folder shown.
	folder func(dir string)
	// single is set when the picker chooses one image: a Ctrl or Shift
	// click chooses the image clicked instead.
	single bool
	// match says which files are offered; kind names them when none is
	// there. Images (with previews) unless PickFile set other files.
	match    func(name string) bool
	kind     string
	previews bool

	// thumbs are the folder's previews as they are decoded; cancel
	// stops the decoding of the folder left.
	mu     sync.Mutex
	thumbs map[string]image.Image
	cancel context.CancelFunc
}

// PickImages opens the picker over the window; done gets the chosen
// files in the order clicked, and is not called on Cancel. title and
// action word the dialog ("Add images", "Add") for where it was opened.
func PickImages(h FileHost, title, action string, done func(paths []string)) *ImagePicker {
	return newPicker(h, title, action, done, nil, nil)
}

// PickImage opens the picker to choose one image (a missing item's
// file, a mask); done gets it, and is not called on Cancel.
func PickImage(h FileHost, title, action string, done func(path string)) *ImagePicker {
	p := newPicker(h, title, action, func(paths []string) { done(paths[0]) }, nil, nil)
	p.single = true
	p.selectionChanged()
	return p
}

// PickFolder opens the picker to choose a folder (where exports go): the
// folder shown when the action is pressed is done's. It opens on start
// when that folder exists.
func PickFolder(h FileHost, title, action, start string, done func(dir string)) *ImagePicker {
	p := newPicker(h, title, action, nil, done, nil)
	if st, err := os.Stat(start); err == nil && st.IsDir() {
		p.open(start)
	}
	return p
}

// PickFile opens the picker to choose one file whose name ends in ext (a
// prompt library's ".json"), kind naming such files ("prompt library
// files"); they are listed by name, without previews. done gets the
// file, and is not called on Cancel.
func PickFile(h FileHost, title, action, ext, kind string, done func(path string)) *ImagePicker {
	match := func(name string) bool { return strings.EqualFold(filepath.Ext(name), ext) }
	p := newPicker(h, title, action, func(paths []string) { done(paths[0]) }, nil, match)
	p.single, p.kind = true, kind
	p.selectionChanged()
	return p
}

func newPicker(h FileHost, title, action string, done func(paths []string), folder func(dir string), match func(string) bool) *ImagePicker {
	p := &ImagePicker{h: h, done: done, folder: folder, thumbs: map[string]image.Image{}, match: match, previews: match == nil}
	if match == nil {
		p.match = imagefolder.IsImage
	}
	p.where = widget.NewLabel("")
	p.where.Truncation = fyne.TextTruncateEllipsis
	p.chosen = kit.HintLabel("")
	p.grid = thumbgrid.New(func() int { return len(p.listing.Images) }, p.newCell, p.showCell)
	p.grid.OnChanged = p.selectionChanged
	p.grid.OnOpen = func(int) { p.finish() }
	p.folders = widget.NewList(func() int { return len(p.listing.Folders) + 1 },
		func() fyne.CanvasObject {
			return container.NewBorder(nil, nil, widget.NewIcon(theme.FolderIcon()), nil, widget.NewLabel(""))
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			label := o.(*fyne.Container).Objects[0].(*widget.Label)
			if i == 0 {
				label.SetText(catalogue.T("Up one folder"))
				return
			}
			label.SetText(p.listing.Folders[i-1])
		})
	p.folders.OnSelected = func(i widget.ListItemID) {
		p.folders.UnselectAll()
		if i == 0 {
			p.open(filepath.Dir(p.listing.Dir))
			return
		}
		p.open(filepath.Join(p.listing.Dir, p.listing.Folders[i-1]))
	}
	places := container.NewHBox()
	home, _ := os.UserHomeDir()
	for _, pl := range imagefolder.Places(home) {
		dir := pl.Dir
		places.Add(&widget.Button{Text: placeName(pl.Name), Importance: widget.LowImportance, OnTapped: func() { p.open(dir) }})
	}
	top := container.NewBorder(nil, nil, places, nil, p.where)
	split := container.NewHSplit(p.folders, p.grid)
	split.Offset = 0.25
	p.confirm = &widget.Button{Text: action, Importance: widget.HighImportance, OnTapped: p.finish}
	cancel := &widget.Button{Text: catalogue.T("Cancel"), OnTapped: func() { p.close() }}
	bottom := container.NewBorder(nil, nil, nil, container.NewHBox(cancel, p.confirm), p.chosen)
	content := container.NewBorder(top, bottom, nil, nil, split)
	p.dlg = dialog.NewCustomWithoutButtons(title, content, h.Window())
	p.dlg.SetOnClosed(p.stopLoading)
	win := h.Window().Canvas().Size()
	p.dlg.Resize(fyne.NewSize(min(980, win.Width*0.92), min(680, win.Height*0.9)))
	p.open(imagefolder.Start(fyne.CurrentApp().Preferences().String(pickerFolderPref), home))
	p.dlg.Show()
	return p
}

// placeName words a place in the user's language.
func placeName(name string) string {
	switch name {
	case "Home":
		return catalogue.T("Home")
	case "Pictures":
		return catalogue.T("Pictures")
	case "Desktop":
		return catalogue.T("Desktop")
	case "Downloads":
		return catalogue.T("Downloads")
	}
	return name
}

// open shows dir: its folders, its images, nothing chosen.
func (p *ImagePicker) open(dir string) {
	l, err := imagefolder.ListMatching(dir, p.match)
	if err != nil {
		p.chosen.SetText(catalogue.F("The folder %s cannot be opened: %v", filepath.Base(dir), err))
		return
	}
	p.stopLoading()
	p.listing = l
	p.where.SetText(dir)
	if p.folder == nil { // the images' picker opens where it was last
		fyne.CurrentApp().Preferences().SetString(pickerFolderPref, dir)
	}
	p.grid.Reset()
	p.grid.Refresh()
	p.folders.Refresh()
	p.selectionChanged()
	p.load(l)
}

// load decodes the folder's previews off the UI goroutine, two at a
// time, until the folder is left.
func (p *ImagePicker) load(l imagefolder.Listing) {
	if !p.previews {
		return
	}
	ctx, cancel := context.WithCancel(p.h.Work().Context())
	p.mu.Lock()
	p.cancel = cancel
	p.thumbs = map[string]image.Image{}
	p.mu.Unlock()
	paths := make(chan string)
	go func() {
		defer close(paths)
		for _, name := range l.Images {
			select {
			case paths <- filepath.Join(l.Dir, name):
			case <-ctx.Done():
				return
			}
		}
	}()
	for range 2 {
		p.h.Work().Go(func(context.Context) {
			for path := range paths {
				img, err := imageio.DecodeFileFit(path, pickerThumb)
				if err != nil || ctx.Err() != nil {
					continue
				}
				p.h.Work().Do(func() {
					if ctx.Err() != nil {
						return
					}
					p.mu.Lock()
					p.thumbs[path] = img
					p.mu.Unlock()
					p.grid.Refresh()
				})
			}
		})
	}
}

// stopLoading stops decoding the folder shown.
func (p *ImagePicker) stopLoading() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cancel != nil {
		p.cancel()
		p.cancel = nil
	}
}

func (p *ImagePicker) newCell() fyne.CanvasObject {
	name := widget.NewLabel("")
	name.Truncation = fyne.TextTruncateEllipsis
	name.SizeName = theme.SizeNameCaptionText
	icon := widget.NewIcon(theme.FileIcon())
	icon.Hidden = p.previews
	return container.NewBorder(nil, name, nil, nil, container.NewStack(picture.New(fyne.NewSize(pickerThumb, pickerThumb)), icon))
}

func (p *ImagePicker) showCell(i int, o fyne.CanvasObject) {
	if i >= len(p.listing.Images) {
		return
	}
	c := o.(*fyne.Container)
	name := p.listing.Images[i]
	c.Objects[1].(*widget.Label).SetText(name)
	p.mu.Lock()
	img := p.thumbs[filepath.Join(p.listing.Dir, name)]
	p.mu.Unlock()
	c.Objects[0].(*fyne.Container).Objects[0].(*picture.Picture).SetImage(img)
}

// Chosen are the chosen files, in the order clicked.
func (p *ImagePicker) Chosen() []string {
	var out []string
	for _, i := range p.grid.Selection().Order() {
		if i >= 0 && i < len(p.listing.Images) {
			out = append(out, filepath.Join(p.listing.Dir, p.listing.Images[i]))
		}
	}
	return out
}

// selectionChanged says what is chosen, in order, and enables Add.
func (p *ImagePicker) selectionChanged() {
	if p.folder != nil {
		p.chosen.SetText(catalogue.F("%s will be used.", p.listing.Dir))
		return
	}
	if p.single && p.grid.Selection().Len() > 1 {
		p.grid.Select(p.grid.Selection().Cursor()) // calls back with one
		return
	}
	chosen := p.Chosen()
	switch {
	case p.single && len(chosen) == 1:
		p.chosen.SetText(catalogue.F("%s will be used.", filepath.Base(chosen[0])))
	case p.single && len(p.listing.Images) > 0 && p.kind != "":
		p.chosen.SetText(catalogue.T("Click a file."))
	case p.single && len(p.listing.Images) > 0:
		p.chosen.SetText(catalogue.T("Click an image."))
	case len(p.listing.Images) == 0 && p.kind != "":
		p.chosen.SetText(catalogue.F("No %s here: open another folder.", p.kind))
	case len(p.listing.Images) == 0:
		p.chosen.SetText(catalogue.T("No PNG, JPEG, WebP, GIF, BMP or TIFF images here: open another folder."))
	case len(chosen) == 0:
		p.chosen.SetText(catalogue.T("Click an image; Ctrl+click adds more, in the order they will be numbered."))
	default:
		var names []string
		for _, c := range chosen {
			names = append(names, filepath.Base(c))
		}
		p.chosen.SetText(catalogue.N("%d chosen, in this order: %s", len(chosen), len(chosen), strings.Join(names, ", ")))
	}
	if len(chosen) == 0 {
		p.confirm.Disable()
	} else {
		p.confirm.Enable()
	}
}

// finish hands the chosen files (or the folder shown) over and closes.
func (p *ImagePicker) finish() {
	if p.folder != nil {
		p.close()
		p.folder(p.listing.Dir)
		return
	}
	chosen := p.Chosen()
	if len(chosen) == 0 {
		return
	}
	p.close()
	p.done(chosen)
}

func (p *ImagePicker) close() {
	p.stopLoading()
	p.dlg.Hide()
}
