package chat

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"easel/ui/widgets/iconbutton"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/imageio"
	"easel/internal/wording"
	"easel/internal/work"
)

// attachments are the images picked or dropped to go with the next
// message, shown as chips above the composer (row).
type attachments struct {
	host  Host
	items []attachment
	row   *fyne.Container
	// changed runs when images come or go (the estimate follows);
	// arrived when some were attached (the composer takes the focus).
	changed, arrived func()
}

func newAttachments(h Host, changed, arrived func()) *attachments {
	a := &attachments{host: h, row: container.NewHBox(), changed: changed, arrived: arrived}
	a.row.Hide()
	return a
}

// take empties the shelf and returns what was on it: the message is
// being sent.
func (a *attachments) take() []attachment {
	out := a.items
	a.items = nil
	a.show()
	return out
}

// putBack returns images of a message that was not sent, before any
// attached since.
func (a *attachments) putBack(atts []attachment) {
	a.items = append(atts, a.items...)
	a.show()
}

// AttachFiles attaches image files (dropped on the Chat tab) to the
// message being written, prepared as Edit's inputs are (off the UI
// goroutine); a file that cannot be used is named with the reason.
func (t *Room) AttachFiles(paths []string) { t.attached.addFiles(paths) }

// addFiles reads and prepares paths off the UI goroutine, then attaches
// them.
func (a *attachments) addFiles(paths []string) {
	var problems []string // the load's, read once it is shown
	work.Load(a.host.Work(), func(context.Context) ([]attachment, error) {
		var atts []attachment
		for _, p := range paths {
			f, err := os.Open(p)
			if err != nil {
				problems = append(problems, wording.Sentence(catalogue.F("cannot open %s: %v", filepath.Base(p), wording.PathCause(err))))
				continue
			}
			prepared, err := imageio.ReadPrepared(f, filepath.Base(p))
			_ = f.Close()
			if err != nil {
				problems = append(problems, wording.Sentence(err.Error()))
				continue
			}
			atts = append(atts, attachment{name: filepath.Base(p), data: prepared.Data, thumb: imageio.Fit(prepared.Image, 192)})
		}
		return atts, nil
	}, func(atts []attachment, _ error) { a.attach(atts, problems) })
}

// Attach attaches an image's bytes (Send to Chat from the Gallery).
func (t *Room) Attach(name string, data []byte) {
	work.Load(t.host.Work(), func(ctx context.Context) (imageio.Prepared, error) {
		return imageio.Prepare(name, data, imageio.MaxUploadBytes)
	}, func(prepared imageio.Prepared, err error) {
		if err != nil {
			t.attached.attach(nil, []string{wording.Sentence(err.Error())})
			return
		}
		t.attached.attach([]attachment{{name: name, data: prepared.Data, thumb: imageio.Fit(prepared.Image, 192)}}, nil)
	})
}

func (a *attachments) attach(atts []attachment, problems []string) {
	room := MaxAttachments - len(a.items)
	if len(atts) > room {
		var over []string
		for _, att := range atts[max(room, 0):] {
			over = append(over, att.name)
		}
		problems = append(problems, catalogue.F("A message carries at most %d images, so these were not attached: %s.", MaxAttachments, strings.Join(over, ", ")))
		atts = atts[:max(room, 0)]
	}
	a.items = append(a.items, atts...)
	a.show()
	if len(problems) > 0 {
		dialog.ShowError(errors.New(strings.Join(problems, "\n")), a.host.Window()) // one file a line
	}
	if len(atts) > 0 {
		a.arrived()
	}
}

// Attachments are the names of the images waiting to be sent.
func (t *Room) Attachments() []string {
	var out []string
	for _, a := range t.attached.items {
		out = append(out, a.name)
	}
	return out
}

// show draws the images waiting above the composer, each with its
// remove button.
func (a *attachments) show() {
	defer a.changed()
	a.row.Objects = nil
	for i, att := range a.items {
		pic := canvas.NewImageFromImage(att.thumb)
		pic.FillMode = canvas.ImageFillContain
		pic.SetMinSize(fyne.NewSize(56, 56))
		remove := iconbutton.Low(catalogue.T("Remove this attachment"), theme.CancelIcon(), func() {
			a.items = append(a.items[:i:i], a.items[i+1:]...)
			a.show()
		})
		name := widget.NewLabel(att.name)
		name.Truncation = fyne.TextTruncateEllipsis
		a.row.Add(container.NewBorder(nil, nil, pic, remove, container.NewGridWrap(fyne.NewSize(110, 40), name)))
	}
	a.row.Hidden = len(a.items) == 0
	a.row.Refresh()
}

// hashOf is the content hash the library stores an image under.
func hashOf(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
