package dialogs

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"easel/internal/config"
	"easel/internal/honesty"
	"easel/internal/library"
	"easel/ui/room/roomtest"
)

// Settings' section on a profile's service says what Easel learnt of
// it, per model, how sure and since when; Forget drops a model's, so
// its next answers teach it afresh.
func TestTheServiceSectionSaysWhatWasLearntAndForgets(t *testing.T) {
	h := roomtest.NewWith(t, roomtest.Options{Profile: &config.Profile{ID: "p-gateway", Name: "Gateway"}})
	var p config.Profile
	h.UI(func() { p = h.Session().Current() })
	ctx := context.Background()
	at := time.Date(2026, 11, 24, 19, 3, 0, 0, time.Local)
	for range 2 {
		if err := h.Memory().Learn(ctx, library.KeyFor(p.ID, "", "gpt-image-1", false), []honesty.Check{{Trait: honesty.Stream, Asked: "stream", Got: "json"}}, at); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.Memory().Learn(ctx, library.KeyFor(p.ID, "", "dall-e-3", false), []honesty.Check{{Trait: honesty.Count, Honoured: true, Asked: "1", Got: "1"}}, at); err != nil {
		t.Fatal(err)
	}
	var l *Learnt
	h.UI(func() { l = newLearnt(h, p) })
	want := "gpt-image-1: ⚠ answers stream requests without streaming (no previews) — seen 2 times, last 24 Nov 19:03"
	h.Until("what was learnt", func() bool { return len(l.Lines) == 2 && l.Lines[1] == want })
	h.UI(func() { test.Tap(l.Forgets["gpt-image-1"]) })
	h.Until("the forgetting", func() bool { return len(l.Lines) == 1 && strings.HasPrefix(l.Lines[0], "dall-e-3:") })
	h.Wait()
}
