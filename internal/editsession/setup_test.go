package editsession

import (
	"bytes"
	"strings"
	"testing"

	"easel/internal/api"
	"easel/internal/markup"
)

func TestASetupIsReadBackAsSaved(t *testing.T) {
	s := Setup{Prompt: "the bottle on the shelf", Options: api.ImageOptions{Model: "gpt-image-1", Size: "1536x1024", Quality: "high"},
		Session: Session{Inputs: []Input{
			{Name: "shelf.png", ContentType: "image/png", Item: 7, Mask: []byte("mask png"), Role: "background"},
			{Name: "bottle.jpg", ContentType: "image/jpeg", Path: "/home/me/bottle.jpg", Role: "product"},
			{Name: "pasted.png", ContentType: "image/png", Data: []byte("pasted bytes")},
		}, Marks: &markup.Marks{Items: []markup.Mark{{Kind: markup.Note, Points: [][2]float64{{3, 4}}, Text: "here"}}}}}
	data, err := EncodeSetup(s)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadSetup(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if got.Prompt != s.Prompt || got.Options != s.Options || len(got.Inputs) != 3 || got.Marks == nil || got.Marks.Items[0].Text != "here" {
		t.Fatalf("read back %+v", got)
	}
	for i, in := range got.Inputs {
		w := s.Inputs[i]
		if in.Name != w.Name || in.Item != w.Item || in.Path != w.Path || !bytes.Equal(in.Data, w.Data) || !bytes.Equal(in.Mask, w.Mask) || in.Role != w.Role {
			t.Errorf("input %d: %+v, want %+v", i, in, w)
		}
	}
}

func TestABadSetupIsRefusedWhole(t *testing.T) {
	for name, doc := range map[string]string{
		"not JSON":   "PNG\x89",
		"no version": `{"inputs":[]}`,
		"newer":      `{"easel_edit_setup":9,"inputs":[]}`,
		"too many":   `{"easel_edit_setup":1,"inputs":[` + strings.Repeat(`{"name":"a","item":1},`, 16) + `{"name":"b","item":2}]}`,
	} {
		if _, err := ReadSetup(strings.NewReader(doc)); err == nil {
			t.Errorf("%s: read", name)
		}
	}
	// A role from elsewhere is none; an input naming nothing is left out.
	got, err := ReadSetup(strings.NewReader(`{"easel_edit_setup":1,"inputs":[{"name":"a","item":3,"role":"../etc"},{"name":"empty"}]}`))
	if err != nil || len(got.Inputs) != 1 || got.Inputs[0].Role != "" {
		t.Errorf("%+v, %v", got, err)
	}
}

// A setup file is the user's, but may come from anywhere: whatever its
// bytes, reading it gives a setup or an error, never a panic, at most
// MaxInputs inputs and MaxMarks marks, and a setup read back writes and
// reads again alike.
func FuzzReadSetup(f *testing.F) {
	good, _ := EncodeSetup(Setup{Prompt: "p", Options: api.ImageOptions{Model: "gpt-image-1"},
		Session: Session{Inputs: []Input{{Name: "a.png", Item: 3, Role: "style"}, {Name: "b.png", Data: []byte{1, 2}}}}})
	f.Add(good)
	f.Add([]byte(`{"easel_edit_setup":1,"inputs":[{"name":"x","path":"../../etc/passwd","role":"subject"}],"marks":{"items":[{"kind":"note","points":[[1e308,-1e308]],"text":"n"}]}}`))
	f.Add([]byte(`{"easel_edit_setup":-1}`))
	f.Add([]byte(`{"easel_edit_setup":1,"inputs":[{"name":"x","data":"!!!"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ReadSetup(bytes.NewReader(data))
		if err != nil {
			return
		}
		if len(s.Inputs) > MaxInputs || (s.Marks != nil && len(s.Marks.Items) > markup.MaxMarks) {
			t.Fatalf("%d inputs, marks %v", len(s.Inputs), s.Marks)
		}
		again, err := EncodeSetup(s)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ReadSetup(bytes.NewReader(again))
		if err != nil || len(back.Inputs) != len(s.Inputs) || back.Prompt != s.Prompt {
			t.Fatalf("read back %d inputs %q (%v), wrote %d %q", len(back.Inputs), back.Prompt, err, len(s.Inputs), s.Prompt)
		}
	})
}
