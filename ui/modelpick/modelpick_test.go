package modelpick

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
)

func TestATypedModelOfANewFamilyGoesWithoutAsking(t *testing.T) {
	now = func() time.Time { return time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC) }
	t.Cleanup(func() { now = time.Now })
	a := test.NewTempApp(t)
	win := a.NewWindow("")
	r := NewRegistry(nil)
	p := r.New(api.EndpointImages, "", "gpt-image-1")
	r.Show([]api.Model{{ID: "gpt-image-1", EndpointTypes: []string{api.EndpointImages}}, {ID: "gpt-image-2.6-flare", EndpointTypes: []string{api.EndpointImages}}}, nil)

	p.SetText("gpt-image-2.5-sunburst") // served, not listed yet
	if p.note.Importance != widget.WarningImportance || !strings.Contains(p.Note(), "gpt-image-2.5") {
		t.Errorf("note %q (%v)", p.Note(), p.note.Importance)
	}
	sent := false
	Confirm(win, p, func() { sent = true })
	if !sent {
		t.Error("a model of a known family was held for a dialog")
	}

	for _, asked := range []string{"gpt-imgae-1", "GPT-Image-2.5-Sunburst", "gpt-image-1-mini"} {
		// a typo; a new id written as the provider never writes it; an
		// old model this service does not list
		p.SetText(asked)
		sent = false
		Confirm(win, p, func() { sent = true })
		if sent {
			t.Errorf("%s was sent without asking", asked)
		}
	}
	p.SetText("gpt-imgae-1") // a typo: no family, not listed
	if p.note.Importance != widget.DangerImportance || !strings.Contains(p.Note(), "gpt-image-1") {
		t.Errorf("typo note %q (%v)", p.Note(), p.note.Importance)
	}
	sent = false
	Confirm(win, p, func() { sent = true })
	if sent {
		t.Error("a typo was sent without asking")
	}
}

func TestModelsThatAnsweredAreOfferedAgain(t *testing.T) {
	test.NewTempApp(t)
	r := NewRegistry(nil)
	p := r.New(api.EndpointImages, "", "")
	r.Show(api.WithServed([]api.Model{{ID: "gpt-image-1", EndpointTypes: []string{api.EndpointImages}}}, []string{"acme-paint-9"}), nil)
	p.SetText("acme-paint-9")
	if p.Note() != "" {
		t.Errorf("a model that answered before is flagged: %q", p.Note())
	}
	if !strings.Contains(strings.Join(p.Listed(), ","), "acme-paint-9") {
		t.Errorf("listed %v", p.Listed())
	}
}
