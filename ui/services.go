package ui

import (
	"context"
	"os"
	"time"

	"easel/internal/api"
	"easel/internal/jobs"
	"easel/internal/library"
)

// services are the non-drawing parts the window uses: the service client,
// the job runner and the gallery's library. Each may be missing (no
// account yet, a library folder that cannot be opened); the tabs say so.
type services struct {
	client  *api.Client
	runner  *jobs.Runner
	lib     *library.Library
	libErr  error
	profile string
}

// openLibrary opens the gallery in its folder.
func openLibrary() (*library.Library, error) {
	dir, err := library.Dir()
	if err != nil {
		return nil, err
	}
	return library.Open(dir)
}

// clientFor picks the service: the demo's base URL, or the environment's
// OPENAI_BASE_URL / OPENAI_API_KEY. Profiles from Settings replace the
// second once they land.
func clientFor(opts Options) (*api.Client, string) {
	if opts.BaseURL != "" {
		return api.New(api.Config{BaseURL: opts.BaseURL}), "demo"
	}
	if os.Getenv("OPENAI_API_KEY") != "" || os.Getenv("OPENAI_BASE_URL") != "" {
		return api.New(api.ConfigFromEnv()), "environment"
	}
	return nil, ""
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
