package edit

import (
	"context"
	"errors"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/jobs"
	"easel/internal/markup"
	"easel/internal/roles"
	"easel/internal/work"
	"easel/ui/board"
)

// sending is how the tab makes its edit into a request: sent as one job
// (Send edit), or compared across models, qualities or profiles on a
// board (Compare…).
type sending struct{ *Room }

// request makes the edit as it would be sent (the inputs in order, the
// mask, the unmasked area kept, the inputs' gallery items as parents)
// and hands it to use. Off the UI goroutine first, as `easel edit` does
// them: images in another colour space are converted to sRGB
// (jobs.InSRGB), a first image of a shape the model cannot make is
// padded with its mask (jobs.PadFirst), and the marks are put in; use
// then runs on the UI goroutine.
func (t sending) request(use func(jobs.Request)) {
	req := api.EditRequest{Prompt: t.prompt.Text, ImageOptions: t.Options().Options(), InputFidelity: t.fidelityValue()}
	var parents []int64
	var said []roles.Role
	// A first image from the gallery is the picture the edit continues:
	// the result is the next turn of its thread (a branch when it was
	// continued before).
	var continues int64
	if len(t.strip.inputs) > 0 {
		continues = t.strip.inputs[0].Item
	}
	for _, r := range t.strip.inputs {
		req.Images = append(req.Images, r.Image)
		said = append(said, r.Role)
		if r.Item != 0 {
			parents = append(parents, r.Item)
		}
	}
	m, err := t.mask.maskPNG()
	if err != nil {
		t.SetStatus(catalogue.F("The mask could not be prepared, so nothing was sent: %v", err))
		return
	}
	req.Mask = m
	keep := t.keep.request(req.Mask != nil)
	shape, pad := t.keep.pads(req.Mask != nil)
	marks := t.mask.painter.Marks.All()
	// Converted, padded and marked off the UI goroutine; an error is
	// the status line's sentence.
	work.Load(t.host.Work(), func(context.Context) (jobs.Request, error) {
		converted, err := jobs.InSRGB(&req, keep)
		if err != nil {
			return jobs.Request{}, errors.New(catalogue.F("The images could not be converted to sRGB, so nothing was sent: %v", err))
		}
		if pad {
			if err = jobs.PadFirst(&req, keep, shape); err != nil {
				return jobs.Request{}, errors.New(catalogue.F("The first image could not be padded to the model's shape: %v", err))
			}
		}
		roles.Apply(&req, said) // before the marks' note, as easel edit does
		mode, original, err := markup.Apply(&req, marks)
		if err != nil {
			return jobs.Request{}, errors.New(catalogue.F("The marks could not be put in, so nothing was sent: %v", err))
		}
		if original != nil && keep != nil && keep.First == nil {
			// Kept from the first image as the user gave it, never
			// from a copy with the marks drawn on.
			keep.First = original
		}
		return jobs.Request{Edit: &req, Parents: parents, Continues: continues, Keep: keep, Marked: mode.Sentence(), Converted: converted}, nil
	}, func(r jobs.Request, err error) {
		if err != nil {
			t.SetStatus(err.Error())
			return
		}
		use(r)
	})
}

// compare opens the comparison board on the edit as it would be sent:
// the same inputs, mask and prompt across models, qualities or profiles.
func (t sending) compare() {
	if len(t.strip.inputs) == 0 {
		t.SetStatus(catalogue.T("Add an image first: a comparison sends the same edit to each model."))
		return
	}
	t.request(func(r jobs.Request) {
		t.board = board.OpenEdit(t.host, r, t.Options().Model.Listed())
	})
}
