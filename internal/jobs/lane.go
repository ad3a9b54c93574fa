package jobs

import (
	"context"
	"log/slog"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/honesty"
	"easel/internal/library"
)

// A thread's turn can go two ways. Through the Images API it is an edit
// of the picture sent, which every service takes. Through the Responses
// API's image tool the service keeps the conversation: a turn names the
// answer it continues (previous_response_id) and the service edits the
// picture it made, with the turns before it in mind. Easel sends a turn
// the second way unless this key's service is known not to carry it, and
// learns which from the answers: a route that is missing or refuses the
// tool sends the turn through the Images API at once (nothing was made,
// nothing billed); an answer that does not name the turn it continued
// shows a gateway that dropped the id. Until the service has shown it
// keeps what it is given, a turn sends its picture too, so a gateway that
// drops the id still edits the right picture.

// Threads is what the runner reads of the gallery's threads.
type Threads interface {
	// ResponseOf is the Responses API's id of the answer item came from,
	// "" when it came another way.
	ResponseOf(ctx context.Context, item int64) (string, error)
}

// lane chooses how req goes: a turn of a thread through the Responses
// API where nothing known rules it out, anything else unchanged. It adds
// to notes what the card says when the turn goes through the Images API
// because of what the service did before.
func (r *Runner) lane(ctx context.Context, req Request, notes []string) (Request, []string) {
	if req.Edit == nil || req.Continues == 0 || r.threads == nil {
		return req, notes
	}
	kept, known := r.keepsTurns(ctx, req)
	if known && !kept.Honoured {
		req.Way = library.WayImages
		req.WayNote = catalogue.F("Sent through the Images API: %s (learnt %s).", kept.Got, kept.Last.Local().Format(catalogue.T("2 Jan 15:04")))
		return req, append(notes, req.WayNote)
	}
	previous, err := r.threads.ResponseOf(context.WithoutCancel(ctx), req.Continues)
	if err != nil {
		slog.Warn("thread: the answer a turn continues could not be read", "item", req.Continues, "err", err)
	}
	edit := *req.Edit
	edit.Turn = &api.ResponsesTurn{Previous: previous, WithImage: previous != "" && !known}
	req.Edit, req.Way = &edit, library.WayResponses
	return req, notes
}

// keepsTurns is what is known of this key's service and model keeping a
// thread through the Responses API.
func (r *Runner) keepsTurns(ctx context.Context, req Request) (honesty.Known, bool) {
	if r.memory == nil {
		return honesty.Known{}, false
	}
	known, err := r.memory.Known(context.WithoutCancel(ctx), req.ServiceKey())
	if err != nil {
		return honesty.Known{}, false
	}
	for _, k := range known {
		if k.Trait == honesty.Responses {
			return k, true
		}
	}
	return honesty.Known{}, false
}

// sendEdit sends an edit, a turn through the lane chosen for it. A turn
// the Responses API cannot take at all goes again at once through the
// Images API, said on the card and learnt; a turn it answered tells
// whether the service kept the answer it named.
func (r *Runner) sendEdit(ctx context.Context, info *Info, service Service, partial func(api.Partial), notes []string) (*api.ImageResult, error) {
	res, err := service.Edit(ctx, *info.Request.Edit, partial)
	turn := info.Request.Edit.Turn
	if turn == nil {
		return res, err
	}
	if why, refused := api.LaneRefused(err); refused {
		r.learn(ctx, *info, []honesty.Check{{Trait: honesty.Responses, Asked: "responses", Got: why}})
		edit := *info.Request.Edit
		edit.Turn = nil
		info.Request.Edit, info.Request.Way = &edit, library.WayImages
		info.Request.WayNote = catalogue.F("Sent through the Images API: %s.", why)
		r.emit(Event{Job: *info, State: Sending, Notes: append(notes, info.Request.WayNote)})
		return service.Edit(ctx, edit, partial)
	}
	if err != nil || turn.Previous == "" {
		return res, err
	}
	kept := res.Continued == turn.Previous
	check := honesty.Check{Trait: honesty.Responses, Honoured: kept, Asked: turn.Previous, Got: res.Continued}
	if !kept {
		check.Got = catalogue.T("the gateway does not pass previous_response_id on")
		info.Request.WayNote = catalogue.T("This gateway did not pass the earlier answer on (previous_response_id): the picture went with the turn, so it was edited; later turns go through the Images API.")
		if !turn.WithImage {
			info.Request.WayNote = catalogue.T("This gateway did not pass the earlier answer on (previous_response_id): the service made this turn without the picture it continues. Later turns go through the Images API.")
		}
	}
	r.learn(ctx, *info, []honesty.Check{check})
	return res, nil
}
