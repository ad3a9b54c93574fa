package transcript

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// shown makes a transcript in a test window of 600x500.
func shown(t *testing.T, a Actions) (*Transcript, fyne.Window) {
	test.NewTempApp(t)
	tr := New(a, "No messages yet.")
	w := test.NewTempWindow(t, tr)
	w.Resize(fyne.NewSize(600, 500))
	return tr, w
}

// views are the message rows on screen.
func views(tr *Transcript) []*messageView {
	var out []*messageView
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if v, ok := o.(*messageView); ok && v.Visible() {
			out = append(out, v)
			return
		}
		if c, ok := o.(*fyne.Container); ok {
			for _, k := range c.Objects {
				walk(k)
			}
		}
		if w, ok := o.(fyne.Widget); ok {
			for _, k := range test.WidgetRenderer(w).Objects() {
				walk(k)
			}
		}
	}
	walk(tr.list)
	return out
}

func viewOf(t *testing.T, tr *Transcript, id int64) *messageView {
	t.Helper()
	for _, v := range views(tr) {
		if v.msg.ID == id {
			return v
		}
	}
	t.Fatalf("message %d is not on screen", id)
	return nil
}

// buttons are the buttons under o with their text.
func buttons(o fyne.CanvasObject) map[string]*widget.Button {
	out := map[string]*widget.Button{}
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Visible() {
			out[b.Text] = b
		}
		if c, ok := o.(*fyne.Container); ok {
			for _, k := range c.Objects {
				walk(k)
			}
		}
		if w, ok := o.(fyne.Widget); ok {
			if _, isButton := o.(*widget.Button); !isButton {
				for _, k := range test.WidgetRenderer(w).Objects() {
					walk(k)
				}
			}
		}
	}
	walk(o)
	return out
}

// A reply's markdown is drawn; its code block copies itself and goes to
// the prompt; its thinking is folded until opened.
func TestAReplyIsDrawnWithItsCodeAndThinking(t *testing.T) {
	var copied, used, target string
	tr, _ := shown(t, Actions{Copy: func(s string) { copied = s }, UseAsPrompt: func(s, tg string) { used, target = s, tg }, Targets: []string{"Text to image"}})
	tr.SetMessages([]Message{
		{ID: 1, Role: User, Text: "a prompt for a jazz poster"},
		{ID: 2, Role: Assistant, Model: "gpt-4o-mini", Reasoning: "they want a poster", Text: "## Prompt\n\nTry this:\n\n```\na saxophone in deep blue light\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"},
	})
	v := viewOf(t, tr, 2)
	b := buttons(v)
	if b["Copy"] == nil || b["Use as prompt"] == nil {
		t.Fatalf("the code block's buttons: %v", b)
	}
	b["Copy"].OnTapped()
	b["Use as prompt"].OnTapped()
	if copied != "a saxophone in deep blue light\n" || used != "a saxophone in deep blue light" || target != "Text to image" {
		t.Errorf("copied %q, used %q in %q", copied, used, target)
	}
	if v.thinkUI.Hidden || v.thought.Visible() {
		t.Error("the thinking is not there, folded")
	}
	if strings.Contains(fmt.Sprint(v.body.Objects), "they want a poster") {
		t.Error("the thinking is mixed into the reply")
	}
	v.think.OnTapped()
	if !v.thought.Visible() || v.thought.Text != "they want a poster" {
		t.Error("Thinking did not open")
	}
}

// An image in a reply is never fetched: rendering it makes no request.
func TestAnImageInAReplyIsNeverFetched(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	tr, w := shown(t, Actions{Copy: func(string) {}})
	tr.SetMessages([]Message{{ID: 1, Role: Assistant, Text: fmt.Sprintf("Here: ![x](%s/a.png) and ![y](%s/b.png)", srv.URL, srv.URL)}})
	w.Canvas().Refresh(tr)
	test.TempWidgetRenderer(t, tr).Refresh()
	time.Sleep(300 * time.Millisecond)
	if n := hits.Load(); n != 0 {
		t.Fatalf("rendering the reply made %d requests to the image's address", n)
	}
	var text string
	for _, o := range viewOf(t, tr, 1).body.Objects {
		if rt, ok := o.(*widget.RichText); ok {
			text += rt.String()
		}
	}
	if !strings.Contains(text, "[x]") || !strings.Contains(text, "[y]") {
		t.Errorf("the images are not shown as their link text: %q", text)
	}
}

// A streaming reply redraws only itself; a thousand messages make only
// the rows on screen.
func TestAStreamRedrawsOnlyTheLastMessage(t *testing.T) {
	tr, _ := shown(t, Actions{Copy: func(string) {}})
	var msgs []Message
	for i := 0; i < 1000; i++ {
		role := User
		if i%2 == 1 {
			role = Assistant
		}
		msgs = append(msgs, Message{ID: int64(i + 1), Role: role, Text: fmt.Sprintf("message %d with **some** text", i)})
	}
	start := time.Now()
	tr.SetMessages(msgs)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("opening 1,000 messages took %v", d)
	}
	if tr.views > 40 {
		t.Errorf("%d rows made for 1,000 messages: the list is not virtual", tr.views)
	}
	tr.Append(Message{ID: 2000, Role: Assistant, Streaming: true})
	before := map[int64]int{}
	for k, v := range tr.draws {
		before[k] = v
	}
	text := ""
	for i := 0; i < 40; i++ {
		text += fmt.Sprintf("word%d ", i)
		tr.UpdateLast(Message{ID: 2000, Role: Assistant, Streaming: true, Text: text})
	}
	for id, n := range tr.draws {
		if id != 2000 && n != before[id] {
			t.Errorf("message %d was drawn %d more times during the stream", id, n-before[id])
		}
	}
	if tr.draws[2000]-before[2000] < 40 {
		t.Errorf("the streaming message was drawn %d times for 40 updates", tr.draws[2000]-before[2000])
	}
}

// The view follows a reply while it is at the bottom; scrolled up, it
// stays and offers a jump back.
func TestTheViewFollowsUntilTheUserScrollsUp(t *testing.T) {
	tr, _ := shown(t, Actions{Copy: func(string) {}})
	var msgs []Message
	for i := 0; i < 60; i++ {
		msgs = append(msgs, Message{ID: int64(i + 1), Role: User, Text: fmt.Sprintf("line %d", i)})
	}
	tr.SetMessages(msgs)
	tr.Append(Message{ID: 100, Role: Assistant, Streaming: true, Text: "a"})
	text := "a"
	for i := 0; i < 10; i++ {
		text += "\n\nmore text"
		tr.UpdateLast(Message{ID: 100, Role: Assistant, Streaming: true, Text: text})
	}
	if !tr.Following() || !tr.atBottom() {
		t.Fatalf("not following a reply at the bottom (offset %v of %v)", tr.list.GetScrollOffset(), tr.contentHeight())
	}
	tr.list.ScrollToTop()
	tr.UpdateLast(Message{ID: 100, Role: Assistant, Streaming: true, Text: text + "\n\nand more"})
	if tr.Following() || !tr.jump.Visible() || tr.list.GetScrollOffset() != 0 {
		t.Errorf("scrolled up: following %v, jump %v, offset %v", tr.Following(), tr.jump.Visible(), tr.list.GetScrollOffset())
	}
	tr.jump.OnTapped()
	if !tr.Following() || tr.jump.Visible() || tr.list.GetScrollOffset() == 0 {
		t.Error("Jump to latest did not go back to the end")
	}
}
