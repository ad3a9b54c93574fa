package promptlib

import (
	"context"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"easel/internal/prompts"
	"easel/ui/room/roomtest"
)

// A prompt kept from a tab is listed, found by a word inside it, and
// used in a tab; a style is added to that tab's prompt, after it.
func TestKeepFindAndUse(t *testing.T) {
	h := roomtest.New(t)
	h.Show(func() fyne.CanvasObject { return widget.NewLabel("window") })
	store := prompts.Open(h.Library())
	if _, err := store.Save(context.Background(), prompts.Entry{Kind: prompts.Style, Name: "Ink", Text: "in sumi ink"}); err != nil {
		t.Fatal(err)
	}
	h.UI(func() { Keep(h, "a lighthouse at dusk", "Text to image", nil) })
	keep, _ := h.Overlay("Keep")
	h.UI(keep.OnTapped)
	h.Until("kept", func() bool {
		got, _ := store.List(context.Background(), prompts.Query{Search: "lighthouse"})
		return len(got) == 1 && got[0].Source == "Text to image"
	})
	prompt := "a fox"
	var used []string
	target := Target{Name: "Text to image", Get: func() string { return prompt }, Set: func(s string) { used = append(used, s) }}
	var v *view
	h.UI(func() {
		Show(h, []Target{target})
		v = shown
	})
	h.Until("two entries", func() bool { return len(v.entries) == 2 })
	h.UI(func() { v.search.SetText("house") })
	h.Until("one found", func() bool { return len(v.entries) == 1 })
	h.UI(func() { v.list.Select(0) })
	b, _ := h.Overlay("Use in Text to image")
	h.UI(b.OnTapped)
	h.UI(func() { Show(h, []Target{target}); v = shown })
	h.Until("two entries", func() bool { return len(v.entries) == 2 })
	h.UI(func() {
		for i, e := range v.entries {
			if e.Kind == prompts.Style {
				v.list.Select(i)
			}
		}
	})
	b, _ = h.Overlay("Add to Text to image's prompt")
	h.UI(b.OnTapped)
	if len(used) != 2 || used[0] != "a lighthouse at dusk" || used[1] != "a fox, in sumi ink" {
		t.Errorf("used %q", used)
	}
	h.Until("the uses counted", func() bool {
		got, _ := store.List(context.Background(), prompts.Query{})
		return len(got) == 2 && got[0].Uses == 1 && got[1].Uses == 1
	})
}
