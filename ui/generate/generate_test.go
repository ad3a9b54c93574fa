package generate

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

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
