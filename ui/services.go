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

// librarySaver stores a job's images in the library, with their prompt
// and settings.
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
	}
	// No thumbnails here: the job ends once its images are saved, so a
	// quit is not held up (the race-built window took over a second for a
	// 1024-pixel one). The card's is made as the Done event is shown
	// (onJobEvent), the gallery's as cells need them.
	return ids, nil
}
