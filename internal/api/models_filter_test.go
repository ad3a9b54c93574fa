package api

import (
	"slices"
	"testing"
)

func TestModelsFor(t *testing.T) {
	ms := []Model{
		{ID: "gpt-image-1", EndpointTypes: []string{"image-generation"}},
		{ID: "gpt-4.1", EndpointTypes: []string{"openai", "openai-response"}},
		{ID: "o3-pro", EndpointTypes: []string{"openai-response"}},
		{ID: "mystery"},
	}
	if got := ModelsFor(ms, EndpointImages); !slices.Equal(got, []string{"gpt-image-1", "mystery"}) {
		t.Errorf("images: %v", got)
	}
	if got := ModelsFor(ms, EndpointChat); !slices.Equal(got, []string{"gpt-4.1", "mystery"}) {
		t.Errorf("chat: %v", got)
	}
	plain := []Model{{ID: "a"}, {ID: "b"}}
	if got := ModelsFor(plain, EndpointChat); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("no types listed: %v", got)
	}
}
