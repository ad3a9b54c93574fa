package chatreply

import (
	"context"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/conversations"
	"easel/internal/demoservice"
	"easel/internal/library"
)

// setup is a conversation asking model one question, its store, a
// client of the demo service, and the library holding the ledger.
func setup(t *testing.T, model string) (*conversations.Store, *api.Client, *library.Library, Request) {
	t.Helper()
	srv := httptest.NewServer(demoservice.New(demoservice.Config{Pace: 2 * time.Millisecond}))
	t.Cleanup(srv.Close)
	lib, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	ctx := context.Background()
	store, err := conversations.Open(ctx, lib)
	if err != nil {
		t.Fatal(err)
	}
	conv, err := store.Create(ctx, conversations.Conversation{Title: "t", Model: model})
	if err != nil {
		t.Fatal(err)
	}
	q, err := store.AddUser(ctx, conv, 0, "a palette for a spring poster, in a few words please", nil)
	if err != nil {
		t.Fatal(err)
	}
	client := api.New(api.Config{BaseURL: srv.URL + "/v1"})
	return store, client, lib, Request{Conv: conv, Parent: q, Profile: "demo"}
}

// recorder keeps what the listener heard.
type recorder struct {
	mu      sync.Mutex
	started int64
	frames  []string
	charged int
}

func (r *recorder) listener() Listener {
	return Listener{
		Started: func(reply int64, _ string, _ []conversations.Message) { r.mu.Lock(); r.started = reply; r.mu.Unlock() },
		Frame:   func(text, _ string) { r.mu.Lock(); r.frames = append(r.frames, text); r.mu.Unlock() },
		Charged: func() { r.mu.Lock(); r.charged++; r.mu.Unlock() },
	}
}

// A reply streams in frames, each written before it is told, ends Done,
// is kept whole, and is written in the ledger once.
func TestAReplyIsKeptAndCharged(t *testing.T) {
	store, client, lib, r := setup(t, "gpt-4o-mini")
	var rec recorder
	res, err := Run(context.Background(), store, client, LedgerOf(lib.Ledger()), r, func() bool { return false }, rec.listener())
	if err != nil || res.KeepErr != nil {
		t.Fatal(err, res.KeepErr)
	}
	if res.End.State != conversations.Done || res.End.Content == "" || rec.started != res.Reply {
		t.Fatalf("ended %s with %q; started %d, reply %d", res.End.State, res.End.Content, rec.started, res.Reply)
	}
	path, _ := store.Path(context.Background(), r.Conv)
	if last := path[len(path)-1]; last.ID != res.Reply || last.Content != res.End.Content || last.State != conversations.Done {
		t.Errorf("the conversation keeps %+v", last)
	}
	entries, _ := lib.Ledger().Entries(context.Background(), time.Time{})
	if rec.charged != 1 || len(entries) != 1 {
		t.Errorf("charged %d times, %d ledger entries; want one", rec.charged, len(entries))
	}
}

// A stream cut after text has come ends Cut, keeps that text and its
// failure by a stable code, and is charged as failed; a failure before
// any text ends Failed and is not charged.
func TestCutAndFailedRepliesAreKeptApart(t *testing.T) {
	store, client, lib, r := setup(t, "fault-"+demoservice.FaultStreamError)
	var rec recorder
	res, err := Run(context.Background(), store, client, LedgerOf(lib.Ledger()), r, func() bool { return false }, rec.listener())
	if err != nil {
		t.Fatal(err)
	}
	if res.End.State != conversations.Cut || res.End.Content == "" || res.End.ErrorKind == "" || res.End.ErrorText == "" {
		t.Errorf("a stream error after text: %+v", res.End)
	}
	if k, ok := api.KindOf(res.End.ErrorKind); !ok || k.Code() != res.End.ErrorKind {
		t.Errorf("the kind is kept as %q, not a code", res.End.ErrorKind)
	}
	store2, client2, lib2, r2 := setup(t, "fault-"+demoservice.FaultNoBalance)
	var rec2 recorder
	res2, err := Run(context.Background(), store2, client2, LedgerOf(lib2.Ledger()), r2, func() bool { return false }, rec2.listener())
	if err != nil {
		t.Fatal(err)
	}
	if res2.End.State != conversations.Failed || res2.End.ErrorKind != api.KindInsufficientBalance.Code() || rec2.charged != 0 {
		t.Errorf("a refusal: %+v, charged %d", res2.End, rec2.charged)
	}
}

// A reply the user stops ends Stopped, keeping what had come.
func TestAStoppedReplyKeepsItsText(t *testing.T) {
	store, client, lib, r := setup(t, "gpt-4o-mini")
	ctx, cancel := context.WithCancel(context.Background())
	var stopped bool
	var mu sync.Mutex
	l := Listener{Frame: func(string, string) {
		mu.Lock()
		defer mu.Unlock()
		if !stopped {
			stopped = true
			cancel()
		}
	}}
	res, err := Run(ctx, store, client, LedgerOf(lib.Ledger()), r, func() bool { mu.Lock(); defer mu.Unlock(); return stopped }, l)
	if err != nil {
		t.Fatal(err)
	}
	if res.End.State != conversations.Stopped || res.End.Content == "" {
		t.Errorf("stopped after the first frame: %+v", res.End)
	}
}
