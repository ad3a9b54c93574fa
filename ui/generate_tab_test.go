package ui

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/demoservice"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/ui/batches"
	"easel/ui/generate"
	"easel/ui/jobview"
	"easel/ui/room"
	"easel/ui/room/roomtest"
	"easel/ui/widgets/choice"
	"easel/ui/widgets/reorder"
)

func newServedApp(t testing.TB) *App {
	t.Helper()
	t.Setenv("EASEL_HOME", t.TempDir())
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	ts := httptest.NewServer(demoservice.New(demoservice.Config{}))
	t.Cleanup(ts.Close)
	ea := newApp(t, test.NewTempApp(t), isolated(t, Options{BaseURL: ts.URL + "/v1"}))
	onUI(ea, func() { ea.SelectTab(TabGenerate) })
	// Let the model list arrive, so no update is in flight when the test
	// starts driving the widgets.
	waitFor(t, ea, "the model list", func() bool { return len(ea.generate.Options().Model.Listed()) > 0 })
	return ea
}

func onlyCard(g *generate.Room) *jobview.Card {
	if cards := g.Jobs().Cards(); len(cards) > 0 {
		return cards[0]
	}
	return nil
}

func TestNoServiceOffersTheDemo(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	ea, _ := newTestApp(t)
	ea.SelectTab(TabGenerate)
	if !ea.generate.Button().Disabled() || !strings.Contains(ea.generate.StatusText(), "demo") {
		t.Errorf("no-service state: disabled=%v %q", ea.generate.Button().Disabled(), ea.generate.StatusText())
	}
	ea.SelectTab(TabEdit)
	if !ea.edit.Button().Disabled() {
		t.Error("Send edit enabled with no service")
	}
	ea.session.UseDemo()
	if ea.generate.Button().Disabled() || !strings.Contains(ea.win.Title(), "Demo") {
		t.Errorf("the demo service did not enable Generate (title %q)", ea.win.Title())
	}
	if ea.edit.Button().Disabled() {
		t.Error("the demo service did not enable Send edit")
	}
}

func TestSendToEditKeepsOrderAndLineage(t *testing.T) {
	ea := newServedApp(t)
	test.Type(ea.generate.Prompt(), "first")
	ea.generate.PrimaryAction()
	waitImages(t, ea, "first", 1)
	onUI(ea, func() { ea.generate.Prompt().SetText("second"); ea.generate.PrimaryAction() })
	waitImages(t, ea, "second", 1)
	ctx := context.Background()
	items, _ := ea.lib.List(ctx, library.Query{})
	if len(items) != 2 {
		t.Fatalf("%d items", len(items))
	}
	first, second := items[1], items[0] // newest first
	actions := ea.actions
	actions.SendToEdit(second)
	waitFor(t, ea, "the first input", func() bool { return len(ea.edit.Inputs()) == 1 })
	actions.SendToEdit(first)
	waitFor(t, ea, "the second input", func() bool { return len(ea.edit.Inputs()) == 2 })
	e := ea.edit
	if ea.CurrentTab() != TabEdit || e.Inputs()[0].Item != second.ID {
		t.Fatalf("inputs %v", e.Inputs())
	}
	onUI(ea, func() { gripKey(ea, 0, fyne.KeyRight) }) // now first, second
	if e.Inputs()[0].Item != first.ID {
		t.Fatal("move did not reorder")
	}
	onUI(ea, func() { e.Prompt().SetText("put the second on the first"); e.PrimaryAction() })
	waitImages(t, ea, "put", 1)
	res, _ := ea.lib.List(ctx, library.Query{Search: "put"})
	if len(res) != 1 || res[0].Kind != "edit" {
		t.Fatalf("edit results %v (status %q)", res, e.StatusText())
	}
	it, _ := ea.lib.Get(ctx, res[0].ID)
	if len(it.Parents) != 2 || it.Parents[0] != first.ID || it.Parents[1] != second.ID {
		t.Errorf("lineage %v, want [%d %d]", it.Parents, first.ID, second.ID)
	}
	onUI(ea, func() { gripKey(ea, 0, fyne.KeyDelete) })
	if len(e.Inputs()) != 1 || e.Inputs()[0].Item != second.ID {
		t.Errorf("remove left %v", e.Inputs())
	}
}

func TestClosingWhileJobsRunAsksFirstAndKeepsRunningByDefault(t *testing.T) {
	ea := newServedApp(t)
	req := api.GenerateRequest{Prompt: "slow", ImageOptions: api.ImageOptions{Model: "fault-" + demoservice.FaultSlowFirstByte, Size: "1024x1024"}}
	id, err := ea.runner.Submit(asGenerate(ea, jobs.Request{Profile: "p", Service: ea.session.Client(), Generate: &req}))
	if err != nil {
		t.Fatal(err)
	}
	onUI(ea, func() {
		ea.feed.confirmClose()
		if ea.win.Canvas().Overlays().Top() == nil {
			t.Fatal("closing with a job running did not ask first")
		}
		if b := findButton(ea.win, "Quit and lose 1 image"); b == nil || b.Importance == widget.HighImportance {
			t.Errorf("the destructive choice is missing or the default: %+v", b)
		}
	})
	// The question follows the jobs: once none runs, nothing would be
	// lost, and the window closes as asked.
	closed := false
	onUI(ea, func() { ea.win.SetOnClosed(func() { closed = true }) })
	ea.runner.Cancel(id)
	ea.runner.Wait()
	waitFor(t, ea, "the question to go and the window to close", func() bool { return ea.feed.question == nil && closed })
}

// A job of four images shows all four on its card, and one opens large
// in the Gallery's details.
func TestAJobOfFourShowsEveryImageAndOpensOne(t *testing.T) {
	ea := newServedApp(t)
	g := ea.generate
	onUI(ea, func() {
		o := g.Options().Options()
		o.N, o.Stream = 4, false
		g.Options().SetOptions(o)
	})
	test.Type(g.Prompt(), "four lighthouses")
	g.PrimaryAction()
	waitImages(t, ea, "lighthouses", 4)
	waitFor(t, ea, "four results on the card", func() bool { c := onlyCard(g); return c != nil && c.Opens() == 4 })
	items, _ := ea.lib.List(context.Background(), library.Query{Search: "lighthouses"})
	if len(items) != 4 {
		t.Fatalf("%d images saved", len(items))
	}
	onUI(ea, func() { onlyCard(g).Open(1) })
	waitFor(t, ea, "the image's details", func() bool { return ea.CurrentTab() == TabGallery && ea.gallery.Opened() != 0 })
	found := false
	for _, it := range items {
		found = found || it.ID == ea.gallery.Opened()
	}
	if !found {
		t.Errorf("opened item %d, not one of the job's", ea.gallery.Opened())
	}
	waitFor(t, ea, "the grid to select the opened image", func() bool { return ea.gallery.Selected() == ea.gallery.Opened() })
}

// Esc and Enter answer a dialog: on the question before quitting, both
// keep the jobs running (Enter takes the safe answer where the other is
// destructive); a dialog of one button closes on either.
func TestEscAndEnterAnswerDialogs(t *testing.T) {
	ea := newServedApp(t)
	req := api.GenerateRequest{Prompt: "slow", ImageOptions: api.ImageOptions{Model: "fault-" + demoservice.FaultSlowFirstByte, Size: "1024x1024"}}
	id, err := ea.runner.Submit(asGenerate(ea, jobs.Request{Profile: "p", Service: ea.session.Client(), Generate: &req}))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { ea.runner.Cancel(id); ea.runner.Wait() }()
	for _, key := range []fyne.KeyName{fyne.KeyEscape, fyne.KeyReturn} {
		onUI(ea, func() {
			ea.feed.confirmClose()
			if ea.win.Canvas().Overlays().Top() == nil {
				t.Fatal("no question")
			}
			ea.win.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: key})
			if ea.win.Canvas().Overlays().Top() != nil || ea.feed.question != nil {
				t.Errorf("%s left the question open", key)
			}
		})
	}
	if ea.runner.Running() != 1 {
		t.Error("a key quit with the job running")
	}
	onUI(ea, func() {
		dialog.ShowInformation("Exported", "done", ea.win)
		ea.win.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyReturn})
		if ea.win.Canvas().Overlays().Top() != nil {
			t.Error("Enter did not close a dialog of one button")
		}
	})
}

// More like this sends the same request again for n more pictures, or an
// edit of the picture, and every result is the original's child.
func TestMoreLikeThisMakesChildren(t *testing.T) {
	ea := newServedApp(t)
	test.Type(ea.generate.Prompt(), "a kite")
	ea.generate.PrimaryAction()
	waitImages(t, ea, "kite", 1)
	ctx := context.Background()
	items, _ := ea.lib.List(ctx, library.Query{Search: "kite"})
	orig := items[0]
	for i, how := range []int{0, 1} {
		onUI(ea, func() {
			ea.actions.MoreLikeThis(orig)
			roomtest.Walk(ea.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
				switch x := o.(type) {
				case *choice.Choice:
					x.SetSelected(variationLabels()[how])
				case *widget.Select:
					x.SetSelected("2") // two of each: enough to count, quick under -race
				}
			})
			if !strings.Contains(topText(ea.win), "$") {
				t.Errorf("no estimate in %q", topText(ea.win))
			}
			findButton(ea.win, "Make them").OnTapped()
		})
		want := 1 + 2*(i+1)
		deadline := time.Now().Add(20 * time.Second)
		for {
			kids, _ := ea.lib.Lineage().Children(ctx, orig.ID)
			if len(kids)+1 >= want {
				break
			}
			if time.Now().After(deadline) {
				var g, e string
				onUI(ea, func() { g, e = ea.generate.StatusText(), ea.edit.StatusText() })
				t.Fatalf("round %d: %d children; generate says %q, edit %q, top %q", i, len(kids), g, e, topText(ea.win))
			}
			time.Sleep(20 * time.Millisecond)
		}
		ea.runner.Wait()
	}
	kids, _ := ea.lib.Lineage().Children(ctx, orig.ID)
	kinds := map[string]int{}
	for _, k := range kids {
		kinds[k.Kind]++
	}
	if kinds["generate"] != 2 || kinds["edit"] != 2 {
		t.Errorf("children by kind %v, want 2 generated and 2 edits", kinds)
	}
}

// "Use as prompt" puts the reply in as plain text, says what it
// replaced, and the prompt's undo brings the old text back.
func TestUseAsPromptReplacesUndoably(t *testing.T) {
	ea := newServedApp(t)
	onUI(ea, func() {
		ea.generate.Prompt().SetText("a lighthouse")
		ea.host.UsePrompt(room.TargetGenerate, "**A kite** over the _sea_")
		if got := ea.generate.Prompt().Text; got != "A kite over the sea" {
			t.Errorf("the prompt holds %q", got)
		}
		if s := ea.generate.StatusText(); !strings.Contains(s, "a lighthouse") {
			t.Errorf("the status says %q", s)
		}
		if !ea.generate.Undo() {
			t.Fatal("no Undo offered")
		}
		if got := ea.generate.Prompt().Text; got != "a lighthouse" {
			t.Errorf("after undo the prompt holds %q", got)
		}
	})
}

// Esc on a question whose buttons are "Send anyway" and "Cancel" is
// Cancel, whichever comes first.
func TestEscIsCancelWhereThereIsOne(t *testing.T) {
	ea := newServedApp(t)
	sent := false
	onUI(ea, func() {
		d := dialog.NewCustomWithoutButtons("Unknown model", widget.NewLabel("?"), ea.win)
		d.SetButtons([]fyne.CanvasObject{&widget.Button{Text: "Send anyway", OnTapped: func() { sent = true; d.Hide() }}, &widget.Button{Text: "Cancel", OnTapped: d.Hide}})
		d.Show()
		ea.win.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
		if sent || ea.win.Canvas().Overlays().Top() != nil {
			t.Errorf("Esc sent %v, dialog still open %v", sent, ea.win.Canvas().Overlays().Top() != nil)
		}
	})
}

// gripKey presses key on the grip of Edit's i-th reference tile, as the
// keyboard does once the grip has the focus.
func gripKey(ea *App, i int, key fyne.KeyName) {
	var grips []*reorder.Handle
	roomtest.Walk(ea.win.Content(), func(o fyne.CanvasObject) {
		if h, ok := o.(*reorder.Handle); ok {
			grips = append(grips, h)
		}
	})
	grips[i].TypedKey(&fyne.KeyEvent{Name: key})
}

// More like this can go the cheaper lane where the service takes
// batches: the n pictures are one batch, and land as the original's
// children at the batch's price.
func TestMoreLikeThisTheCheaperWay(t *testing.T) {
	ea := newServedApp(t)
	test.Type(ea.generate.Prompt(), "a kite")
	ea.generate.PrimaryAction()
	waitImages(t, ea, "kite", 1)
	ctx := context.Background()
	items, _ := ea.lib.List(ctx, library.Query{Search: "kite"})
	orig := items[0]
	var lane *choice.Choice
	onUI(ea, func() {
		ea.actions.MoreLikeThis(orig)
		roomtest.Walk(ea.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
			if x, ok := o.(*choice.Choice); ok && len(x.Options) == 2 {
				lane = x
			}
			if x, ok := o.(*widget.Select); ok {
				x.SetSelected("2")
			}
		})
	})
	deadline := time.Now().Add(20 * time.Second)
	for visible := false; !visible; {
		onUI(ea, func() { visible = lane.Visible() })
		if time.Now().After(deadline) {
			t.Fatal("the cheaper lane was not offered")
		}
		time.Sleep(20 * time.Millisecond)
	}
	onUI(ea, func() {
		lane.SetSelected(batches.Lanes()[1])
		if !strings.Contains(topText(ea.win), "within 24 h through the Batch API") {
			t.Errorf("the estimate does not show both lanes: %q", topText(ea.win))
		}
		findButton(ea.win, "Make them").OnTapped()
	})
	for {
		kids, _ := ea.lib.Lineage().Children(ctx, orig.ID)
		if len(kids) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d children", len(kids))
		}
		time.Sleep(20 * time.Millisecond)
	}
	rows, _ := ea.lib.Ledger().Entries(ctx, time.Time{})
	batch := 0
	for _, r := range rows {
		if strings.Contains(r.Note, "Batch API's price") {
			batch++
		}
	}
	if batch != 2 {
		t.Errorf("%d rows at the batch's price, want 2", batch)
	}
}
