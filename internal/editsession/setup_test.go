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
