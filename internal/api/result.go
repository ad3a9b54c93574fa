package api

import (
	"time"

	"easel/internal/catalogue"
)

// ImageResult is what one generation or edit produced.
type ImageResult struct {
	Images []Image
	// Created is when the service made the images.
	Created time.Time
	// Usage is the token count, when the service reports it.
	Usage *Usage
	// RequestID identifies the request to the provider.
	RequestID string
	// Size, Quality, Background and OutputFormat are what the service says
	// it used (it resolves "auto").
	Size, Quality, Background, OutputFormat string
	// Dropped is how many images the service sent beyond those asked
	// for, and DroppedPreviews how many previews beyond those asked for
	// (or broken): neither is kept, and the caller says so once.
	Dropped, DroppedPreviews int
	// Streamed is whether the answer came as a stream of events (a
	// gateway may answer a stream request with plain JSON), Previews how
	// many previews arrived, and Linked how many images came as links
	// rather than inline: how the service delivered, beside what was
	// asked (package honesty compares them).
	Streamed bool
	Previews int
	Linked   int
	// Undecoded are images the service sent whose bytes are no image
	// Easel reads: paid for, so kept apart by the caller, never dropped.
	Undecoded []Undecoded
	// Response is the Responses API's id of the answer, for a turn sent
	// through it (the next turn's previous_response_id); Continued is
	// the previous_response_id the answer says it continued, "" when it
	// names none (a gateway that dropped it).
	Response, Continued string
}

// Undecoded is one image's bytes as the service sent them, and why they
// are not an image.
type Undecoded struct {
	Data   []byte
	Reason error
}

// UndecodedError is an answer whose every image was unreadable: the
// bytes ride with the error, so the caller can keep them and say where.
type UndecodedError struct {
	Images []Undecoded
}

func (e *UndecodedError) Error() string {
	return catalogue.N("the service sent %d images Easel cannot read: %v", len(e.Images), len(e.Images), e.Images[0].Reason)
}

// Image is one picture, with the bytes exactly as the server sent them.
type Image struct {
	Data []byte
	// Format is png, jpeg or webp, read from the bytes themselves.
	Format        string
	Width, Height int
	// RevisedPrompt is the prompt the service actually used (dall-e-3).
	RevisedPrompt string
}

// Usage is the token count of a request.
type Usage struct {
	InputTokens, OutputTokens, TotalTokens int64
	// TextTokens and ImageTokens split the input, for images.
	TextTokens, ImageTokens int64
	// Implausible marks usage the service reported that no request
	// makes (a negative or enormous count): its figures are dropped, and
	// what the request cost is its estimate, said so.
	Implausible bool `json:",omitempty"`
}

// Partial is a preview that arrives while an image is streamed.
type Partial struct {
	// Index is the preview's number, from 0.
	Index  int
	Data   []byte
	Format string
	// Image is which of the request's images this belongs to, from 0:
	// a stream of several images sends each one's previews, then that
	// image, then the next's. Final marks the image itself, as it
	// arrived, before the rest of the stream: "image 2 of 4".
	Image int
	Final bool
}

// ChatResult is a finished chat reply.
type ChatResult struct {
	Content string
	// Reasoning is what a thinking model sent as reasoning_content.
	Reasoning    string
	FinishReason string
	Model        string
	Usage        *Usage
	RequestID    string
}

// Model is one entry of the service's model list.
type Model struct {
	ID      string
	OwnedBy string
	Created time.Time
	// EndpointTypes is what the model serves, when the gateway says
	// (new-api's supported_endpoint_types); empty means unknown.
	EndpointTypes []string
}
