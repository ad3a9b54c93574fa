// Package api is Easel's client for an OpenAI-compatible image and chat
// service: typed requests for the four endpoints Easel speaks (image
// generation, image edits, chat completions, model list), results that carry
// the bytes the server sent, streamed progress, offline pre-flight checks,
// and one classified error type whose hint tells a designer what to do.
//
// The wire is net/http, encoding/json and mime/multipart: the bodies are
// the spec's (body.go), the answer comes back raw so that gateways which
// answer a stream request with plain JSON, or put an error inside a
// stream, are handled (sse.go), and so that a large base64 image is
// decoded without extra copies (wirestream.go). docs/decisions.md says why
// this is not openai-go.
//
// Nothing here imports Fyne: the window and the command line share it.
package api
