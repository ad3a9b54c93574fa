package jobview

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2/test"

	"easel/internal/api"
	"easel/internal/jobs"
)

func event(id string, state jobs.State) jobs.Event {
	e := jobs.Event{Job: jobs.Info{ID: id, Request: jobs.Request{Generate: &api.GenerateRequest{Prompt: "p " + id}}}, State: state}
	if state == jobs.Failed {
		e.Err = &api.Error{Kind: api.KindServer, Hint: "try again"}
	}
	return e
}

// Finished cards can be cleared, one or all, and running ones stay.
func TestFinishedCardsCanBeCleared(t *testing.T) {
	test.NewTempApp(t)
	l := NewList("empty", func(string) {})
	l.Show(event("a", jobs.Done), nil)
	l.Show(event("b", jobs.Failed), nil)
	l.Show(event("c", jobs.Waiting), nil)
	l.Show(event("d", jobs.Cancelled), nil)
	if l.Len() != 4 || l.clearAll.Hidden || !l.empty.Hidden {
		t.Fatalf("%d cards, Clear finished hidden %v", l.Len(), l.clearAll.Hidden)
	}
	test.Tap(l.Card("a").clear)
	if l.Card("a") != nil || l.Len() != 3 {
		t.Fatal("Clear on a card did not remove it")
	}
	if l.Card("c").clear.Visible() {
		t.Error("a running job offers Clear")
	}
	test.Tap(l.clearAll)
	if l.Len() != 1 || l.Card("c") == nil {
		t.Fatalf("Clear finished left %d cards", l.Len())
	}
	if !l.clearAll.Hidden {
		t.Error("Clear finished still shown with nothing finished")
	}
	l.Show(event("c", jobs.Done), nil)
	test.Tap(l.clearAll)
	if l.Len() != 0 || l.empty.Hidden {
		t.Error("the empty hint does not come back once every card is cleared")
	}
}

// A long session keeps at most KeepFinished finished cards, the newest,
// so their previews do not pile up; running jobs are never dropped.
func TestALongSessionKeepsABoundedNumberOfCards(t *testing.T) {
	test.NewTempApp(t)
	l := NewList("empty", func(string) {})
	l.Show(event("running", jobs.Waiting), nil)
	for i := 0; i < 3*KeepFinished; i++ {
		id := fmt.Sprint(i)
		l.Show(event(id, jobs.Sending), nil)
		l.Show(event(id, jobs.Done), nil)
	}
	if l.Len() != KeepFinished+1 {
		t.Fatalf("%d cards after %d jobs, want %d", l.Len(), 3*KeepFinished, KeepFinished+1)
	}
	if l.Card("running") == nil || l.Card(fmt.Sprint(3*KeepFinished-1)) == nil || l.Card("0") != nil {
		t.Error("the bound dropped a running job or a new card, or kept the oldest")
	}
	if got := len(l.cards.Objects); got != 2*l.Len() {
		t.Errorf("%d objects laid out for %d cards", got, l.Len())
	}
}
