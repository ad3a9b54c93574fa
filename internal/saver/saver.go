// Package saver puts a finished job's images into the gallery's library,
// with the prompt and settings that made them: it is the jobs.Saver the
// window runs its jobs with, kept apart from both so that neither the job
// runner nor the library knows of the other, and tested without a window.
package saver

import (
	"context"
	"log/slog"
	"os"
	"slices"
	"time"

	"easel/internal/api"
	"easel/internal/honesty"
	"easel/internal/imageio"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/pricing"
	"easel/internal/spend"
)

// Runner is the window's engine over lib: jobs written in the journal
// before they go out, their images saved in the gallery, their cost in
// the ledger, what the service showed remembered; listen hears every
// job's events. The command line runs the same runner with its own
// saver (a folder) and journal owner (internal/cli).
func Runner(lib *library.Library, listen func(jobs.Event)) *jobs.Runner {
	return jobs.New(nil, Library{Lib: lib}, listen, jobs.Options{Memory: lib.Memory(), Journal: Journal{Lib: lib}, Ledger: spend.Ledger{Books: lib.Ledger()}, Threads: lib.Lineage()})
}

// Library stores a job's images in a library.
type Library struct {
	Lib *library.Library
}

// Save implements jobs.Saver: one library item per image, in the order
// the service sent them, each with its job's prompt, settings, usage and
// lineage, each saved on its own so one failure costs only that image
// (which is handed back to be saved elsewhere). It makes no thumbnails:
// the job ends once its images are saved, so a quit is not held up (the
// race-built window took over a second for a 1024-pixel one); the card
// and the gallery make theirs as they need them.
// pics are the job's pictures as the runner decoded them; nil makes
// them here.
func (s Library) Save(ctx context.Context, job jobs.Info, res *api.ImageResult, report honesty.Report, pics *imageio.EditPictures) []jobs.Saved {
	kind, prompt, params := "generate", "", library.Params{}
	var inputs []library.Input
	var mask *library.Input
	if g := job.Request.Generate; g != nil {
		prompt, params.ImageOptions = g.Prompt, g.ImageOptions
	} else if e := job.Request.Edit; e != nil {
		kind, prompt, params.ImageOptions = "edit", e.Prompt, e.ImageOptions
		params.InputFidelity, params.HasMask = e.InputFidelity, e.Mask != nil
		inputs, mask = library.EditInputs(e)
	}
	if pics == nil {
		pics = job.Request.Pictures(res)
	}
	out := make([]jobs.Saved, 0, len(res.Images))
	add := func(img api.Image, picture *imageio.Picture, kind string, parents []int64, inputs []library.Input) int64 {
		id, err := s.Lib.Add(ctx, library.NewItem{Image: img, Kind: kind, Prompt: prompt, Model: params.Model,
			Profile: job.Request.Profile, Params: params, Usage: res.Usage, Created: res.Created,
			Duration: time.Since(job.Started), JobID: job.ID, RequestID: res.RequestID, Parents: parents, Inputs: inputs, Mask: mask,
			Honesty: report, Picture: picture.Decoded()})
		if err != nil {
			out = append(out, jobs.Saved{Err: err, Image: img})
			return 0
		}
		out = append(out, jobs.Saved{Item: id})
		return id
	}
	for i, raw := range res.Images {
		// The result as the service sent it is kept; a masked edit's
		// result with the protected pixels put back is its own item,
		// whose first parent is that raw result.
		rawID := add(raw, pics.Result(i), kind, job.Request.Parents, inputs)
		chosen := rawID
		if kept, picture, ok := keepUnmasked(job, raw, pics, i); ok {
			parents := job.Request.Parents
			if rawID != 0 {
				parents = append([]int64{rawID}, parents...)
			}
			keptInputs := inputs
			if pics.User != pics.Original {
				// What the kept copy is compared with: the user's own
				// picture, not the padded or marked one sent.
				if own, err := pics.User.Bytes(); err == nil {
					keptInputs = append(slices.Clip(inputs), library.Input{Name: "original.png", Data: own, Role: library.RoleOriginal})
				}
			}
			if keptID := add(kept, picture, "kept", parents, keptInputs); keptID != 0 {
				chosen = keptID
			}
		}
		s.turn(ctx, job, chosen, res.Response, raw, pics, i)
	}
	return out
}

// turn records the i-th result, saved as item (the kept copy when there
// is one: what the designer goes on from), as a turn after the picture
// the job continues, with how much the service changed outside the
// marks (measured on what it sent). A turn that cannot be recorded
// costs the thread a step, never the picture, which is saved already.
func (s Library) turn(ctx context.Context, job jobs.Info, item int64, response string, raw api.Image, pics *imageio.EditPictures, i int) {
	from := job.Request.Continues
	if from == 0 && item != 0 && response != "" {
		// Made through the Responses API (a background render): the
		// start of a thread the service keeps.
		if err := s.Lib.Lineage().StartThread(ctx, item, response); err != nil {
			slog.Warn("thread: a picture's answer could not be kept for the next turn", "job", job.ID, "item", item, "err", err)
		}
		return
	}
	if from == 0 || item == 0 || job.Request.Edit == nil {
		return
	}
	t := library.Turn{Item: item, Parent: from, Way: library.WayImages, Note: job.Request.WayNote}
	if response != "" {
		t.Way, t.Response = library.WayResponses, response
	}
	if share, ok := drift(job.Request.Edit, raw, pics, i); ok {
		t.Drift = &share
	}
	if err := s.Lib.Lineage().AddTurn(ctx, t); err != nil {
		slog.Warn("thread: a turn could not be recorded", "job", job.ID, "item", item, "err", err)
	}
}

// drift is the share of the first image sent that the i-th result
// changed outside the mask (everywhere, without one): the pictures the
// runner decoded when it has them, else decoded here.
func drift(e *api.EditRequest, raw api.Image, pics *imageio.EditPictures, i int) (float64, bool) {
	if len(e.Images) == 0 {
		return 0, false
	}
	result, before, mask := imageio.AnswerOf(raw.Data), imageio.PictureFrom(e.Images[0].Bytes), (*imageio.Picture)(nil)
	if pics != nil && pics.Original != nil {
		if r := pics.Result(i); r != nil {
			result = r
		}
		before, mask = pics.Original, pics.Mask
	} else if e.Mask != nil {
		mask = imageio.PictureOf(e.Mask.Data)
	}
	return honesty.DriftOf(result, before, mask)
}

// keepUnmasked is the i-th result with the first input's pixels put
// back where an edit's mask protected them (see imageio.KeepUnmasked),
// when the job asks for it, made from pics (each picture decoded once),
// and whether it could be made: an image of another shape cannot be
// matched (Edit says so before sending).
func keepUnmasked(job jobs.Info, img api.Image, pics *imageio.EditPictures, i int) (api.Image, *imageio.Picture, bool) {
	k := job.Request.Keep
	if k == nil || pics == nil || pics.Source == nil || pics.Result(i) == nil {
		return img, nil, false
	}
	pics.KeepFrom(k.Feather, k.Frame) // begun by the runner, as a rule
	kept, err := pics.KeptResult(i)
	if err != nil {
		return img, nil, false
	}
	data, _ := kept.Bytes()
	b := kept.Decoded().Bounds()
	// The kept copy is the user's picture's size (cropped to it, when the
	// upload was padded), not the raw result's.
	img.Data, img.Format, img.Width, img.Height = data, "png", b.Dx(), b.Dy()
	return img, kept, true
}

// Journal is the jobs.Journal over a library: each job is written down
// (its request and inputs) before it is sent, and crossed out when it
// ends, so one a kill or a close cut off is listed at the next start.
type Journal struct {
	Lib *library.Library
	// Owner is whose jobs these are: "" the window's, library.OwnerCLI
	// the command line's, whose process holds each job's lock.
	Owner string
}

// Begin implements jobs.Journal.
func (j Journal) Begin(ctx context.Context, job jobs.Info) error {
	entry := library.Journalled{Job: job.ID, Profile: job.Request.Profile, Started: job.Started, Group: job.Request.Group,
		Generate: job.Request.Generate, Edit: job.Request.Edit, Parents: job.Request.Parents, Continues: job.Request.Continues, Owner: j.Owner}
	if k := job.Request.Keep; k != nil {
		f := k.Feather
		entry.KeepFeather = &f
		if !k.Frame.Empty() {
			fr := k.Frame
			entry.KeepFrame = &fr
		}
	}
	return j.Lib.Journal().Begin(ctx, entry)
}

// KeepArrived implements jobs.ArrivalKeeper: the image goes beside the
// job's journal entry, until the job's end (or the next start) puts it in
// the gallery.
func (j Journal) KeepArrived(job string, n int, img api.Image) error {
	return j.Lib.Journal().KeepArrived(job, n, img)
}

// End implements jobs.Journal.
func (j Journal) End(ctx context.Context, id string) error { return j.Lib.Journal().End(ctx, id) }

// DropArrived implements jobs.ArrivalKeeper.
func (j Journal) DropArrived(job string) { j.Lib.Journal().DropArrived(job) }

// Interrupted are the jobs a kill or a close cut off, as the runner would
// send them again, each dated when it started. Each is written into the
// ledger as "may have been billed" at its estimate at the prices of its
// profile (prices), unless its end was written before the stop.
func (j Journal) Interrupted(ctx context.Context, prices func(profile string) pricing.Table) ([]jobs.Info, error) {
	found, err := j.Lib.Journal().Interrupted(ctx)
	out := make([]jobs.Info, 0, len(found))
	for _, f := range found {
		if f.Owner == library.OwnerBatch {
			out = append(out, j.leftByBatch(ctx, f))
			continue
		}
		if _, _, lerr := (spend.Ledger{Books: j.Lib.Ledger()}).CutOff(ctx, prices(f.Profile), f); lerr != nil {
			slog.Warn("ledger: a job a kill cut off could not be written down", "job", f.Job, "err", lerr)
		}
		req := jobs.Request{Profile: f.Profile, Group: f.Group, Generate: f.Generate, Edit: f.Edit, Parents: f.Parents, Continues: f.Continues,
			Keep: keepOf(f)}
		info := jobs.Info{ID: f.Job, Request: req, Started: f.Started, KeptAt: j.Lib.Aside().FoundUnsaved(f.Job)}
		if e, ok, _ := j.Lib.Ledger().EntryOfJob(ctx, f.Job); ok && e.Outcome == library.Billed && e.Billing == "" {
			// Answered and written down as billed before its images were
			// saved: only the save (and the journal's end) failed.
			info.Answered = true
		}
		switch {
		case len(f.Arrived) > 0:
			// Paid for and on disk: into the gallery with the job's
			// prompt and settings, before anything else.
			var all bool
			if info.Kept, all = j.adopt(ctx, info, f.Arrived); all {
				j.Lib.Journal().DropArrived(f.Job)
			}
		case len(info.KeptAt) > 0:
			// Paid, then the gallery could not take them (a full disk):
			// into the gallery now, and the fallback files go once all are.
			info.Kept, info.KeptAt = j.adoptUnsaved(ctx, info)
		}
		if req.Edit != nil && len(req.Edit.Images) == 0 && len(info.Kept) == 0 && !info.Answered {
			continue // its inputs are gone: nothing could be sent again
		}
		out = append(out, info)
	}
	return out, err
}

// keepOf is how a journalled edit kept its unmasked area; nil for none.
func keepOf(f library.Journalled) *jobs.Keep {
	if f.KeepFeather == nil {
		return nil
	}
	k := &jobs.Keep{Feather: *f.KeepFeather}
	if f.KeepFrame != nil {
		k.Frame = *f.KeepFrame
	}
	return k
}

// leftByBatch is a request an ended batch did not make, with why: not
// charged, so not in the ledger.
func (j Journal) leftByBatch(ctx context.Context, f library.Journalled) jobs.Info {
	_, why := j.Lib.Journal().Batches().LeftBy(ctx, f.Job)
	return jobs.Info{ID: f.Job, Started: f.Started, Left: why,
		Request: jobs.Request{Profile: f.Profile, Group: f.Group, Generate: f.Generate, Edit: f.Edit, Parents: f.Parents}}
}

// KeepAside implements jobs.AsideKeeper: the bytes go beside the gallery,
// in its "unreadable" folder.
func (s Library) KeepAside(data []byte, job string, n int) (string, error) {
	return s.Lib.Aside().Keep(data, job, n)
}

// adopt saves images a job had paid for into the gallery, with its
// prompt and settings; all reports whether every one went in.
func (j Journal) adopt(ctx context.Context, info jobs.Info, images []api.Image) (kept []int64, all bool) {
	all = true
	res := &api.ImageResult{Images: images, Created: info.Started}
	for _, s := range (Library{Lib: j.Lib}).Save(ctx, info, res, honesty.Report{}, nil) {
		if s.Err != nil {
			all = false
			slog.Warn("journal: a paid image kept on disk could not be put in the gallery", "job", info.ID, "err", s.Err)
			continue
		}
		kept = append(kept, s.Item)
	}
	return kept, all
}

// adoptUnsaved saves the fallback files of a job into the gallery, and
// removes them once every one is in; otherwise they stay, and are named.
func (j Journal) adoptUnsaved(ctx context.Context, info jobs.Info) (kept []int64, left []string) {
	images := make([]api.Image, 0, len(info.KeptAt))
	for _, p := range info.KeptAt {
		img, err := library.ReadImage(p)
		if err != nil {
			return nil, info.KeptAt
		}
		images = append(images, img)
	}
	kept, all := j.adopt(ctx, info, images)
	if !all {
		return kept, info.KeptAt
	}
	for _, p := range info.KeptAt {
		_ = os.Remove(p)
	}
	return kept, nil
}

// KeepUnsaved implements jobs.UnsavedKeeper: the bytes go to the first
// fallback folder that takes them.
func (s Library) KeepUnsaved(img api.Image, job string, n int) (string, error) {
	return s.Lib.Aside().KeepUnsaved(img.Data, img.Format, job, n)
}

// CanSave implements jobs.SpaceChecker: whether n images of size can be
// kept now, estimated as the library does.
func (s Library) CanSave(n int, size string) error {
	return s.Lib.CanSave(n, library.EstimateBytes(size))
}
