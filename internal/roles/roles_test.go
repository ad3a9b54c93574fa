package roles

import (
	"strings"
	"testing"

	"easel/internal/api"
)

func TestRolesAreSaidInThePrompt(t *testing.T) {
	req := api.EditRequest{Prompt: "put the bottle on the table ", ImageOptions: api.ImageOptions{Model: "gpt-image-1"},
		Images: make([]api.InputImage, 3)}
	if !Apply(&req, []Role{Product, None, Style}) {
		t.Fatal("the roles were not put in")
	}
	want := "put the bottle on the table\n\nReference images: image 1 is the product; image 3 is the style to follow (its look, not its content)."
	if req.Prompt != want {
		t.Errorf("prompt %q, want %q", req.Prompt, want)
	}
	// A model that takes one image has nothing to tell apart.
	one := api.EditRequest{Prompt: "p", ImageOptions: api.ImageOptions{Model: "dall-e-2"}, Images: make([]api.InputImage, 1)}
	if Apply(&one, []Role{Subject}) || one.Prompt != "p" {
		t.Errorf("dall-e-2 was told roles: %q", one.Prompt)
	}
	// No roles, or more roles than images: nothing, or only the images'.
	none := api.EditRequest{Prompt: "p", Images: make([]api.InputImage, 2)}
	if Apply(&none, []Role{None, None}) || none.Prompt != "p" {
		t.Errorf("no roles changed the prompt: %q", none.Prompt)
	}
	extra := api.EditRequest{Prompt: "p", Images: make([]api.InputImage, 1)}
	Apply(&extra, []Role{Subject, Logo})
	if strings.Contains(extra.Prompt, "image 2") {
		t.Errorf("a role past the images was said: %q", extra.Prompt)
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]Role{"Style": Style, " none": None, "": None, "logo": Logo} {
		if r, err := Parse(in); err != nil || r != want {
			t.Errorf("Parse(%q) = %q, %v", in, r, err)
		}
	}
	if _, err := Parse("mood"); err == nil {
		t.Error("an unknown role was taken")
	}
}
