package jobview

import (
	"fmt"
	"image"
	"strings"
	"syscall"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/honesty"
	"easel/internal/jobs"
	"easel/internal/pricing"
	"easel/internal/spend"
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
	l := NewList("empty", Actions{Cancel: func(string) {}})
	l.Show(event("a", jobs.Done), nil, nil)
	l.Show(event("b", jobs.Failed), nil, nil)
	l.Show(event("c", jobs.Waiting), nil, nil)
	l.Show(event("d", jobs.Cancelled), nil, nil)
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
	l.Show(event("c", jobs.Done), nil, nil)
	test.Tap(l.clearAll)
	if l.Len() != 0 || l.empty.Hidden {
		t.Error("the empty hint does not come back once every card is cleared")
	}
}

// A long session keeps at most KeepFinished finished cards, the newest,
// so their previews do not pile up; running jobs are never dropped.
func TestALongSessionKeepsABoundedNumberOfCards(t *testing.T) {
	test.NewTempApp(t)
	l := NewList("empty", Actions{Cancel: func(string) {}})
	l.Show(event("running", jobs.Waiting), nil, nil)
	for i := 0; i < 3*KeepFinished; i++ {
		id := fmt.Sprint(i)
		l.Show(event(id, jobs.Sending), nil, nil)
		l.Show(event(id, jobs.Done), nil, nil)
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

// A finished job of several images shows every one, each opening large;
// a failed job offers Retry with its own request, and Open Settings for a
// failure the profile must fix.
func TestCardsShowEveryResultAndOfferRetry(t *testing.T) {
	test.NewTempApp(t)
	var opened []int64
	var retried []jobs.Request
	settings := 0
	l := NewList("empty", Actions{Cancel: func(string) {}, Open: func(id int64) { opened = append(opened, id) },
		Retry: func(r jobs.Request) { retried = append(retried, r) }, Settings: func() { settings++ }})
	results := []Result{{Item: 11}, {Item: 12}, {Item: 13}, {Item: 14}}
	l.Show(event("four", jobs.Done), nil, results)
	c := l.Card("four")
	if c.Opens() != 4 {
		t.Fatalf("a job of four images shows %d", c.Opens())
	}
	c.Open(2)
	if len(opened) != 1 || opened[0] != 13 {
		t.Errorf("opening the third result opened %v", opened)
	}
	if c.CanRetry() || c.NeedsSettings() {
		t.Error("a finished job offers Retry or Settings")
	}

	server := event("server", jobs.Failed)
	l.Show(server, nil, nil)
	if c := l.Card("server"); !c.CanRetry() || c.NeedsSettings() {
		t.Errorf("a server error: Retry %v, Settings %v", c.CanRetry(), c.NeedsSettings())
	}
	l.Card("server").Retry()
	if len(retried) != 1 || retried[0].Generate.Prompt != "p server" {
		t.Errorf("Retry sent %+v", retried)
	}
	balance := event("balance", jobs.Failed)
	balance.Err = &api.Error{Kind: api.KindInsufficientBalance, Hint: "top up"}
	l.Show(balance, nil, nil)
	if !l.Card("balance").NeedsSettings() {
		t.Error("a balance failure does not offer Settings")
	}
}

// A job whose images arrived but could not all be saved says how many
// were saved and why the others were not, and offers Save as… for each
// of those, with the image as it arrived.
func TestACardKeepsImagesItCouldNotSave(t *testing.T) {
	test.NewTempApp(t)
	var offered []api.Image
	l := NewList("empty", Actions{Cancel: func(string) {}, SaveAs: func(img api.Image, prompt string, n int) {
		offered = append(offered, img)
	}})
	e := event("a", jobs.Done)
	lost := api.Image{Data: []byte("paid-for bytes"), Format: "png"}
	e.ItemIDs = []int64{7}
	e.Unsaved = []jobs.Unsaved{{Image: lost, Err: fmt.Errorf("library: cannot save the image: %w", syscall.ENOSPC)}}
	l.Show(e, nil, []Result{{Item: 7}, {Unsaved: &e.Unsaved[0]}})
	c := l.Card("a")
	if got := c.Status.Text; !strings.Contains(got, "1 of 2 images saved") {
		t.Errorf("status %q", got)
	}
	if got := c.hint.Text; !c.hint.Visible() || !strings.Contains(got, "the disk that holds the gallery is full") || !strings.Contains(got, "Save as") {
		t.Errorf("hint %q (shown %v): want the real cause and Save as", got, c.hint.Visible())
	}
	if c.Opens() != 1 || c.SaveAsOffers() != 1 {
		t.Fatalf("%d results to open and %d to save as, want 1 and 1", c.Opens(), c.SaveAsOffers())
	}
	c.SaveAs(0)
	if len(offered) != 1 || string(offered[0].Data) != "paid-for bytes" {
		t.Errorf("Save as offered %v", offered)
	}
}

// An image the gallery could not take but a fallback folder did is named
// with where its bytes are; a job found at the next start whose answer
// had come and been charged says it was paid and offers to send it again
// only as a new charge, never as a free Retry.
func TestAPaidJobWhoseSaveFailedSaysWhereAndIsNoFreeRetry(t *testing.T) {
	test.NewTempApp(t)
	l := NewList("empty", Actions{Cancel: func(string) {}, SaveAs: func(api.Image, string, int) {}})
	e := event("a", jobs.Done)
	e.Unsaved = []jobs.Unsaved{{Image: api.Image{Data: []byte("paid"), Format: "png"}, Err: fmt.Errorf("library: cannot save the image: %w", syscall.ENOSPC),
		Path: "/tmp/easel-unsaved/job-a-1.png"}}
	l.Show(e, nil, []Result{{Unsaved: &e.Unsaved[0]}})
	if h := l.Card("a").Hint(); !strings.Contains(h, "/tmp/easel-unsaved/job-a-1.png") || !strings.Contains(h, "next start") {
		t.Errorf("hint %q does not say where the bytes are", h)
	}

	for _, c := range []struct {
		name    string
		keptAt  []string
		items   []int64
		status  string
		hintHas string
	}{
		{"b", []string{"/tmp/easel-unsaved/job-b-1.png"}, nil, "Paid · not saved", "/tmp/easel-unsaved/job-b-1.png"},
		{"c", nil, []int64{4}, "Paid · saved at this start", "in the gallery now"},
		{"d", nil, nil, "Paid · not saved", "charged again"},
	} {
		e := event(c.name, jobs.Interrupted)
		e.Job.Answered, e.Job.KeptAt, e.ItemIDs = true, c.keptAt, c.items
		l.Show(e, nil, nil)
		card := l.Card(c.name)
		if card.Status.Text != c.status || !strings.Contains(card.Hint(), c.hintHas) {
			t.Errorf("%s: status %q, hint %q", c.name, card.Status.Text, card.Hint())
		}
		if card.retry.Text != "Send again (charged again)" {
			t.Errorf("%s: the card offers %q", c.name, card.retry.Text)
		}
	}
}

// Images a service sent beyond those asked for are said once on the card.
func TestACardSaysWhatTheServiceSentTooMany(t *testing.T) {
	test.NewTempApp(t)
	l := NewList("empty", Actions{Cancel: func(string) {}})
	e := event("a", jobs.Done)
	e.ItemIDs, e.Dropped = []int64{1}, 199
	l.Show(e, nil, nil)
	if c := l.Card("a"); !c.hint.Visible() || !strings.Contains(c.hint.Text, "199 images more than were asked for") {
		t.Errorf("hint %q (shown %v)", c.hint.Text, c.hint.Visible())
	}
}

// A wait the service asked for reads as a countdown on the card.
func TestACardCountsDownAWait(t *testing.T) {
	test.NewTempApp(t)
	l := NewList("empty", Actions{Cancel: func(string) {}})
	e := event("a", jobs.Waiting)
	e.RetryIn = 12 * time.Second
	l.Show(e, nil, nil)
	if got := l.Card("a").Status.Text; got != "The service asked to wait: sending again in 12s" {
		t.Errorf("status %q", got)
	}
}

// A finished card offers "Edit this result" on its one saved image, and
// of several, an Edit on each (issue 40, item 12).
func TestACardOffersToEditItsResult(t *testing.T) {
	test.NewTempApp(t)
	var edited, more []int64
	l := NewList("empty", Actions{Cancel: func(string) {}, EditThis: func(id int64) { edited = append(edited, id) },
		MoreLike: func(id int64) { more = append(more, id) }})
	e := event("a", jobs.Done)
	e.ItemIDs = []int64{4, 5}
	l.Show(e, nil, []Result{{Item: 4}, {Item: 5}})
	c := l.Card("a")
	if c.CanEditThis() {
		t.Error("of two results, one button says it edits \"this\" one")
	}
	c.EditResult(0)
	c.EditResult(1)
	if len(edited) != 2 || edited[0] != 4 || edited[1] != 5 {
		t.Errorf("edited %v, want [4 5]", edited)
	}
	one := event("one", jobs.Done)
	one.ItemIDs = []int64{7}
	l.Show(one, nil, []Result{{Item: 7}})
	if !l.Card("one").CanEditThis() {
		t.Fatal("no Edit this result on a card of one")
	}
	l.Card("one").EditThis()
	if edited[len(edited)-1] != 7 {
		t.Errorf("edited %v, want 7 last", edited)
	}
	if !c.more.Visible() {
		t.Fatal("no More like this")
	}
	c.more.OnTapped()
	if len(more) != 1 || more[0] != 5 {
		t.Errorf("more like %v, want [5]", more)
	}
	l.Show(event("b", jobs.Failed), nil, nil)
	if l.Card("b").CanEditThis() || l.Card("b").more.Visible() {
		t.Error("a failed card offers Edit this result or More like this")
	}
}

// An edit whose unmasked area was kept shows the kept result large, and
// Before/After flips it with the first input.
func TestAKeptEditComparesBeforeAndAfter(t *testing.T) {
	test.NewTempApp(t)
	l := NewList("empty", Actions{Cancel: func(string) {}})
	raw, kept, first := image.NewGray(image.Rect(0, 0, 2, 2)), image.NewGray(image.Rect(0, 0, 3, 3)), image.NewGray(image.Rect(0, 0, 4, 4))
	l.Show(event("plain", jobs.Done), nil, []Result{{Item: 1, Thumb: raw}})
	if l.Card("plain").CanCompare() {
		t.Error("a result without a kept copy offers Before/After")
	}
	l.Show(event("kept", jobs.Done), nil, []Result{{Item: 2, Thumb: raw, Label: "As sent"}, {Item: 3, Thumb: kept, Label: "Unmasked kept", Before: first}})
	c := l.Card("kept")
	if !c.CanCompare() || c.Opens() != 2 || c.preview.Image() != image.Image(kept) {
		t.Fatalf("compare %v, %d results, preview %v: want the kept result large", c.CanCompare(), c.Opens(), c.preview.Image().Bounds())
	}
	c.ToggleBefore()
	if !c.ShowingBefore() || c.preview.Image() != image.Image(first) || c.compare.Text != "After" {
		t.Error("Before did not show the first input")
	}
	c.ToggleBefore()
	if c.ShowingBefore() || c.preview.Image() != image.Image(kept) {
		t.Error("After did not show the kept result again")
	}
}

// What the service did not do is said on the card: before sending, what
// it is known not to do; when done, what its answer showed.
func TestACardSaysWhatTheServiceDidNotDo(t *testing.T) {
	test.NewTempApp(t)
	l := NewList("empty", Actions{Cancel: func(string) {}})
	e := event("a", jobs.Sending)
	e.Notes = []string{"No previews: this service answered stream requests without streaming (last 24 Nov 19:03), so Easel asks without streaming."}
	l.Show(e, nil, nil)
	c := l.Card("a")
	if !c.Said.Visible() || !strings.Contains(c.Said.Text, "No previews") {
		t.Errorf("before sending: %q (shown %v)", c.Said.Text, c.Said.Visible())
	}
	e = event("a", jobs.Done)
	e.ItemIDs = []int64{1}
	e.Honesty = honesty.Report{Restored: true, Checks: []honesty.Check{
		{Trait: honesty.Count, Asked: "4", Got: "1"},
		{Trait: honesty.Mask, Changed: 0.48},
	}}
	l.Show(e, nil, nil)
	for _, want := range []string{"No previews", "Asked for 4 images, the service sent 1.", "The service changed 48 % of the area your mask protects; Easel restored it."} {
		if !strings.Contains(c.Said.Text, want) {
			t.Errorf("done: %q lacks %q", c.Said.Text, want)
		}
	}
}

// A failure shows Easel's advice, and the service's own words one click
// away, as they came.
func TestAFailureKeepsTheServiceWordsOneClickAway(t *testing.T) {
	test.NewTempApp(t)
	l := NewList("empty", Actions{Cancel: func(string) {}})
	e := event("a", jobs.Failed)
	e.Err = &api.Error{Kind: api.KindInsufficientBalance, Status: 403, Code: "pre_consume_token_quota_failed",
		Message: "token quota is not enough, token remain quota: ＄0.019310", Hint: "This key's own spending limit is used up."}
	l.Show(e, nil, nil)
	c := l.Card("a")
	if words, shown := c.ServiceWords(); shown || !strings.Contains(words, "token quota is not enough") {
		t.Errorf("before the click: %q shown %v", words, shown)
	}
	c.ShowServiceWords()
	if words, shown := c.ServiceWords(); !shown || !strings.Contains(words, "pre_consume_token_quota_failed") {
		t.Errorf("after the click: %q shown %v", words, shown)
	}
}

// A job the last close cut off is listed with its prompt, that it may
// have been charged, and Retry.
func TestAnInterruptedJobOffersRetry(t *testing.T) {
	test.NewTempApp(t)
	var retried []jobs.Request
	l := NewList("empty", Actions{Cancel: func(string) {}, Retry: func(r jobs.Request) { retried = append(retried, r) }})
	e := event("a", jobs.Interrupted)
	e.Job.Started = time.Date(2026, 11, 24, 19, 3, 0, 0, time.Local)
	l.Show(e, nil, nil)
	c := l.Card("a")
	if c.Status.Text != "Interrupted" || !strings.Contains(c.hint.Text, "sent 24 Nov 19:03") || !strings.Contains(c.hint.Text, "charged") || !c.CanRetry() || c.CanCancel() {
		t.Errorf("card: %q / %q, retry %v, cancel %v", c.Status.Text, c.hint.Text, c.CanRetry(), c.CanCancel())
	}
	c.Retry()
	if len(retried) != 1 {
		t.Errorf("retried %v", retried)
	}
}

// A card says what its request cost; one that failed after the service
// began says it may have been charged, and for how much.
func TestACardSaysWhatItCost(t *testing.T) {
	test.NewTempApp(t)
	l := NewList("empty", Actions{Cancel: func(string) {}})
	e := event("a", jobs.Done)
	e.ItemIDs = []int64{1, 2}
	e.Charged = &spend.Charged{Entry: 1, Amount: pricing.Money{Amount: 0.0218, Currency: pricing.USD}, Priced: true}
	l.Show(e, nil, nil)
	if got := l.Card("a").Status.Text; !strings.HasSuffix(got, "2 images in the gallery · $0.02") {
		t.Errorf("done: %q", got)
	}
	f := event("b", jobs.Failed)
	f.Charged = &spend.Charged{Entry: 2, Amount: pricing.Money{Amount: 0.25, Currency: pricing.CNY}, Estimated: true, Priced: true}
	l.Show(f, nil, nil)
	if c := l.Card("b"); !strings.HasSuffix(c.Status.Text, "may have been charged") || !c.Cost.Visible() || !strings.Contains(c.Cost.Text, "¥0.25") {
		t.Errorf("failed after it began: %q / %q", c.Status.Text, c.Cost.Text)
	}
	n := event("c", jobs.Done)
	n.Charged = &spend.Charged{Entry: 3}
	l.Show(n, nil, nil)
	if got := l.Card("c").Status.Text; strings.Contains(got, "·  ") || strings.HasSuffix(got, "· ") {
		t.Errorf("no price set: %q", got)
	}
}

// When a job ends, no other action appears where its Cancel was: a late
// click meant for Cancel must not send the result to Edit.
func TestNothingTakesCancelsPlace(t *testing.T) {
	test.NewTempApp(t)
	l := NewList("empty", Actions{Cancel: func(string) {}, EditThis: func(int64) {}})
	l.Show(event("a", jobs.Waiting), nil, nil)
	c := l.Card("a")
	w := test.NewWindow(c.root)
	defer w.Close()
	w.Resize(fyne.NewSize(700, 300))
	at := c.cancel.Position()
	done := event("a", jobs.Done)
	done.ItemIDs = []int64{7}
	l.Show(done, nil, []Result{{Item: 7}})
	w.Content().Refresh()
	for _, b := range []*widget.Button{c.editThis, c.clear, c.retry, c.compare, c.wordsButton} {
		if b.Visible() && b.Position().X+b.Size().Width > at.X && b.Position().X < at.X+c.cancel.Size().Width {
			t.Errorf("%q appeared where Cancel was", b.Text)
		}
	}
}

// A cancelled job can be run again from its card.
func TestACancelledCardOffersRunAgain(t *testing.T) {
	test.NewTempApp(t)
	var again int
	l := NewList("empty", Actions{Cancel: func(string) {}, Retry: func(jobs.Request) { again++ }})
	l.Show(event("a", jobs.Cancelled), nil, nil)
	c := l.Card("a")
	if !c.retry.Visible() || c.retry.Text != "Run again" {
		t.Fatalf("retry %q shown %v", c.retry.Text, c.retry.Visible())
	}
	test.Tap(c.retry)
	if again != 1 {
		t.Error("Run again did not send the request again")
	}
}

// A streaming job of four images shows four slots, fills each with its
// preview and then its image as they arrive, and says how far it has
// come; when it is done the results take the slots' place and Edit says
// which result it takes.
func TestFourImagesFillTheirSlots(t *testing.T) {
	test.NewTempApp(t)
	l := NewList("empty", Actions{Cancel: func(string) {}, EditThis: func(int64) {}})
	four := func(state jobs.State) jobs.Event {
		e := event("a", state)
		e.Job.Request.Generate.N = 4
		return e
	}
	l.Show(four(jobs.Sending), nil, nil)
	c := l.Card("a")
	if len(c.slots) != 4 || !c.slotRow.Visible() {
		t.Fatalf("%d slots for four images", len(c.slots))
	}
	pic := image.NewRGBA(image.Rect(0, 0, 8, 8))
	e := four(jobs.Partial)
	e.Preview = &api.Partial{Image: 2, Index: 0}
	l.Show(e, pic, nil)
	if !strings.Contains(c.Status.Text, "Image 3 of 4: preview 1") || c.slots[2].Image() == nil || c.slots[1].Image() != nil {
		t.Errorf("a preview of the third: %q", c.Status.Text)
	}
	tick := four(jobs.Waiting)
	tick.Elapsed = 7 * time.Second
	l.Show(tick, nil, nil)
	if !strings.Contains(c.Status.Text, "Image 3 of 4: preview 1") || !strings.Contains(c.Status.Text, "7") {
		t.Errorf("the clock's tick lost the progress: %q", c.Status.Text)
	}
	e.Preview = &api.Partial{Image: 2, Final: true}
	l.Show(e, pic, nil)
	if !strings.Contains(c.Status.Text, "Image 3 of 4 arrived") {
		t.Errorf("the third arrived: %q", c.Status.Text)
	}
	var results []Result
	for i := range 4 {
		results = append(results, Result{Item: int64(i + 1), Thumb: pic})
	}
	done := four(jobs.Done)
	done.ItemIDs = []int64{1, 2, 3, 4}
	l.Show(done, nil, results)
	if c.slotRow.Visible() || c.CanEditThis() || len(c.tileEdits) != 4 {
		t.Errorf("done: slots shown %v, one Edit for all %v, %d Edits on the results", c.slotRow.Visible(), c.CanEditThis(), len(c.tileEdits))
	}
}

// A finished edit whose unmasked area was kept offers Compare…, which
// hands the first input and the kept result's file to be shown large.
func TestKeptEditOffersALargeCompare(t *testing.T) {
	test.NewTempApp(t)
	var before []byte
	var after string
	l := NewList("empty", Actions{Cancel: func(string) {}, Compare: func(b []byte, a string) { before, after = b, a }})
	pic := image.NewRGBA(image.Rect(0, 0, 8, 8))
	l.Show(event("a", jobs.Sending), nil, nil)
	done := event("a", jobs.Done)
	done.ItemIDs = []int64{1, 2}
	l.Show(done, nil, []Result{
		{Item: 1, Thumb: pic, Label: "As sent", Path: "/g/1.png"},
		{Item: 2, Thumb: pic, Label: "Unmasked kept", Before: pic, BeforeData: []byte("first"), Path: "/g/2.png"},
	})
	c := l.Card("a")
	if !c.compareLarge.Visible() {
		t.Fatal("no Compare… on a kept edit")
	}
	test.Tap(c.compareLarge)
	if string(before) != "first" || after != "/g/2.png" {
		t.Errorf("Compare… got %q and %q, want the first input and the kept result", before, after)
	}
	l.Show(event("b", jobs.Sending), nil, nil)
	plain := event("b", jobs.Done)
	plain.ItemIDs = []int64{3}
	l.Show(plain, nil, []Result{{Item: 3, Thumb: pic, Path: "/g/3.png"}})
	if l.Card("b").compareLarge.Visible() {
		t.Error("Compare… on a job with nothing to compare")
	}
}

// Retry sends the job again in its card's place: the failed card gives
// way to the new one, where it was, instead of a second card.
func TestRetryTakesTheFailedCardsPlace(t *testing.T) {
	test.NewTempApp(t)
	var again jobs.Request
	l := NewList("empty", Actions{Cancel: func(string) {}, Retry: func(r jobs.Request) { again = r }})
	l.Show(event("a", jobs.Failed), nil, nil)
	l.Show(event("b", jobs.Done), nil, nil)
	test.Tap(l.Card("a").retry)
	if again.Replaces != "a" {
		t.Fatalf("Retry sent %+v, not marked as replacing a", again)
	}
	e := event("c", jobs.Queued)
	e.Job.Request = again
	l.Show(e, nil, nil)
	if l.Len() != 2 || l.Card("a") != nil {
		t.Fatalf("%d cards after the retry; the failed one still shown: %v", l.Len(), l.Card("a") != nil)
	}
	if l.order[1] != "c" {
		t.Errorf("the retry is at %v, want in the failed card's place (second)", l.order)
	}
}

// Each note on a card is a sentence of its own, ended in its language's
// stop (#57: some came without one).
func TestACardsNotesEndAsSentences(t *testing.T) {
	test.NewTempApp(t)
	c := newCard(event("a", jobs.Done), Actions{}, func() {})
	c.say([]string{"sent through the Images API ", "已完成", "Done?"})
	if got := c.Said.Text; got != "sent through the Images API.\n已完成。\nDone?" {
		t.Errorf("the card says %q", got)
	}
}
