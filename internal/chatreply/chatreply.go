// Package chatreply runs one chat reply from the request to the row kept:
// the branch read and sent, the reply's row started, what arrives
// written to the conversation a frame at a time, how it ended (done,
// stopped, cut, failed) and why, the ledger's entry when it may have been
// billed, and the row finished. It is Chat's counterpart of jobs for
// images: the window only hears of it (Listener) and draws; the whole
// life is here, tested without a window.
package chatreply

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"time"

	"easel/internal/api"
	"easel/internal/conversations"
	"easel/internal/library"
	"easel/internal/pricing"
	"easel/internal/spend"
)

// FrameInterval is how often a streaming reply is written and shown:
// twenty times a second.
const FrameInterval = 50 * time.Millisecond

// Request is the reply to ask for: in conversation Conv, answering
// message Parent (a regenerated reply answers its question again).
type Request struct {
	Conv, Parent int64
	// Bare sends only the model and the last question, as the spec
	// advises after a failure; NoImages sends the question without its
	// images (for a model that takes none).
	Bare, NoImages bool
	// Profile, Group and Prices are the account asked, the group of
	// the key it went on ("" its own) and its prices, as they were when
	// the reply was asked for: what the ledger records.
	Profile, Group string
	Prices         pricing.Table
}

// Listener hears the reply's life. Its functions run on the reply's own
// goroutines; the window hands them to the UI goroutine. Each may be nil.
type Listener struct {
	// Started: the reply's row exists; history is the branch as sent.
	Started func(reply int64, model string, history []conversations.Message)
	// Frame: the text so far, written to the conversation before it is
	// told, so the window never shows what the database does not hold.
	Frame func(text, reasoning string)
	// Charged: a ledger entry was written.
	Charged func()
}

// Result is how the reply ended, and whether keeping its end failed.
type Result struct {
	Reply   int64
	End     conversations.Ending
	KeepErr error
}

// Store is what a reply reads and writes of its conversation: the
// conversation and its branch, the request they make, and the reply's
// row as it streams (conversations.Store is one).
type Store interface {
	Get(ctx context.Context, id int64) (conversations.Conversation, error)
	Path(ctx context.Context, conv int64) ([]conversations.Message, error)
	Request(c conversations.Conversation, path []conversations.Message, bare bool) (api.ChatRequest, error)
	StartReply(ctx context.Context, conv, parent int64, model string) (int64, error)
	Stream(ctx context.Context, id int64, content, reasoning string) error
	Finish(ctx context.Context, id int64, e conversations.Ending) error
}

// Ledger is where a reply that may have been billed is written
// (spend.Ledger is one).
type Ledger interface {
	ChatRequest(ctx context.Context, t pricing.Table, profile, group string, req api.ChatRequest, usage *api.Usage, outcome string) (spend.Charged, error)
}

// LedgerOf is the ledger that books keeps, nil without a gallery (no
// ledger then).
func LedgerOf(books *library.Ledger) Ledger {
	if books == nil {
		return nil
	}
	return spend.Ledger{Books: books}
}

// Run asks client for the reply and keeps it in store, what it may have
// cost in ledger (nil: no ledger). stopped says whether the user stopped
// it (the context is then cancelled too): a stopped reply keeps its text
// as Stopped, not Failed. The error is a failure before anything was sent (the branch
// could not be read, the row not started); then there is no Result.
func Run(ctx context.Context, store Store, client *api.Client, ledger Ledger, r Request, stopped func() bool, l Listener) (Result, error) {
	bg := context.Background()
	c, err := store.Get(bg, r.Conv)
	if err != nil {
		return Result{}, err
	}
	path, err := store.Path(bg, r.Conv)
	if err != nil {
		return Result{}, err
	}
	// The branch up to the message answered: a regenerated reply's
	// predecessors, not the reply it replaces.
	for i, m := range path {
		if m.ID == r.Parent {
			path = path[:i+1]
			break
		}
	}
	req, err := store.Request(c, path, r.Bare)
	if err != nil {
		return Result{}, err
	}
	if r.NoImages && len(req.Messages) > 0 {
		req.Messages[len(req.Messages)-1].Images = nil
	}
	reply, err := store.StartReply(bg, r.Conv, r.Parent, c.Model)
	if err != nil {
		return Result{}, err
	}
	if l.Started != nil {
		l.Started(reply, c.Model, path)
	}

	var mu sync.Mutex
	var text, reasoning strings.Builder
	req.OnReasoning = func(d string) {
		mu.Lock()
		reasoning.WriteString(d)
		mu.Unlock()
	}
	done := make(chan struct{})
	var flushed sync.WaitGroup
	flushed.Add(1)
	go func() {
		defer flushed.Done()
		tick := time.NewTicker(FrameInterval)
		defer tick.Stop()
		var shownText, shownReasoning string
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			mu.Lock()
			t, rs := text.String(), reasoning.String()
			mu.Unlock()
			if t == shownText && rs == shownReasoning {
				continue
			}
			if err := store.Stream(bg, reply, t, rs); err != nil {
				continue // said at the end, with the reason
			}
			shownText, shownReasoning = t, rs
			if l.Frame != nil {
				l.Frame(t, rs)
			}
		}
	}()
	res, err := client.Chat(ctx, req, func(d string) {
		mu.Lock()
		text.WriteString(d)
		mu.Unlock()
	})
	close(done)
	flushed.Wait()

	mu.Lock()
	end := conversations.Ending{State: conversations.Done, Content: text.String(), Reasoning: reasoning.String()}
	mu.Unlock()
	if res != nil {
		end.Usage, end.Model = res.Usage, res.Model
		if res.Content != "" {
			end.Content = res.Content
		}
		if res.Reasoning != "" {
			end.Reasoning = res.Reasoning
		}
	}
	end.State, end.ErrorText, end.ErrorKind = ending(err, stopped() || errors.Is(ctx.Err(), context.Canceled), end.Content != "")
	logEnding(r.Profile, c.Model, end.State, err)
	if charge(ledger, r, req, end) && l.Charged != nil {
		l.Charged()
	}
	return Result{Reply: reply, End: end, KeepErr: store.Finish(bg, reply, end)}, nil
}

// ending is how a reply ended: done, stopped by the user, cut (text had
// come), or failed; a failure is kept with api.Error's words and its
// kind's stable code (the language may change before it is read again).
func ending(err error, stopped, someText bool) (state conversations.State, text, kind string) {
	switch {
	case err == nil:
		return conversations.Done, "", ""
	case stopped:
		return conversations.Stopped, "", ""
	}
	state = conversations.Failed
	if someText {
		state = conversations.Cut
	}
	var ae *api.Error
	if errors.As(err, &ae) {
		return state, ae.Text(), ae.Kind.Code()
	}
	return state, err.Error(), ""
}

// charge writes the reply in the ledger when it may have been billed: it
// came, whole or cut, or text had arrived before it was stopped. It
// reports whether an entry was written.
func charge(ledger Ledger, r Request, req api.ChatRequest, end conversations.Ending) bool {
	outcome := library.Billed
	switch {
	case end.State == conversations.Stopped && end.Content != "":
		outcome = library.Cancelled
	case end.State == conversations.Cut:
		outcome = library.Failed
	case end.State != conversations.Done:
		return false
	}
	if ledger == nil {
		return false
	}
	// A ledger that cannot be written costs the entry, not the reply.
	_, err := ledger.ChatRequest(context.Background(), r.Prices, r.Profile, r.Group, req, end.Usage, outcome)
	return err == nil
}

// logEnding logs a reply that failed or was cut (LogFailure).
func logEnding(profile, model string, state conversations.State, err error) {
	if state == conversations.Failed || state == conversations.Cut {
		LogFailure(profile, model, err)
	}
}

// LogFailure writes a chat request that failed in the log, as the runner
// writes an image request's: one warn line with the service's status,
// request id and words (the log redacts the key), so "send me your log"
// after a failed reply has something to send. The window's replies and
// `easel chat` both end here.
func LogFailure(profile, model string, err error) {
	attrs := []any{"profile", profile, "endpoint", "chat/completions", "model", model}
	var e *api.Error
	if errors.As(err, &e) {
		attrs = append(attrs, "kind", e.Kind.String(), "status", e.Status, "request_id", e.RequestID, "message", e.Message)
	} else if err != nil {
		attrs = append(attrs, "err", err)
	}
	slog.Warn("chat failed", attrs...)
}
