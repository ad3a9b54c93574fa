package generate

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"easel/internal/api"
	"easel/internal/config"
	"easel/internal/honesty"
	"easel/internal/library"
	"easel/ui/jobview"
	"easel/ui/room/roomtest"
)

// newGenerate opens the tab on the demo service.
func newGenerate(t *testing.T) (*Room, *roomtest.Host) {
	h := roomtest.New(t)
	r := New(h, h.Batches())
	h.Show(r.Build)
	return r, h
}

// onlyCard is the tab's one job card, nil before there is one.
func onlyCard(r *Room) *jobview.Card {
	if cards := r.Jobs().Cards(); len(cards) > 0 {
		return cards[0]
	}
	return nil
}

// sendAtSize sends a prompt at size, on the UI goroutine.
func sendAtSize(r *Room, size string) {
	o := r.Options().Options()
	o.Size = size
	r.Options().SetOptions(o)
	r.Prompt().SetText("x")
	r.PrimaryAction()
}

// Ctrl+Enter's action sends the prompt; the picture is in the gallery
// and its card says Done without a Cancel.
func TestGenerateSavesToLibraryAndShowsACard(t *testing.T) {
	r, h := newGenerate(t)
	h.UI(func() {
		test.Type(r.Prompt(), "a lighthouse")
		r.PrimaryAction()
	})
	h.Until("a finished card", func() bool {
		c := onlyCard(r)
		return c != nil && strings.HasPrefix(c.Status.Text, "Done")
	})
	n, err := h.Library().Count(context.Background(), library.Query{Search: "lighthouse"})
	if err != nil || n != 1 {
		t.Errorf("the gallery holds %d matching images (%v), want 1", n, err)
	}
	h.UI(func() {
		if onlyCard(r).CanCancel() {
			t.Error("a finished job still offers Cancel")
		}
	})
	h.Wait()
}

// A size the service cannot make is refused before sending, with the
// nearest it can.
func TestGenerateChecksBeforeSending(t *testing.T) {
	r, h := newGenerate(t)
	h.UI(func() {
		sendAtSize(r, "1000x1000")
		if r.Jobs().Len() != 0 {
			t.Error("a job started with an invalid size")
		}
		if s := r.StatusText(); !strings.Contains(s, "multiples of 16") || !strings.Contains(s, "1008x1008") {
			t.Errorf("status %q", s)
		}
	})
}

// A size refused before sending is not said after the size changes.
func TestARefusedSizeIsForgottenWhenTheSizeChanges(t *testing.T) {
	r, h := newGenerate(t)
	h.UI(func() {
		sendAtSize(r, "1000x1000")
		if s := r.StatusText(); !strings.Contains(s, "1008x1008") {
			t.Fatalf("status %q", s)
		}
		o := r.Options().Options()
		o.Size = "1024x1024"
		r.Options().SetOptions(o)
		if s := r.StatusText(); strings.Contains(s, "1008x1008") {
			t.Errorf("the old refusal stays: %q", s)
		}
	})
}

// The form says under it what the connected service was seen not to do
// for the model and options chosen (what Easel learnt of it), and
// nothing once the options ask nothing it refuses.
func TestTheFormSaysWhatTheServiceWillNotDo(t *testing.T) {
	r, h := newGenerate(t)
	var id string
	h.UI(func() { id = h.Session().Current().ID })
	if err := h.Memory().Learn(context.Background(), library.KeyFor(id, "", "gpt-image-1", false), []honesty.Check{
		{Trait: honesty.Stream, Asked: "stream", Got: "json"}, {Trait: honesty.Count, Asked: "4", Got: "1"}}, time.Now()); err != nil {
		t.Fatal(err)
	}
	form := r.Options()
	h.UI(func() { form.Model.Entry.SetText("gpt-image-1-mini"); form.Model.Entry.SetText("gpt-image-1") })
	h.Until("the note", func() bool { return strings.Contains(form.ServiceNotes(), "No previews") })
	h.UI(func() {
		if strings.Contains(form.ServiceNotes(), "one image per request") {
			t.Errorf("one image asked, yet the form says %q", form.ServiceNotes())
		}
		o := form.Options()
		o.N, o.Stream = 3, true
		form.SetOptions(o)
	})
	h.Until("the note on n", func() bool { return strings.Contains(form.ServiceNotes(), "one image per request") })
	h.UI(func() {
		o := form.Options()
		o.N, o.Stream = 1, false
		form.SetOptions(o)
	})
	h.Until("no note", func() bool { return form.ServiceNotes() == "" })
	h.Wait()
}

// Beside Generate, what the request will cost at list prices, updated as
// the options change; a model without a price says so.
func TestGenerateSaysWhatItWillCost(t *testing.T) {
	h := roomtest.NewWith(t, roomtest.Options{Profile: &config.Profile{ID: "p-priced", Name: "Priced"}})
	r := New(h, h.Batches())
	h.Show(r.Build)
	form := r.Options()
	set := func(change func(*api.ImageOptions)) (estimate string) {
		h.UI(func() {
			o := form.Options()
			change(&o)
			form.SetOptions(o)
			estimate = r.Estimate()
		})
		return estimate
	}
	h.UI(func() { form.Model.Entry.SetText("gpt-image-1") })
	if got := set(func(o *api.ImageOptions) { o.N, o.Quality, o.Size = 4, "high", "1024x1024" }); got != "≈ $0.67 for 4 images" {
		t.Errorf("four high squares: %q", got)
	}
	if got := set(func(o *api.ImageOptions) { o.Quality = "auto" }); !strings.HasPrefix(got, "$0.04–$0.67 for 4 images") {
		t.Errorf("auto quality: %q", got)
	}
	// Token rates without the tokens a picture takes (#57): the rate.
	h.UI(func() { form.Model.Entry.SetText("gpt-image-2") })
	if got := set(func(*api.ImageOptions) {}); !strings.HasPrefix(got, "billed by usage at $") || !strings.Contains(got, "per million output tokens") {
		t.Errorf("a model billed by usage: %q", got)
	}
	h.UI(func() { form.Model.Entry.SetText("gpt-image-9") })
	if got := set(func(*api.ImageOptions) {}); got != "no price set for gpt-image-9" {
		t.Errorf("an unpriced model: %q", got)
	}
}

// The demo service stands for a real one: its estimate is at the list
// prices, as its usage is.
func TestTheDemoEstimatesAtListPrices(t *testing.T) {
	r, h := newGenerate(t)
	var got string
	h.UI(func() {
		form := r.Options()
		form.Model.Entry.SetText("gpt-image-1")
		o := form.Options()
		o.N, o.Quality, o.Size = 1, "low", "1024x1024"
		form.SetOptions(o)
		got = r.Estimate()
	})
	if got != "≈ $0.01 for 1 image" {
		t.Errorf("the demo's estimate: %q", got)
	}
}
