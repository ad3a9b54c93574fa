package conversations

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// A conversation made at schema 4 (the library's testdata/v4) is read by
// today's code as it was written: every message, its versions, thinking,
// usage, state and attached image.
func TestUpgradeKeepsTheConversation(t *testing.T) {
	src := filepath.Join("..", "library", "testdata", "v4")
	dir := copyFixture(t, src)
	var want []Message
	data, err := os.ReadFile(filepath.Join(src, "conversation.json"))
	if err != nil || json.Unmarshal(data, &want) != nil {
		t.Fatal(err)
	}
	lib, s := openAt(t, dir)
	defer lib.Close()
	convs := must(s.List(ctx, ""))
	if len(convs) != 1 || convs[0].Title != "Poster ideas" || convs[0].System != "be brief" || *convs[0].Temperature != 0.7 {
		t.Fatalf("conversations %+v", convs)
	}
	got := must(s.Path(ctx, convs[0].ID))
	if len(got) != len(want) {
		t.Fatalf("%d messages, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.ID != w.ID || g.Content != w.Content || g.Reasoning != w.Reasoning || g.State != w.State || g.OutputTokens != w.OutputTokens ||
			g.Versions != w.Versions || len(g.Images) != len(w.Images) {
			t.Errorf("message %d:\n got %+v\nwant %+v", i, g, w)
		}
	}
	if _, err := os.Stat(lib.Inputs().Path(got[0].Images[0].StoredInput)); err != nil {
		t.Errorf("the attached image is gone: %v", err)
	}
	ps := must(s.Presets(ctx))
	if len(ps) != 2 || ps[1].Name != "Brief" {
		t.Errorf("presets %+v", ps)
	}
}

// copyFixture copies a library fixture's folder (src/library) to a
// temporary folder and returns it.
func copyFixture(t *testing.T, src string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "lib")
	err := filepath.WalkDir(filepath.Join(src, "library"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(filepath.Join(src, "library"), p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o700)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), data, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// A library of version 7 finds, once upgraded, a Chinese word inside a
// reply it held.
func TestTheUpgradedSearchFindsChineseInAReply(t *testing.T) {
	lib, s := openAt(t, copyFixture(t, filepath.Join("..", "library", "testdata", "v7")))
	defer lib.Close()
	if got := must(s.List(ctx, "深蓝色")); len(got) != 1 || got[0].Title != "Poster ideas" {
		t.Errorf("深蓝色 finds %+v", got)
	}
	if got := must(s.List(ctx, "海报")); len(got) != 1 {
		t.Errorf("海报 (in a question) finds %+v", got)
	}
}
