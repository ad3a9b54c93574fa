package chat

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/imageio"
	"easel/internal/wording"
	"easel/ui/dialogs"
)

// attachments are the images picked or dropped to go with the next
// message, shown as chips above the composer.
type attachments struct{ *Room }

// attachFromFile opens the image picker to attach images, several at
// once, to the message being written.
func (t attachments) attachFromFile() {
	dialogs.PickImages(t.host, catalogue.T("Attach images"), catalogue.T("Attach"), t.AttachFiles)
}

// AttachFiles attaches image files (dropped on the Chat tab) to the
// message being written, prepared as Edit's inputs are (off the UI
// goroutine); a file that cannot be used is named with the reason.
func (t *Room) AttachFiles(paths []string) {
	t.host.Work().Go(func(ctx context.Context) {
		var atts []attachment
		var problems []string
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
		t.host.Work().Do(func() {
			attachments{t}.attach(atts, problems)
		})
	})
}

// Attach attaches an image's bytes (Send to Chat from the Gallery).
func (t *Room) Attach(name string, data []byte) {
	t.host.Work().Go(func(ctx context.Context) {
		prepared, err := imageio.Prepare(name, data, imageio.MaxUploadBytes)
		t.host.Work().Do(func() {
			if err != nil {
				attachments{t}.attach(nil, []string{wording.Sentence(err.Error())})
				return
			}
			attachments{t}.attach([]attachment{{name: name, data: prepared.Data, thumb: imageio.Fit(prepared.Image, 192)}}, nil)
		})
	})
}

func (t attachments) attach(atts []attachment, problems []string) {
	room := MaxAttachments - len(t.attachments)
	if len(atts) > room {
		var over []string
		for _, a := range atts[max(room, 0):] {
			over = append(over, a.name)
		}
		problems = append(problems, catalogue.F("A message carries at most %d images, so these were not attached: %s.", MaxAttachments, strings.Join(over, ", ")))
		atts = atts[:max(room, 0)]
	}
	t.attachments = append(t.attachments, atts...)
	t.showAttachments()
	if len(problems) > 0 {
		dialog.ShowError(errors.New(strings.Join(problems, "\n")), t.host.Window()) // one file a line
	}
	if c := t.host.Window().Canvas(); c != nil && len(atts) > 0 {
		c.Focus(t.composer)
	}
}

// Attachments are the names of the images waiting to be sent.
func (t *Room) Attachments() []string {
	var out []string
	for _, a := range t.attachments {
		out = append(out, a.name)
	}
	return out
}

// showAttachments draws the images waiting above the composer, each with
// its remove button.
func (t attachments) showAttachments() {
	defer t.showEstimate()
	t.attachRow.Objects = nil
	for i, a := range t.attachments {
		pic := canvas.NewImageFromImage(a.thumb)
		pic.FillMode = canvas.ImageFillContain
		pic.SetMinSize(fyne.NewSize(56, 56))
		remove := &widget.Button{Icon: theme.CancelIcon(), Importance: widget.LowImportance, OnTapped: func() {
			t.attachments = append(t.attachments[:i:i], t.attachments[i+1:]...)
			t.showAttachments()
		}}
		name := widget.NewLabel(a.name)
		name.Truncation = fyne.TextTruncateEllipsis
		t.attachRow.Add(container.NewBorder(nil, nil, pic, remove, container.NewGridWrap(fyne.NewSize(110, 40), name)))
	}
	t.attachRow.Hidden = len(t.attachments) == 0
	t.attachRow.Refresh()
}

// hashOf is the content hash the library stores an image under.
func hashOf(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
