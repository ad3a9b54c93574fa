package board

import (
	"context"
	"strings"
	"testing"

	"easel/internal/api"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/ui/room/roomtest"
)

// A board sends one request per value (here three qualities), shows
// each cell's end with its time and cost, and finishing sends the
// unticked pictures to the trash, which Undo brings back.
func TestABoardComparesAndKeepsTheWinners(t *testing.T) {
	h := roomtest.New(t)
	var b *Board
	var sent []jobs.Request
	h.OnJob = func(e jobs.Event) {
		if e.State == jobs.Queued {
			sent = append(sent, e.Job.Request)
		}
		b.ShowJob(e, nil, nil)
	}
	h.UI(func() {
		b = Open(h, "a red kite over the sea", api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024"}, []string{"gpt-image-1", "gpt-image-2"})
		if got := Values(b.values.Text); len(got) != 2 || got[1] != "gpt-image-2" {
			t.Errorf("the models offered: %v", got)
		}
		b.axis.SetSelected(axisLabels()[Quality])
		if !strings.Contains(b.estimate.Text, "3 requests") || !strings.Contains(b.estimate.Text, "$") {
			t.Errorf("the estimate reads %q", b.estimate.Text)
		}
		b.run.OnTapped()
	})
	h.Until("three cells done", func() bool {
		if len(b.cells) != 3 {
			return false
		}
		for _, c := range b.cells {
			if !c.ended {
				return false
			}
		}
		return true
	})
	h.UI(func() {
		for i, c := range b.cells {
			if len(c.items) != 1 || !strings.Contains(c.state.Text, "Done in") || !strings.Contains(c.state.Text, "$") || !c.keep.Checked {
				t.Errorf("cell %d (%s): %q, items %v", i, c.value, c.state.Text, c.items)
			}
		}
		qualities := map[string]bool{}
		for _, r := range sent {
			qualities[r.Generate.Quality] = r.Tag == Tag && r.Generate.Prompt == "a red kite over the sea" && r.Generate.N == 1
		}
		if len(sent) != 3 || !qualities["low"] || !qualities["medium"] || !qualities["high"] {
			t.Errorf("sent %d requests: %v", len(sent), qualities)
		}
		b.cells[1].keep.SetChecked(false)
		if b.finish.Disabled() {
			t.Fatal("finish is off after every job ended")
		}
		b.finish.OnTapped()
	})
	ctx := context.Background()
	h.Until("one discarded", func() bool {
		n, _ := h.Library().Count(ctx, library.Query{})
		return len(b.Discarded) == 1 && n == 2
	})
	h.UI(b.undo.OnTapped)
	h.Until("brought back", func() bool { n, _ := h.Library().Count(ctx, library.Query{}); return n == 3 })
}

// Fewer than two values cannot be sent.
func TestABoardNeedsTwoValues(t *testing.T) {
	h := roomtest.New(t)
	h.UI(func() {
		b := Open(h, "p", api.ImageOptions{Model: "gpt-image-1"}, nil)
		if !b.run.Disabled() {
			t.Error("one model can be sent as a comparison")
		}
		b.values.SetText("gpt-image-1, gpt-image-2, a, b, c, d, e, f")
		if len(Values(b.values.Text)) != MaxCells || b.run.Disabled() {
			t.Errorf("values %v", Values(b.values.Text))
		}
	})
}
