package editsession

import (
	"bytes"
	"image/color"
	"os"
	"path/filepath"
	"testing"

	"easel/internal/markup"
)

// A session is read back as it was saved: the inputs in order, each
// from where it was (an item, a file, bytes kept here), its mask, the
// marks; files no session names are gone after the next save.
func TestASessionIsReadBackAsSaved(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "edit-session")
	marks := &markup.Marks{Colour: color.NRGBA{R: 255, A: 255}, Items: []markup.Mark{{Kind: markup.Arrow, Points: [][2]float64{{1, 2}, {30, 40}}}}}
	s := Session{Inputs: []Input{
		{Name: "room.png", ContentType: "image/png", Item: 12, Mask: []byte("mask one")},
		{Name: "sofa.jpg", ContentType: "image/jpeg", Path: "/home/me/sofa.jpg", Role: "style"},
		{Name: "pasted.png", ContentType: "image/png", Data: []byte("pasted bytes"), Mask: []byte("mask three")},
	}, Marks: marks}
	if err := Save(dir, s); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir)
	if err != nil || len(got.Inputs) != 3 {
		t.Fatalf("%+v, %v", got, err)
	}
	for i, in := range got.Inputs {
		w := s.Inputs[i]
		if in.Name != w.Name || in.Item != w.Item || in.Path != w.Path || !bytes.Equal(in.Data, w.Data) || !bytes.Equal(in.Mask, w.Mask) || in.ContentType != w.ContentType || in.Role != w.Role {
			t.Errorf("input %d: %+v, want %+v", i, in, w)
		}
	}
	if got.Marks == nil || len(got.Marks.Items) != 1 || got.Marks.Items[0].Kind != markup.Arrow {
		t.Errorf("marks: %+v", got.Marks)
	}
	// The pasted image removed, the first's mask erased: their files go.
	s.Inputs = s.Inputs[:2]
	s.Inputs[0].Mask = nil
	if err := Save(dir, s); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != docName {
		t.Errorf("the folder holds %v after the second save", entries)
	}
}

// No session is an empty one; a damaged document is an error and no
// inputs; a file the document names outside the folder is not read; a
// kept input that is gone is said, the others kept.
func TestABrokenSessionLosesNothingElse(t *testing.T) {
	dir := t.TempDir()
	if s, err := Load(filepath.Join(dir, "none")); err != nil || len(s.Inputs) != 0 {
		t.Fatalf("no session: %+v, %v", s, err)
	}
	if err := os.WriteFile(filepath.Join(dir, docName), []byte(`{"inputs":[{"name":"x",`), 0o600); err != nil {
		t.Fatal(err)
	}
	if s, err := Load(dir); err == nil || len(s.Inputs) != 0 {
		t.Errorf("a cut document: %+v, %v", s, err)
	}
	secret := filepath.Join(t.TempDir(), "secret")
	_ = os.WriteFile(secret, []byte("not yours"), 0o600)
	doc := `{"inputs":[{"name":"a","file":"../` + filepath.Base(filepath.Dir(secret)) + `/secret"},{"name":"b","file":"input-gone"},{"name":"c","item":3}]}`
	if err := os.WriteFile(filepath.Join(dir, docName), []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Load(dir)
	if err == nil || len(s.Inputs) != 1 || s.Inputs[0].Item != 3 {
		t.Errorf("names from elsewhere and a gone file: %+v, %v", s, err)
	}
}
