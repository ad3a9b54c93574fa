package jobview

import (
	"bytes"
	"context"
	"errors"
	"image"

	"easel/internal/catalogue"
	"easel/internal/imageio"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/work"
)

// Listen is a job's listener (jobs.Request.Listener) for whoever sent
// it: each event's pictures are made on the runner's goroutine
// (Prepare), and show puts them on the card on the UI goroutine.
func Listen(w work.Starter, lib *library.Library, show func(e jobs.Event, preview image.Image, results []Result)) func(jobs.Event) {
	return func(e jobs.Event) {
		preview, results := Prepare(w.Context(), lib, e)
		w.Do(func() { show(e, preview, results) })
	}
}

// Prepare makes what a job's card shows of event e, off the UI
// goroutine (the runner's, which calls the job's listener): the preview's
// thumbnail while it is partial, and once it has ended (done, or cut off
// after some images had arrived) its images with their thumbnails, read
// from lib (nil: none).
func Prepare(ctx context.Context, lib *library.Library, e jobs.Event) (preview image.Image, ended []Result) {
	if e.State == jobs.Partial && e.Preview != nil && imageio.Vet(bytes.NewReader(e.Preview.Data)) == nil {
		// A preview the vetter could not draw is skipped: the image
		// itself follows, and is said when it cannot be drawn either.
		preview, _ = library.MakeThumbnailSized(e.Preview.Data, PreviewSide)
	}
	if (e.State == jobs.Done || e.State == jobs.Interrupted) && lib != nil {
		ended = results(ctx, lib, e)
	}
	return preview, ended
}

// results are the images of a job that ended (done, or cut off after
// some had arrived), each with its thumbnail (n is at most 10, and the
// runner keeps no more than were asked for). An edit whose unmasked area
// was kept has two of each: the card names them, and compares the kept
// one with the first input.
func results(ctx context.Context, lib *library.Library, e jobs.Event) []Result {
	var results []Result
	var before image.Image
	for _, id := range e.ItemIDs {
		r := Result{Item: id}
		if it, err := lib.Get(ctx, id); err == nil {
			r.Path = lib.Path(it)
			var undrawable *library.Undrawable
			switch p, err := lib.Thumbnails().Thumbnail(it); {
			case err == nil:
				r.Thumb, _ = imageio.DecodeFileFit(p, PreviewSide)
			case errors.As(err, &undrawable):
				// Kept as it came; the card says why it shows nothing.
				r.Label = err.Error()
			}
			if it.Kind == "kept" && e.Job.Request.Edit != nil && len(e.Job.Request.Edit.Images) > 0 {
				// The user's picture as the runner cut it from the
				// pixels the composite used; decoded here only for an
				// interrupted job's, which has none.
				original := e.BeforeData
				if original == nil {
					original, _ = e.Job.Request.UserPicture()
				}
				switch {
				case before != nil:
				case e.Before != nil:
					before = imageio.Fit(e.Before, PreviewSide)
				default:
					before, _ = library.MakeThumbnailSized(original, PreviewSide)
				}
				r.Label, r.Before = catalogue.T("Unmasked kept"), before
				r.BeforeData = original
			} else if e.Job.Request.Keep != nil {
				r.Label = catalogue.T("As sent")
			}
			if e.Job.Request.Continues != 0 {
				r.Turn = turnSentence(ctx, lib, id)
			}
		}
		results = append(results, r)
	}
	for i := range e.Unsaved {
		u := &e.Unsaved[i]
		// Not in the gallery (its disk refused it), so never drawn by
		// the gallery's child: vetted here before it is drawn.
		var thumb image.Image
		if imageio.Vet(bytes.NewReader(u.Image.Data)) == nil {
			thumb, _ = library.MakeThumbnailSized(u.Image.Data, PreviewSide)
		}
		results = append(results, Result{Thumb: thumb, Unsaved: u})
	}
	return results
}

// turnSentence says where item stands in its thread and what the service
// changed outside the marks to make it; "" for a picture in no thread.
func turnSentence(ctx context.Context, lib *library.Library, item int64) string {
	turns, err := lib.Lineage().Thread(ctx, item)
	if err != nil {
		return ""
	}
	for _, t := range turns {
		if t.Item != item {
			continue
		}
		s := catalogue.F("Turn %d of its thread", t.Number)
		if way := t.WaySaid(); way != "" {
			s += " · " + way
		}
		if t.Drift != nil {
			s += " · " + catalogue.F("the service changed %d %% of the picture outside your marks", t.DriftPercent())
		}
		return s
	}
	return ""
}
