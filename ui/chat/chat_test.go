package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/conversations"
	"easel/internal/demoservice"
	"easel/internal/testsupport/hostile"
	"easel/ui/room"
	"easel/ui/room/roomtest"
	"easel/ui/widgets/transcript"
)

// newChat opens the tab on a fake service streaming at pace.
func newChat(t *testing.T, pace time.Duration) (*Room, *roomtest.Host) {
	h := roomtest.NewWith(t, roomtest.Options{Pace: pace})
	r := New(h)
	h.Show(r.Build)
	h.Until("the conversations", func() bool { return r.conv.store != nil })
	return r, h
}

// settle stops what runs and lets every callback it leaves end: work
// ends in a callback that may start more (a reply's end reloads the
// conversation). Tests defer it, so it runs before any cleanup: a
// callback running under the test app's teardown is a race.
func settle(h *roomtest.Host, r *Room) {
	h.UI(r.Stop)
	for range 5 {
		h.Wait()
		h.UI(func() {})
	}
	h.Wait()
}

// send types text and presses Enter.
func send(h *roomtest.Host, r *Room, text string) {
	h.UI(func() {
		r.composer.SetText(text)
		r.PrimaryAction()
	})
}

// lastReply is the last message shown, once its reply has ended.
func waitReply(t *testing.T, h *roomtest.Host, r *Room) transcript.Message {
	t.Helper()
	var last transcript.Message
	h.Until("the reply", func() bool {
		msgs := r.transcript.Messages()
		if len(msgs) == 0 || r.Streaming() {
			return false
		}
		last = msgs[len(msgs)-1]
		return last.Role == transcript.Assistant && !last.Streaming
	})
	return last
}

// A message is sent, its reply streams in and is kept: the conversation
// is titled from the first message, listed, and reads back from the
// database with its usage.
func TestAMessageStreamsAndIsKept(t *testing.T) {
	r, h := newChat(t, 0)
	defer settle(h, r)
	send(h, r, "A poster for a jazz night")
	reply := waitReply(t, h, r)
	if !strings.Contains(reply.Text, "Demo reply") || reply.Usage == "" {
		t.Errorf("reply %+v: want the demo's text and its usage", reply)
	}
	h.Until("the list", func() bool { return len(r.Conversations()) == 1 })
	var c conversations.Conversation
	h.UI(func() { c = r.Current() })
	if c.Title != "A poster for a jazz night" || c.ID == 0 {
		t.Errorf("conversation %+v", c)
	}
	path, err := r.conv.store.Path(context.Background(), c.ID)
	if err != nil || len(path) != 2 || path[1].State != conversations.Done || path[1].OutputTokens == 0 {
		t.Fatalf("kept %+v (%v)", path, err)
	}
	// The stream asked for its usage.
	var body struct {
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
		Stream bool `json:"stream"`
	}
	json.Unmarshal(h.Bodies()[0], &body)
	if !body.Stream || !body.StreamOptions.IncludeUsage {
		t.Errorf("the request did not stream with usage: %s", h.Bodies()[0])
	}
	if r.composer.Text != "" {
		t.Error("the composer kept the sent text")
	}
}

// Stop ends the reply at once and keeps what had arrived, marked as
// stopped; the reply is kept so in the database.
func TestStopKeepsTheTextSoFar(t *testing.T) {
	r, h := newChat(t, time.Second) // a word every 50 ms
	defer settle(h, r)
	send(h, r, "tell me about posters")
	h.Until("some text", func() bool {
		msgs := r.transcript.Messages()
		return len(msgs) == 2 && len(msgs[1].Text) > 10
	})
	h.UI(r.composer.OnStop) // Esc
	reply := waitReply(t, h, r)
	if !strings.Contains(reply.Note, "Stopped") || reply.Text == "" {
		t.Errorf("after Stop: %+v", reply)
	}
	var id int64
	h.UI(func() { id = r.Current().ID })
	path, _ := r.conv.store.Path(context.Background(), id)
	if path[1].State != conversations.Stopped || path[1].Content != reply.Text || strings.Contains(path[1].Content, "demo service;") {
		t.Errorf("kept %q (%s), shown %q", path[1].Content, path[1].State, reply.Text)
	}
}

// Regenerate keeps the earlier reply as a version that can be shown
// again; editing the question and sending it again keeps the old branch.
func TestRegenerateAndEditKeepVersions(t *testing.T) {
	r, h := newChat(t, 0)
	defer settle(h, r)
	send(h, r, "first question")
	first := waitReply(t, h, r)
	h.UI(func() { r.replies.regenerate(first.ID) })
	h.Until("a second version", func() bool {
		msgs := r.transcript.Messages()
		return len(msgs) == 2 && msgs[1].Versions == 2 && !msgs[1].Streaming && msgs[1].Version == 1
	})
	h.UI(func() { r.replies.showVersion(r.transcript.Messages()[1].ID, -1) })
	h.Until("the first version again", func() bool {
		msgs := r.transcript.Messages()
		return len(msgs) == 2 && msgs[1].ID == first.ID
	})
	// Edit the question: a new branch, the old one a version.
	var q conversations.Message
	h.UI(func() { q = r.conv.path[0] })
	h.UI(func() { r.replies.resend(q, "second question") })
	h.Until("the edited branch", func() bool {
		msgs := r.transcript.Messages()
		return len(msgs) == 2 && msgs[0].Text == "second question" && msgs[0].Versions == 2 && !msgs[1].Streaming && strings.Contains(msgs[1].Text, "second question")
	})
}

// Images attached reach the service as content parts, and show on the
// message; a model that takes no images is explained and the message
// can go again without them.
func TestImagesGoAsContentParts(t *testing.T) {
	r, h := newChat(t, 0)
	defer settle(h, r)
	var buf bytes.Buffer
	png.Encode(&buf, image.NewGray(image.Rect(0, 0, 16, 12)))
	p := filepath.Join(t.TempDir(), "sketch.png")
	os.WriteFile(p, buf.Bytes(), 0o600)
	h.UI(func() { r.AttachFiles([]string{p}) })
	h.Until("the attachment", func() bool { return len(r.Attachments()) == 1 })
	send(h, r, "what is in this sketch?")
	reply := waitReply(t, h, r)
	if !strings.HasPrefix(reply.Text, "I see 1 image.") {
		t.Errorf("reply %q", reply.Text)
	}
	bodies := h.Bodies()
	if !strings.Contains(string(bodies[len(bodies)-1]), `"type":"image_url"`) || !strings.Contains(string(bodies[len(bodies)-1]), "data:image/png;base64,") {
		t.Errorf("the image did not go as a content part: %.300s", bodies[len(bodies)-1])
	}
	msgs := r.transcript.Messages()
	if len(msgs[0].Images) != 1 {
		t.Errorf("the message shows %d images", len(msgs[0].Images))
	}

	// A model without images.
	h.UI(func() {
		r.NewChat()
		r.form.model.SetText("fault-no-images")
		r.AttachFiles([]string{p})
	})
	h.Until("the attachment", func() bool { return len(r.Attachments()) == 1 })
	send(h, r, "and this?")
	failed := waitReply(t, h, r)
	if !failed.Failed || !failed.NoImages || !strings.Contains(failed.Note, "does not take images") {
		t.Fatalf("the failure: %+v", failed)
	}
	n := len(h.Bodies())
	h.UI(func() { r.replies.retry(failed.ID, retryWithoutImages) })
	h.Until("the retry", func() bool { return len(h.Bodies()) > n })
	if strings.Contains(string(h.Bodies()[n]), "image_url") {
		t.Error("sent again without the images, but they went")
	}
}

// A conversation is kept across a restart: another tab on the same
// gallery lists it and opens it with its messages.
func TestConversationsAreListedAndSearched(t *testing.T) {
	r, h := newChat(t, 0)
	defer settle(h, r)
	send(h, r, "Moodboard for a bakery")
	waitReply(t, h, r)
	h.UI(r.NewChat)
	send(h, r, "Logo for a bike shop")
	waitReply(t, h, r)
	h.Until("two listed", func() bool { return len(r.Conversations()) == 2 })
	if r.Conversations()[0].Title != "Logo for a bike shop" {
		t.Errorf("newest first: %v", r.Conversations()[0].Title)
	}
	h.UI(func() { r.list.search.SetText("baker") })
	h.Until("the search", func() bool {
		return len(r.Conversations()) == 1 && r.Conversations()[0].Title == "Moodboard for a bakery"
	})
	h.UI(func() { r.list.search.SetText("") })
	h.Until("both again", func() bool { return len(r.Conversations()) == 2 })

	// A second tab on the same gallery: the conversations are there.
	r2 := New(h)
	h.Show(r2.Build)
	h.Until("the other tab's list", func() bool { return len(r2.Conversations()) == 2 })
	id := r2.Conversations()[1].ID
	h.UI(func() { r2.conv.open(id) })
	h.Until("the conversation opened", func() bool {
		msgs := r2.transcript.Messages()
		return r2.Current().ID == id && len(msgs) == 2 && strings.Contains(msgs[1].Text, "bakery")
	})
	for range 3 {
		h.Wait()
		h.UI(func() {})
	}
}

// "Use as prompt" puts a reply's text in Text to image's prompt.
func TestUseAsPrompt(t *testing.T) {
	r, h := newChat(t, 0)
	defer settle(h, r)
	send(h, r, "write me a prompt")
	reply := waitReply(t, h, r)
	h.UI(func() { r.replies.useAsPrompt(reply.Text, room.TargetGenerate) })
	if len(h.Prompts) != 1 || !strings.HasPrefix(h.Prompts[0], "Text to image: **Demo reply.**") {
		t.Errorf("prompts %v", h.Prompts)
	}
	_ = api.RoleUser
}

// A fault in the middle of a stream keeps the text that had arrived,
// marked as cut with the reason; a thinking model's reasoning goes to its
// own section, never into the reply.
func TestAFaultMidStreamKeepsTheTextAndThinkingStaysApart(t *testing.T) {
	r, h := newChat(t, 0)
	defer settle(h, r)
	h.UI(func() { r.form.model.SetText("fault-stream-error") })
	send(h, r, "a long answer please")
	cut := waitReply(t, h, r)
	if cut.Text == "" || cut.Heading != "Cut short" || !cut.Again || cut.Failed || strings.Contains(cut.Note, "streaming off") {
		t.Errorf("after a fault mid-stream: %+v", cut)
	}
	var id int64
	h.UI(func() { id = r.Current().ID })
	path, _ := r.conv.store.Path(context.Background(), id)
	if path[1].State != conversations.Cut || path[1].Content != cut.Text || path[1].ErrorText == "" {
		t.Errorf("kept %+v", path[1])
	}

	h.UI(func() {
		r.NewChat()
		r.form.model.SetText("deepseek-reasoner")
	})
	send(h, r, "think first")
	reply := waitReply(t, h, r)
	if reply.Reasoning == "" || strings.Contains(reply.Text, reply.Reasoning) || !strings.HasPrefix(reply.Text, "**Demo reply.**") {
		t.Errorf("reasoning %q, reply %.60q", reply.Reasoning, reply.Text)
	}
}

// A reply a gateway closed with [DONE] after its upstream broke (no
// finish_reason) is kept as far as it came and marked as possibly cut,
// in words that say what to do.
func TestAReplyAGatewayCutIsMarkedPossiblyCut(t *testing.T) {
	h := roomtest.NewWith(t, roomtest.Options{Quirks: []demoservice.Quirk{demoservice.QuirkCutChat}})
	r := New(h)
	h.Show(r.Build)
	h.Until("the conversations", func() bool { return r.conv.store != nil })
	defer settle(h, r)
	send(h, r, "three looks for a poster")
	cut := waitReply(t, h, r)
	if !strings.HasPrefix(cut.Text, "**Demo reply.**") || !strings.Contains(cut.Note, "may be cut off") || !strings.Contains(cut.Note, "ask the model to continue") {
		t.Errorf("a reply the gateway cut: %+v", cut)
	}
}

// A service that echoes the key, split across pieces of a stream, gets
// it neither on screen nor into the database: the whole text is
// redacted at every frame, and at the end.
func TestTheKeyNeverReachesTheTranscriptOrTheDatabase(t *testing.T) {
	const key = "sk-test-0123456789abcdefghijklmnop"
	r, h := newChat(t, 0)
	defer settle(h, r)
	evil := httptest.NewServer(&hostile.Server{Key: key})
	defer evil.Close()
	client := api.New(api.Config{BaseURL: evil.URL + "/v1", APIKey: key})
	ctx := context.Background()
	conv := must(r.conv.store.Create(ctx, conversations.Conversation{Title: "t", Model: hostile.KeyInPieces}))
	q := must(r.conv.store.AddUser(ctx, conv, 0, "what is my key?", nil))
	s := &stream{t: r.replies, conv: conv, cancel: func() {}}
	var shown []string
	h.UI(func() {
		r.conv.load(conv, nil)
		r.replies.streams[conv] = s
	})
	h.Until("the conversation", func() bool { return r.Current().ID == conv })
	done := make(chan struct{})
	go func() {
		s.run(ctx, r.conv.store, client, q, retryFull)
		close(done)
	}()
	for {
		select {
		case <-done:
		case <-time.After(10 * time.Millisecond):
			h.UI(func() {
				for _, m := range r.transcript.Messages() {
					shown = append(shown, m.Text, m.Reasoning)
				}
			})
			continue
		}
		break
	}
	h.Until("the end", func() bool { return !r.Streaming() })
	path := must(r.conv.store.Path(ctx, conv))
	stored := path[len(path)-1]
	for _, text := range append(shown, stored.Content, stored.Reasoning) {
		if strings.Contains(text, key[:8]) || strings.Contains(text, key[len(key)-8:]) {
			t.Fatalf("the key leaked: %q", text)
		}
	}
	if !strings.Contains(stored.Content, "[key]") {
		t.Errorf("stored %q: the key was not marked as removed", stored.Content)
	}
}

// must is v, or a panic (a failed test) on err.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// A search that finds nothing says so, and New chat clears the search
// so the new conversation is not hidden once sent.
func TestSearchSaysWhenNothingMatchesAndNewChatClearsIt(t *testing.T) {
	r, h := newChat(t, 0)
	h.UI(func() { r.list.search.SetText("nothing like this") })
	h.Until("the word that nothing matched", func() bool {
		return r.list.noMatch.Visible() && strings.Contains(r.list.noMatch.Text, "nothing like this")
	})
	h.UI(r.NewChat)
	var q string
	h.UI(func() { q = r.list.search.Text })
	if q != "" {
		t.Errorf("the search stayed on: %q", q)
	}
}

// Deleting a conversation asks nothing: it goes at once, and Undo brings
// it back.
func TestDeleteGoesAtOnceAndUndoBringsItBack(t *testing.T) {
	r, h := newChat(t, 0)
	send(h, r, "a question to keep")
	waitReply(t, h, r)
	settle(h, r)
	var c conversations.Conversation
	h.UI(func() { c = r.conv.conv })
	h.UI(func() { r.list.deleteConversation(c) })
	settle(h, r)
	h.UI(func() {
		if h.Window().Canvas().Overlays().Top() != nil {
			t.Error("deleting asked first")
		}
		if !r.list.undoBar.Visible() {
			t.Error("no Undo after deleting")
		}
	})
	h.UI(r.list.undoDelete)
	settle(h, r)
	h.Until("the conversation back in the list", func() bool {
		for _, x := range r.list.convs {
			if x.ID == c.ID {
				return true
			}
		}
		return false
	})
}

// A reply that failed for want of balance reads as a job card's failure:
// its kind as a heading, and Open Settings beside Retry.
func TestAFailedReplyOffersSettings(t *testing.T) {
	r, h := newChat(t, 0)
	defer settle(h, r)
	h.UI(func() { r.form.model.SetText("fault-" + demoservice.FaultNoBalance) })
	send(h, r, "hello")
	failed := waitReply(t, h, r)
	if !failed.Failed || !failed.Settings || !failed.Again || failed.Heading == "" || failed.Heading == "The reply failed" {
		t.Errorf("a reply refused for balance: %+v", failed)
	}
}

// Copy conversation from another conversation's row copies that one and
// leaves the one on screen (and the list's highlight) as they were.
func TestARowsCopyLeavesTheOpenConversation(t *testing.T) {
	r, h := newChat(t, 0)
	send(h, r, "the first conversation")
	waitReply(t, h, r)
	settle(h, r)
	var first conversations.Conversation
	h.UI(func() { first = r.conv.conv; r.NewChat() })
	send(h, r, "the second conversation")
	waitReply(t, h, r)
	settle(h, r)
	var second conversations.Conversation
	h.UI(func() {
		second = r.conv.conv
		r.list.fetch(first.ID, func(c conversations.Conversation, path []conversations.Message) {
			copyMarkdown(r.host, r.status.SetText, c, path)
		})
	})
	settle(h, r)
	h.UI(func() {
		if r.conv.conv.ID != second.ID {
			t.Errorf("copying the first from its row opened it (%d shown, want %d)", r.conv.conv.ID, second.ID)
		}
		if got := h.Clipboard().Content(); !strings.Contains(got, "the first conversation") {
			t.Errorf("the clipboard holds %q", got)
		}
	})
}
