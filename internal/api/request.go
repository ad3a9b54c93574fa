package api

// ImageOptions are the settings shared by generation and edits. The zero
// value of each field means "not sent": the server's default applies, which
// is what a gateway that does not know a parameter needs.
type ImageOptions struct {
	// Model is the image model's id exactly as the service lists it.
	Model string
	// Size is "auto", a preset such as "1536x1024", or a custom "WxH".
	Size string
	// Quality is what the model's capability sheet offers (auto, low,
	// medium, high; xhigh and max on GPT Image 2.5 and later; standard,
	// hd on dall-e-3), or any value the user types: it is sent as given.
	Quality string
	// Background is auto, opaque or transparent; transparent needs png or webp.
	Background string
	// OutputFormat is png, jpeg or webp; gif and svg on the models whose
	// sheet says so.
	OutputFormat string
	// OutputCompression is 0–100, only for jpeg and webp; nil means not sent.
	OutputCompression *int
	// Moderation is auto or low.
	Moderation string
	// N is how many images to make, 1–10; 0 means not sent (one image).
	N int
	// Stream asks for server-sent events with partial previews.
	Stream bool
	// PartialImages is 0–3 previews while streaming.
	PartialImages int
	// ResponseFormat is url or b64_json, for the dall-e models only.
	ResponseFormat string
	// Complexity is low, medium or high (GPT Image 2.6): how much detail
	// the model works in; empty means not sent (the model's default).
	Complexity string
	// Frames and FrameMillis ask a GIF result for that many frames of
	// that many milliseconds each; 0 means not sent. The wire names are
	// the model's sheet's (capability.GIF).
	Frames, FrameMillis int
}

// GenerateRequest is one text-to-image call.
type GenerateRequest struct {
	Prompt string
	ImageOptions
}

// EditRequest is one image-edit call. Images keep the user's order, because
// prompts refer to "the first" and "the second" image; Mask, when set,
// applies to the first image.
type EditRequest struct {
	Prompt string
	ImageOptions
	Images []InputImage
	Mask   *InputImage
	// InputFidelity is high or low; empty means not sent.
	InputFidelity string
	// Markup and MarkupAlpha are a markup edit's marks, drawn over the
	// first image and of its size: the marks as a PNG with transparency,
	// and their coverage as a greyscale PNG. Sent only to a model whose
	// sheet takes markup.
	Markup, MarkupAlpha *InputImage
	// Turn, when set, sends the edit as a thread's turn through the
	// Responses API's image tool instead of the Images API.
	Turn *ResponsesTurn
}

// ResponsesTurn is how a thread's turn goes through the Responses API.
type ResponsesTurn struct {
	// Previous is the Responses id of the answer the turn continues: the
	// service keeps that conversation, images and all. "" starts one
	// from the images sent.
	Previous string
	// WithImage sends the first image too when there is a Previous: a
	// gateway not yet known to keep what it is given still edits the
	// right picture.
	WithImage bool
}

// InputImage is one file sent to the edits endpoint.
type InputImage struct {
	// Name is the file name the server sees (its extension matters to some
	// gateways).
	Name string
	// ContentType is image/png, image/jpeg or image/webp.
	ContentType string
	// Data is the image's bytes when Easel made or converted them. A
	// file sent as it is has Path (and its Size) instead: it is read
	// from disk as it goes on the wire, so an edit of sixteen 50 MB
	// references never holds them in memory (see Open).
	Data []byte
	Path string
	Size int64
}

// ChatRequest is one chat completion call.
type ChatRequest struct {
	Model    string
	Messages []Message
	// Temperature and MaxTokens are sent only when set.
	Temperature *float64
	MaxTokens   *int
	// Stream asks for text deltas as they are generated.
	Stream bool
	// IncludeUsage asks a stream to end with the reply's token usage
	// (stream_options.include_usage), which streams omit otherwise.
	IncludeUsage bool
	// OnReasoning, when set, gets a thinking model's reasoning as it
	// streams (reasoning_content), apart from the reply.
	OnReasoning func(string)
}

// Message is one turn of a conversation.
type Message struct {
	// Role is system, user or assistant.
	Role    string
	Content string
	// Images go with a user's text as the widely used content parts
	// (text, then image_url data URLs), for models that see images.
	Images []InputImage
}

// Roles of a chat message, as the service names them.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
)
