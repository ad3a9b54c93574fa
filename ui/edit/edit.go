// Package edit is the Edit tab: reference images in order and the mask
// painted over the first on the left, the prompt and options on the
// right, and the edits that run below them.
package edit

import (
	"context"
	"errors"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/dustin/go-humanize"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/cores"
	"easel/internal/imagefolder"
	"easel/internal/imageio"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/roles"
	"easel/internal/wording"
	"easel/internal/work"
	"easel/ui/board"
	"easel/ui/dialogs"
	"easel/ui/jobview"
	"easel/ui/room"
	"easel/ui/widgets/maskpaint"
	"easel/ui/widgets/promptentry"
)

// Input is one reference image, in the order the prompt refers to them.
type Input struct {
	Image api.InputImage
	// Item is the gallery item it came from, 0 for a file.
	Item int64
	// Thumb, Width, Height and Format are what the strip shows; NewInput
	// fills them.
	Thumb         image.Image
	Width, Height int
	Format        string
	// Role is what it is for, said in the prompt (the reference board).
	Role roles.Role
}

// stripThumb is the side of an input's thumbnail in the strip.
const stripThumb = 64

// NewInput makes an input of an image's bytes, with its thumbnail and
// size for the strip. The thumbnail is made from decoded, the picture
// already decoded (imageio.Prepared.Image), or by decoding data when it
// is nil: call it off the UI goroutine.
func NewInput(name, contentType string, data []byte, item int64, decoded image.Image) Input {
	in := Input{Item: item, Image: api.InputImage{Name: name, ContentType: contentType, Data: data}}
	if format, w, h, err := imageio.SniffImage(data); err == nil {
		in.Format, in.Width, in.Height = format, w, h
		if decoded != nil {
			// Drawn in sRGB, as every picture is (its own numbers go).
			in.Thumb = imageio.InSRGB(imageio.Fit(decoded, 2*stripThumb), imageio.SpaceOf(data))
		} else {
			in.Thumb, _ = library.MakeThumbnailSized(data, 2*stripThumb)
		}
	}
	return in
}

// NewFileInput makes an input of a file checked by imageio.PrepareFile:
// one sent as it is stays on disk (its bytes are read as they are sent),
// one Easel changed is its bytes. The thumbnail is made from the picture
// the check decoded, or by decoding the file once and letting it go:
// call it off the UI goroutine. A file first drawn here is drawn through
// the vetter (imageio.FitNewFile); one it could not draw is an error.
func NewFileInput(p imageio.Prepared, name string) (Input, error) {
	if p.Path == "" {
		return NewInput(name, p.ContentType, p.Data, 0, p.Image), nil
	}
	in := Input{Image: api.InputImage{Name: name, ContentType: p.ContentType, Path: p.Path, Size: p.Size},
		Format: p.Format, Width: p.Width, Height: p.Height}
	if p.Image != nil {
		in.Thumb = imageio.InSRGB(imageio.Fit(p.Image, 2*stripThumb), imageio.FileSpace(p.Path))
		return in, nil
	}
	thumb, err := imageio.FitNewFile(p.Path, name, 2*stripThumb)
	if err != nil {
		var refused interface{ Undrawable() string }
		if errors.As(err, &refused) {
			return Input{}, err
		}
		// Drawn by the strip as a blank tile; the send reads the file.
	}
	in.Thumb = thumb
	return in, nil
}

// describe is an input's size, format and file size, as the strip shows.
func describe(in Input) string {
	size := humanize.IBytes(uint64(in.Image.Len()))
	if in.Width == 0 {
		return size
	}
	return fmt.Sprintf("%d×%d · %s · %s", in.Width, in.Height, strings.ToUpper(in.Format), size)
}

// Host is what Edit asks of the window: what any tab that sends images
// does (room.SendHost), and the gallery's notice that a comparison board
// it opened put discarded pictures back.
type Host interface {
	room.SendHost
	GalleryChanged()
}

// Room is the Edit tab.
type Room struct {
	// board is the comparison board last opened on the edit (nil before).
	board *board.Board
	room.Sender
	host Host
	// strip shows the inputs as numbered tiles.
	strip    *refStrip
	mask     *maskTools
	prompt   *promptentry.Entry
	fidelity *widget.Select
	keep     *keepOption
	jobs     *jobview.List
	// thread is the first image's thread, in a tab beside the edits.
	thread *threadPanel
	// kept keeps the tab's work between runs (persist.go).
	kept *sessionKeeper
	// panel is the side panel (prompt, options, edits, Send); column
	// splits it between the form and the edits; sides shares the tab
	// between it and the canvas (layout.go).
	panel  fyne.CanvasObject
	column *container.Split
	sides  *sides
	// expandNext opens Expand canvas once the first input is shown
	// (the gallery's "Expand canvas…").
	expandNext bool
}

// New makes the tab; its widgets are made by Build.
func New(h Host) *Room {
	t := &Room{host: h}
	t.strip = newRefStrip(t.showFirst, func(s string) { t.SetStatus(s) })
	return t
}

// Build implements room.Room: the canvas first (layout.go).
func (t *Room) Build() fyne.CanvasObject {
	t.mask = newMaskTools(t.host)
	t.thread = newThreadPanel(t.host, t.strip, t.mask, t.SetStatus)
	t.kept = &sessionKeeper{host: t.host, strip: t.strip, mask: t.mask}
	t.prompt = promptentry.New(catalogue.T("What should change? — Ctrl+Enter sends"))
	t.fidelity = widget.NewSelect([]string{catalogue.T("Low"), catalogue.T("High")}, nil)
	t.fidelity.SetSelected(catalogue.T("Low"))
	t.keep = newKeepOption(t.strip, t.mask)
	t.Sender = room.NewSender(t.host, catalogue.T("Send edit"), theme.MediaPlayIcon(), t.PrimaryAction,
		widget.NewFormItem(catalogue.T("Input fidelity"), t.fidelity), widget.NewFormItem(catalogue.T("Unmasked area"), t.keep.box))
	t.keep.form = t.Options() // the form the box goes in
	t.OnJob(t.ShowJob)
	t.SetEditing(t.mask.painted, func() (int, bool) { return len(t.strip.inputs), t.fidelity.Selected == catalogue.T("High") })
	t.SetPrompt(&t.prompt.Entry)
	t.Options().OfferMatch(t.strip.firstSize)
	t.Options().OnSizeChanged = t.optionsChanged
	t.mask.onChanged = t.optionsChanged
	t.mask.model = t.Options().Model.Text
	t.fidelity.OnChanged = func(string) { t.Advise() }
	t.jobs = jobview.NewList(catalogue.T("Edits appear here while they run; results go to the Gallery."), t.JobActions())
	root := t.layOut()
	t.optionsChanged()
	t.strip.update()
	t.kept.restore()
	return root
}

// FocusTarget implements room.Room: the prompt.
func (t *Room) FocusTarget() fyne.Focusable { return t.prompt }

// Focused is told when the window has put the keys in the prompt (the
// tab shown): its text is selected, so what is typed replaces the last
// instruction rather than running on from it; an edit's prompt is
// usually new each time.
func (t *Room) Focused() { t.prompt.TypedShortcut(&fyne.ShortcutSelectAll{}) }

// Add appends reference images; each one's place in the list is its
// number in the prompt.
func (t *Room) Add(in ...Input) {
	t.kept.supersede()
	first := len(t.strip.inputs)
	t.strip.add(in...)
	t.strip.scrollToFrom(first) // where the new ones are
}

// StartFrom makes in Edit's only image: a picture taken from the Gallery
// (Edit this, Expand canvas) starts an edit of its own, not one with the
// references left from the last. The images it replaces are one Undo
// away on the status line.
func (t *Room) StartFrom(in Input) {
	t.kept.supersede()
	old := t.strip.replace(in)
	if len(old) == 0 {
		return
	}
	t.SetStatusUndo(catalogue.N("Edit starts from this picture alone; the %d image that was here is one Undo away.", len(old), len(old)), func() {
		t.strip.restore(old)
	})
}

// Inputs is the reference images in order.
func (t *Room) Inputs() []Input { return t.strip.inputs }

// optionsChanged follows a change of what the form's notes say (the
// size a match sends, whether the unmasked area can be kept). A note
// that grows or shrinks is laid out by the window's own pass over the
// sizes that changed, before its next frame; refreshing the whole
// scrolled form here re-drew every button and icon in it, a third of
// the callback that shows a new first image.
func (t *Room) optionsChanged() {
	if t.kept != nil {
		t.kept.changed() // the mask or the marks may have changed
	}
	t.keep.sync()
	t.mask.syncMarks() // the model decides how marks go
	t.Advise()         // the estimate and what the service is known not to do
}

// showFirst puts the first input in the mask painter when it changed,
// decoding it off the UI goroutine; a new first image starts a new mask.
func (t *Room) showFirst() {
	t.mask.keep(t.strip.inputs)
	if t.thread != nil {
		t.thread.follow(false)
		t.kept.changed()
	}
	var first *Input
	if len(t.strip.inputs) > 0 {
		first = &t.strip.inputs[0]
	}
	if !t.mask.differs(first) {
		// Another reference, the same first: only the estimate, which
		// counts the inputs, changes; the size the form matches and its
		// notes (what the service is known to do with these options) do
		// not: refreshing the form for each of sixteen references
		// stalled a frame each time, and reading the service's memory
		// again was a few milliseconds of each.
		t.UpdateEstimate()
		return
	}
	t.Options().SizeChanged()
	t.mask.expect(first)
	if first == nil {
		t.mask.show(nil, maskpaint.Prepare(nil, nil))
		return
	}
	in := *first
	painted := t.mask.masks[key(first)] // not painted while another shows
	// Decoded and made ready to paint on off the UI goroutine: for a
	// 50 MB reference both take long enough to stall the window. In turn
	// with the strip's thumbnails, so the two leave the UI goroutine a
	// core.
	work.Load(t.host.Work(), func(context.Context) (*maskpaint.Prepared, error) {
		var prepared *maskpaint.Prepared
		cores.Hold(func() {
			var img image.Image
			var err error
			if in.Image.Data == nil && in.Image.Path != "" {
				// From the file as it streams: its bytes whole beside
				// the picture were 52 MB more for the collector.
				img, err = imageio.DecodeFile(in.Image.Path)
			} else {
				img, err = imageio.DecodeForScreen(in.Image.Data)
			}
			if err != nil {
				img = nil
			}
			prepared = maskpaint.Prepare(img, painted)
		})
		return prepared, nil
	}, func(prepared *maskpaint.Prepared, _ error) {
		t.mask.show(&in, prepared)
		if t.expandNext && prepared.Mask() != nil && !t.mask.differs(&in) {
			t.expandNext = false
			t.ExpandCanvas()
		}
	})
}

// addFromFile opens the image picker: several images at once, with
// previews, numbered in the order they are clicked.
func (t *Room) addFromFile() {
	dialogs.PickImages(t.host, catalogue.T("Add images"), catalogue.T("Add"), t.AddFiles)
}

// AddFiles adds image files as inputs, in the order given (a dropped or
// handed-over folder adds its images by name), reading them off the UI
// goroutine. Edit takes at most maxInputs images; a file that cannot be
// used, or one past the limit, is named with the reason and the others
// are added.
func (t *Room) AddFiles(paths []string) {
	t.kept.supersede()
	room := t.maxInputs() - len(t.strip.inputs)
	t.host.Work().Go(func(ctx context.Context) {
		files, problems := expandFolders(paths)
		var over, notices, late []string
		added, first := 0, -1
		for _, p := range files {
			if added >= room {
				over = append(over, filepath.Base(p))
				continue
			}
			if ctx.Err() != nil {
				return // the window closed
			}
			// Checked and made a thumbnail of in turn with the mask
			// painter's decode, leaving the UI goroutine a core.
			var in Input
			var err error
			cores.Hold(func() {
				var prepared imageio.Prepared
				if prepared, err = imageio.PrepareFile(p, filepath.Base(p)); err == nil {
					in, err = NewFileInput(prepared, filepath.Base(p))
					if prepared.Notice != "" {
						notices = append(notices, prepared.Notice)
					}
				}
			})
			if err != nil {
				problems = append(problems, wording.Sentence(err.Error()))
				continue
			}
			added++
			// Each one as it is ready: a tile a callback, where sixteen
			// 50 MB references at once kept the strip empty for seconds
			// and then stalled a frame. The batch shows from its first.
			t.host.Work().Do(func() {
				// Another drop may have landed meanwhile: the limit is
				// checked again where the inputs are.
				if len(t.strip.inputs) >= t.maxInputs() {
					late = append(late, in.Image.Name)
					return
				}
				if first < 0 {
					first = len(t.strip.inputs)
				}
				t.strip.add(in)
				t.strip.scrollToFrom(first)
			})
		}
		t.host.Work().Do(func() {
			over = append(late, over...)
			if len(notices) > 0 {
				t.SetStatus(strings.Join(notices, "; ") + ".")
			}
			var limit string
			if len(over) > 0 {
				limit = catalogue.N("Edit takes at most %d images, so %d were not added: %s.",
					len(over), t.maxInputs(), len(over), strings.Join(over, ", "))
			}
			switch {
			case len(problems) > 0:
				// A dialog, not only the status line, which the service's
				// state rewrites as it connects.
				if limit != "" {
					problems = append(problems, limit)
				}
				dialog.ShowError(errors.New(strings.Join(problems, "\n")), t.host.Window()) // one file a line
			case limit != "":
				// Only the limit: a notice, not an error (nothing is wrong
				// with the files).
				dialog.ShowInformation(catalogue.T("Not all the images were added"), limit, t.host.Window())
			}
		})
	})
}

// maxInputs is how many images an edit takes: the service's limit.
func (t *Room) maxInputs() int {
	if c := t.host.Service().Client(); c != nil && c.Limits().MaxImages > 0 {
		return c.Limits().MaxImages
	}
	return api.DefaultLimits.MaxImages
}

// expandFolders replaces each folder in paths by the images in it, by
// name as the image picker lists them (the same kinds of image); a
// folder with none is a problem to tell.
func expandFolders(paths []string) (files, problems []string) {
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil || !st.IsDir() {
			files = append(files, p) // reading it says what is wrong
			continue
		}
		l, err := imagefolder.List(p)
		if err != nil {
			problems = append(problems, catalogue.F("cannot open the folder %s: %v.", filepath.Base(p), wording.PathCause(err)))
			continue
		}
		for _, name := range l.Images {
			files = append(files, filepath.Join(p, name))
		}
		if len(l.Images) == 0 {
			problems = append(problems, catalogue.F("The folder %s holds no PNG, JPEG, WebP, GIF, BMP or TIFF images.", filepath.Base(p)))
		}
	}
	return files, problems
}

// PrimaryAction checks the edit and submits it as a job.
func (t *Room) PrimaryAction() {
	sending{t}.request(func(r jobs.Request) { t.Send(r.Edit.Check, &r.Edit.ImageOptions, r) })
}

// ShowJob shows a job event on the job's card; img is its preview,
// results a finished job's images.
func (t *Room) ShowJob(e jobs.Event, img image.Image, results []jobview.Result) {
	t.jobs.Show(e, img, results)
	if e.State.Final() {
		t.Advise() // what the answer showed may change what the form says
	}
	switch {
	case e.State == jobs.Queued:
		t.thread.showEdits()
		if t.column != nil && t.column.Offset == formShare {
			// The card is read where it lands; a divider the designer
			// has moved is left where they put it.
			t.column.SetOffset(1 - editsShare)
		}
	case e.State == jobs.Done && e.Job.Request.Continues != 0:
		t.thread.follow(true) // a turn was added
	}
}

// Jobs is the tab's job list.
func (t *Room) Jobs() *jobview.List { return t.jobs }

// Prompt is the prompt field.
func (t *Room) Prompt() *promptentry.Entry { return t.prompt }

// Painter is the mask painter, for tests and the window's keys.
func (t *Room) Painter() *maskpaint.Painter { return t.mask.painter }

// fidelityValue is the input fidelity chosen, as the service names it.
func (t *Room) fidelityValue() string {
	if t.fidelity.Selected == catalogue.T("High") {
		return "high"
	}
	return "low"
}
