// Package roles says what each reference image of an edit is for — the
// subject, the style to follow, the product, the background — in the
// words of the prompt, where the model takes several images: the
// service has no field for it, and a model told "image 2 is the style"
// stops copying image 2's subject. The window's reference board and
// `easel edit --role` both put it in here, so an edit sent either way
// says the same.
package roles

import (
	"errors"
	"fmt"
	"strings"

	"easel/internal/api"
	"easel/internal/capability"
	"easel/internal/catalogue"
)

// Role is what a reference image is for; "" is none said.
type Role string

// The roles a reference may have, in the order the board offers them.
const (
	None       Role = ""
	Subject    Role = "subject"
	Style      Role = "style"
	Product    Role = "product"
	Background Role = "background"
	Person     Role = "person"
	Logo       Role = "logo"
)

// All are the roles with a meaning, in the board's order.
func All() []Role { return []Role{Subject, Style, Product, Background, Person, Logo} }

// Parse reads a role's name as the command line takes it.
func Parse(s string) (Role, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" || s == "none" {
		return None, nil
	}
	for _, r := range All() {
		if string(r) == s {
			return r, nil
		}
	}
	return None, errors.New(catalogue.F("%q is not a role: subject, style, product, background, person, logo or none", s))
}

// phrase is what the prompt says of an image with the role: the service
// reads English, as it reads the marks' note.
func (r Role) phrase() string {
	switch r {
	case Style:
		return "the style to follow (its look, not its content)"
	case Background:
		return "the background or setting"
	case Person:
		return "the person to keep recognisable"
	}
	return "the " + string(r)
}

// Sentence is what the prompt says of roles (by image, in order), ""
// when none is given.
func Sentence(roles []Role) string {
	var parts []string
	for i, r := range roles {
		if r != None {
			parts = append(parts, fmt.Sprintf("image %d is %s", i+1, r.phrase()))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Reference images: " + strings.Join(parts, "; ") + "."
}

// Apply adds the roles' sentence to req's prompt when the model takes
// more than one image (a model that takes one has nothing to tell
// apart) and reports whether it did. A model Easel has no sheet for is
// told: unknown models are sent what is asked, not refused.
func Apply(req *api.EditRequest, roles []Role) bool {
	s := Sentence(roles[:min(len(roles), len(req.Images))])
	if s == "" {
		return false
	}
	if sheet, ok := capability.Lookup(req.Model); ok && sheet.MaxImages == 1 {
		return false
	}
	if strings.TrimSpace(req.Prompt) == "" {
		req.Prompt = s
	} else {
		req.Prompt = strings.TrimRight(req.Prompt, "\n ") + "\n\n" + s
	}
	return true
}
