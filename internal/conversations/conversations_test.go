package conversations

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"slices"
	"strings"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/library"
)

var ctx = context.Background()

func openAt(t *testing.T, dir string) (*library.Library, *Store) {
	t.Helper()
	lib, err := library.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, lib)
	if err != nil {
		t.Fatal(err)
	}
	return lib, s
}

// must is v, or a panic (a failed test) on err.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// reply adds a finished assistant reply after parent.
func reply(t *testing.T, s *Store, conv, parent int64, text string) int64 {
	t.Helper()
	id := must(s.StartReply(ctx, conv, parent, "gpt-4o-mini"))
	if err := s.Finish(ctx, id, Ending{State: Done, Content: text, Usage: &api.Usage{InputTokens: 3, OutputTokens: 5}}); err != nil {
		t.Fatal(err)
	}
	return id
}

func contents(path []Message) string {
	var parts []string
	for _, m := range path {
		parts = append(parts, m.Content)
	}
	return strings.Join(parts, " | ")
}

// A conversation is kept with its settings and messages across a
// restart, and its path reads back in order with usage.
func TestAConversationSurvivesARestart(t *testing.T) {
	dir := t.TempDir()
	lib, s := openAt(t, dir)
	temp, max := 0.7, 300
	conv := must(s.Create(ctx, Conversation{Title: TitleFrom("A poster for a jazz night\nwith details"), Model: "gpt-4o-mini", System: "be brief", Temperature: &temp, MaxTokens: &max}))
	u := must(s.AddUser(ctx, conv, 0, "A poster for a jazz night", nil))
	r := reply(t, s, conv, u, "Try **deep blue** and brass.")
	lib.Close()

	lib, s = openAt(t, dir)
	defer lib.Close()
	c := must(s.Get(ctx, conv))
	if c.Title != "A poster for a jazz night" || c.Model != "gpt-4o-mini" || c.System != "be brief" || *c.Temperature != 0.7 || *c.MaxTokens != 300 || c.Leaf != r {
		t.Errorf("after a restart: %+v", c)
	}
	path := must(s.Path(ctx, conv))
	if len(path) != 2 || path[0].Role != api.RoleUser || path[1].Content != "Try **deep blue** and brass." || path[1].OutputTokens != 5 || path[1].State != Done {
		t.Errorf("path %+v", path)
	}
}

// A reply left streaming (a crash, a kill) is marked cut when the
// library is next opened alone, its text kept; Stop keeps the text too.
func TestAReplyCutShortKeepsItsText(t *testing.T) {
	dir := t.TempDir()
	lib, s := openAt(t, dir)
	conv := must(s.Create(ctx, Conversation{Title: "t", Model: "m"}))
	u := must(s.AddUser(ctx, conv, 0, "hello", nil))
	r := must(s.StartReply(ctx, conv, u, "m"))
	if err := s.Stream(ctx, r, "Half a rep", "thinking"); err != nil {
		t.Fatal(err)
	}
	lib.Close() // as if killed: the row is still streaming
	lib, s = openAt(t, dir)
	path := must(s.Path(ctx, conv))
	if m := path[1]; m.State != Cut || m.Content != "Half a rep" || m.Reasoning != "thinking" || m.ErrorText == "" {
		t.Errorf("after a kill: %+v", m)
	}
	// Stop: the text so far, marked stopped.
	r2 := must(s.StartReply(ctx, conv, u, "m"))
	s.Stream(ctx, r2, "Stopped he", "")
	if err := s.Finish(ctx, r2, Ending{State: Stopped, Content: "Stopped he"}); err != nil {
		t.Fatal(err)
	}
	path = must(s.Path(ctx, conv))
	if m := path[1]; m.State != Stopped || m.Content != "Stopped he" || m.Versions != 2 || m.Version != 1 {
		t.Errorf("after Stop: %+v", m)
	}
	lib.Close()
}

// Regenerate keeps the earlier reply as a version; editing an earlier
// question and sending it again keeps the old branch as a version too,
// and either can be shown again.
func TestVersionsOfRepliesAndQuestions(t *testing.T) {
	lib, s := openAt(t, t.TempDir())
	defer lib.Close()
	conv := must(s.Create(ctx, Conversation{Title: "t", Model: "m"}))
	q1 := must(s.AddUser(ctx, conv, 0, "q1", nil))
	a1 := reply(t, s, conv, q1, "a1")
	q2 := must(s.AddUser(ctx, conv, a1, "q2", nil))
	reply(t, s, conv, q2, "a2")
	a2b := reply(t, s, conv, q2, "a2 again") // regenerate
	path := must(s.Path(ctx, conv))
	if contents(path) != "q1 | a1 | q2 | a2 again" || path[3].Versions != 2 || path[3].Version != 1 {
		t.Fatalf("after regenerate: %s (%+v)", contents(path), path[3])
	}
	if err := s.ShowVersion(ctx, conv, path[3].Siblings[0]); err != nil {
		t.Fatal(err)
	}
	if got := contents(must(s.Path(ctx, conv))); got != "q1 | a1 | q2 | a2" {
		t.Errorf("the first version: %s", got)
	}
	// Edit q2 and send again: a new branch from a1.
	q2e := must(s.AddUser(ctx, conv, a1, "q2 edited", nil))
	reply(t, s, conv, q2e, "a2 for the edit")
	path = must(s.Path(ctx, conv))
	if contents(path) != "q1 | a1 | q2 edited | a2 for the edit" || path[2].Versions != 2 {
		t.Fatalf("after editing: %s", contents(path))
	}
	// The old branch comes back whole, with its newest reply.
	if err := s.ShowVersion(ctx, conv, q2); err != nil {
		t.Fatal(err)
	}
	if got := contents(must(s.Path(ctx, conv))); got != "q1 | a1 | q2 | a2 again" {
		t.Errorf("the old branch: %s", got)
	}
	// Deleting a message removes what follows it and shows what is left.
	if err := s.DeleteMessage(ctx, conv, a2b); err != nil {
		t.Fatal(err)
	}
	if got := contents(must(s.Path(ctx, conv))); got != "q1 | a1 | q2 | a2" {
		t.Errorf("after deleting a reply: %s", got)
	}
}

// Search finds conversations by title and by message text (prefixes),
// pinned ones first; a streaming reply is found once it is done.
func TestSearchAndOrder(t *testing.T) {
	lib, s := openAt(t, t.TempDir())
	defer lib.Close()
	a := must(s.Create(ctx, Conversation{Title: "Logo ideas", Model: "m"}))
	b := must(s.Create(ctx, Conversation{Title: "Poster", Model: "m"}))
	c := must(s.Create(ctx, Conversation{Title: "Palette", Model: "m"}))
	time.Sleep(5 * time.Millisecond) // b's message makes it the newest
	u := must(s.AddUser(ctx, b, 0, "a jazz night in Lisbon", nil))
	r := must(s.StartReply(ctx, b, u, "m"))
	s.Stream(ctx, r, "saxophone silhouettes", "")
	ids := func(q string) []int64 {
		var out []int64
		for _, c := range must(s.List(ctx, q)) {
			out = append(out, c.ID)
		}
		return out
	}
	if got := ids("lisb"); len(got) != 1 || got[0] != b {
		t.Errorf("search lisb: %v, want %d", got, b)
	}
	if got := ids("logo"); len(got) != 1 || got[0] != a {
		t.Errorf("search logo: %v", got)
	}
	if got := ids("saxophone"); len(got) != 0 {
		t.Errorf("a streaming reply was found: %v", got)
	}
	s.Finish(ctx, r, Ending{State: Done, Content: "saxophone silhouettes"})
	if got := ids("saxophone"); len(got) != 1 {
		t.Errorf("a finished reply was not found: %v", got)
	}
	if got := ids(`"quote" AND`); got != nil {
		t.Errorf("operators were not taken literally: %v", got)
	}
	s.SetPinned(ctx, a, true)
	if got := ids(""); got[0] != a || got[1] != b || got[2] != c {
		t.Errorf("order %v: want pinned %d, then the newest", got, a)
	}
	s.Rename(ctx, c, "Colour palette")
	if got := ids("colour"); len(got) != 1 || got[0] != c {
		t.Errorf("a renamed title: %v", got)
	}
}

// Deleting hides a conversation until the app closes; Undo brings it
// back; the next start removes it for good.
func TestDeleteCanBeUndoneUntilTheAppCloses(t *testing.T) {
	dir := t.TempDir()
	lib, s := openAt(t, dir)
	keep := must(s.Create(ctx, Conversation{Title: "keep", Model: "m"}))
	gone := must(s.Create(ctx, Conversation{Title: "gone", Model: "m"}))
	s.Delete(ctx, keep)
	s.Delete(ctx, gone)
	if n := len(must(s.List(ctx, ""))); n != 0 {
		t.Errorf("%d listed after deleting both", n)
	}
	s.Restore(ctx, keep)
	if l := must(s.List(ctx, "")); len(l) != 1 || l[0].ID != keep {
		t.Errorf("after Undo: %+v", l)
	}
	lib.Close()
	lib, _ = openAt(t, dir) // opening alone removes what was deleted
	defer lib.Close()
	var n int
	lib.DB().QueryRow(`SELECT count(*) FROM conversations`).Scan(&n)
	if n != 1 {
		t.Errorf("%d conversations on disk after a restart, want the one kept", n)
	}
}

// Images attached are stored once in the library and go with the
// message to the service; a bare retry sends only the last question.
func TestImagesAndRequests(t *testing.T) {
	lib, s := openAt(t, t.TempDir())
	defer lib.Close()
	var buf bytes.Buffer
	png.Encode(&buf, image.NewGray(image.Rect(0, 0, 12, 8)))
	temp := 1.2
	conv := must(s.Create(ctx, Conversation{Title: "t", Model: "gpt-4o-mini", System: "sys", Temperature: &temp}))
	q := must(s.AddUser(ctx, conv, 0, "what is this?", []NewImage{{Name: "a.png", Data: buf.Bytes()}, {Name: "b.png", Data: buf.Bytes()}}))
	a := reply(t, s, conv, q, "a grey square")
	q2 := must(s.AddUser(ctx, conv, a, "and now?", nil))
	path := must(s.Path(ctx, conv))
	if len(path[0].Images) != 2 || path[0].Images[0].Name != "a.png" || path[0].Images[0].Width != 12 {
		t.Fatalf("images %+v", path[0].Images)
	}
	var files int
	lib.DB().QueryRow(`SELECT count(*) FROM inputs`).Scan(&files)
	if files != 1 {
		t.Errorf("%d stored inputs for the same image twice", files)
	}
	c := must(s.Get(ctx, conv))
	req := must(s.Request(c, path, false))
	if len(req.Messages) != 4 || req.Messages[0].Role != api.RoleSystem || len(req.Messages[1].Images) != 2 ||
		!bytes.Equal(req.Messages[1].Images[0].Data, buf.Bytes()) || *req.Temperature != 1.2 || !req.IncludeUsage {
		t.Errorf("request %+v", req)
	}
	bare := must(s.Request(c, path, true))
	if len(bare.Messages) != 1 || bare.Messages[0].Content != "and now?" || bare.Temperature != nil || bare.Model != "gpt-4o-mini" {
		t.Errorf("bare request %+v", bare)
	}
	_ = q2
}

func TestTitleFromAndMarkdown(t *testing.T) {
	long := strings.Repeat("moodboard ", 20)
	if got := TitleFrom(long); len([]rune(got)) > MaxTitle+1 || !strings.HasSuffix(got, "…") {
		t.Errorf("title %q", got)
	}
	if TitleFrom("  \n ") != "New chat" {
		t.Error("a blank first message")
	}
	md := Markdown(Conversation{Title: "Jazz", Model: "gpt-4o-mini", System: "be brief"}, []Message{
		{Role: api.RoleUser, Content: "poster?", Images: []Image{{Name: "ref.png", StoredInput: library.StoredInput{Width: 4, Height: 3}}}},
		{Role: api.RoleAssistant, Model: "gpt-4o-mini", Content: "Blue.", Reasoning: "think", State: Cut, ErrorText: "the connection dropped"}})
	for _, want := range []string{"# Jazz", "## System", "be brief", "## You", "poster?", "ref.png (4×3)", "## Assistant (gpt-4o-mini)", "> think", "Blue.", "Cut short: the connection dropped"} {
		if !strings.Contains(md, want) {
			t.Errorf("the export lacks %q:\n%s", want, md)
		}
	}
}

// Chat's search finds a Chinese word inside a reply, and a longer run
// inside a title.
func TestSearchFindsChineseInsideRepliesAndTitles(t *testing.T) {
	lib, s := openAt(t, t.TempDir())
	defer lib.Close()
	c, err := s.Create(ctx, Conversation{Title: "海报配色讨论", Model: "gpt-4o-mini"})
	if err != nil {
		t.Fatal(err)
	}
	q, err := s.AddUser(ctx, c, 0, "用什么颜色？", nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.StartReply(ctx, c, q, "gpt-4o-mini")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Finish(ctx, r, Ending{State: Done, Content: "试试深蓝色的背景，配上暖色的标题。"}); err != nil {
		t.Fatal(err)
	}
	other, _ := s.Create(ctx, Conversation{Title: "Lighthouse prompts", Model: "gpt-4o-mini"})
	for search, want := range map[string][]int64{"深蓝色": {c}, "标题": {c}, "配色": {c}, "海报配色": {c}, "light": {other}, "红色": nil} {
		got, err := s.List(ctx, search)
		var ids []int64
		for _, g := range got {
			ids = append(ids, g.ID)
		}
		if err != nil || !slices.Equal(ids, want) {
			t.Errorf("%q finds %v (%v), want %v", search, ids, err, want)
		}
	}
}
