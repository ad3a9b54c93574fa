package api

import (
	"errors"
	"image/color"
	"testing"

	"easel/internal/testsupport/fixture"
)

// dall-e-3 does not edit (the spec's images/edits takes the GPT image
// models and dall-e-2): an edit to it is refused before it is sent,
// saying so; names Easel does not know are let through.
func TestEditsRefusesDallE3(t *testing.T) {
	for model, want := range map[string]bool{"dall-e-3": false, "openai/DALL-E-3": false, "dall-e-2": true, "gpt-image-1": true, "flux-kontext-pro": true} {
		if got := Edits(model); got != want {
			t.Errorf("Edits(%q) = %v, want %v", model, got, want)
		}
	}
	r := EditRequest{Prompt: "a blue sofa", Images: []InputImage{{Name: "a.png", Data: fixture.SolidPNG(t, 4, 4, color.Black)}}, ImageOptions: ImageOptions{Model: "dall-e-3"}}
	var e *Error
	if err := r.Check(DefaultLimits); !errors.As(err, &e) || !e.Preflight || e.Param != "model" {
		t.Fatalf("an edit to dall-e-3 checked %v, want a refusal of the model", err)
	}
	r.Model = "gpt-image-1"
	if err := r.Check(DefaultLimits); err != nil {
		t.Fatalf("an edit to gpt-image-1: %v", err)
	}
}
