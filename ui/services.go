package ui

import (
	"context"
	"time"

	"easel/internal/api"
	"easel/internal/jobs"
	"easel/internal/library"
)

// services are the non-drawing parts the window uses: the job runner and
// the gallery's library. Both are missing when the library folder cannot
// be opened; the tabs say so.
type services struct {
	runner *jobs.Runner
	lib    *library.Library
	libErr error
}

// openLibrary opens the gallery in its folder.
func openLibrary() (*library.Library, error) {
	dir, err := library.Dir()
	if err != nil {
		return nil, err
	}
	return library.Open(dir)
}

// librarySaver stores a job's images in the library and makes their
// thumbnails, so the gallery can show them at once.
type librarySaver struct {
	lib *library.Library
}

// Save implements jobs.Saver.
func (s librarySaver) Save(ctx context.Context, job jobs.Info, res *api.ImageResult) ([]int64, error) {
	kind, prompt, params := "generate", "", library.Params{}
	if g := job.Request.Generate; g != nil {
		prompt, params.ImageOptions = g.Prompt, g.ImageOptions
	} else if e := job.Request.Edit; e != nil {
		kind, prompt, params.ImageOptions = "edit", e.Prompt, e.ImageOptions
		params.InputFidelity, params.HasMask = e.InputFidelity, e.Mask != nil
	}
	var ids []int64
	for _, img := range res.Images {
		id, err := s.lib.Add(ctx, library.NewItem{Image: img, Kind: kind, Prompt: prompt, Model: params.Model,
			Profile: job.Request.Profile, Params: params, Usage: res.Usage, Created: res.Created,
			Duration: time.Since(job.Started), JobID: job.ID, RequestID: res.RequestID, Parents: job.Request.Parents})
		if err != nil {
			return ids, err
		}
		ids = append(ids, id)
		if it, err := s.lib.Get(ctx, id); err == nil {
			_, _ = s.lib.Thumbnail(it) // made now, off the UI goroutine
		}
	}
	return ids, nil
}
