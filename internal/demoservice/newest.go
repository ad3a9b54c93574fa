package demoservice

import (
	"bytes"
	"fmt"
	"html"
	"image"
	"image/color/palette"
	"image/gif"
	"net/http"
	"slices"
	"strings"
	"time"

	"easel/internal/api"
)

// What the demo's models take, as the service answers it: the demo's own
// table, written from the same accounts as Easel's capability sheets but
// not read from them, so a sheet that is wrong shows as a refusal here.
// GPT Image 2.5 adds qualities xhigh and max; 2.6 adds complexity, GIF
// and SVG results and markup edits; gpt-image-2 took a transparent
// background from 2026-08-21 until 2026-09-30 only.

// takes is one model family's options.
type takes struct {
	qualities  []string
	formats    []string
	complexity bool
	markup     bool
	// transparentFrom and transparentUntil bound the days the family
	// took a transparent background; both empty: always.
	transparentFrom, transparentUntil string
	// tokens are the output tokens of one 1024×1024 picture by quality,
	// where they differ from gpt-image-1's table.
	tokens map[string]int
}

var (
	gptQualities    = []string{"low", "medium", "high", "auto"}
	newestQualities = []string{"low", "medium", "high", "xhigh", "max", "auto"}
	plainFormats    = []string{"png", "jpeg", "webp"}
	tokens25        = map[string]int{"low": 196, "medium": 439, "high": 1756, "xhigh": 3122, "max": 7024}
)

// familyTakes is what model takes; ok is false for a model the demo has
// no table for (a fault model, a chat model), whose options it does not
// check.
func familyTakes(model string) (takes, bool) {
	switch m := strings.ToLower(model); {
	case strings.HasPrefix(m, "gpt-image-2.6"):
		return takes{qualities: newestQualities, formats: append(slices.Clone(plainFormats), "gif", "svg"), complexity: true, markup: true, tokens: tokens25}, true
	case strings.HasPrefix(m, "gpt-image-2.5"):
		return takes{qualities: newestQualities, formats: plainFormats, tokens: tokens25}, true
	case strings.HasPrefix(m, "gpt-image-2"):
		return takes{qualities: gptQualities, formats: plainFormats, transparentFrom: "2026-08-21", transparentUntil: "2026-09-30"}, true
	case strings.HasPrefix(m, "gpt-image-1"):
		return takes{qualities: gptQualities, formats: plainFormats}, true
	case strings.HasPrefix(m, "dall-e-3"):
		return takes{qualities: []string{"standard", "hd"}}, true
	case strings.HasPrefix(m, "dall-e-2"):
		return takes{qualities: []string{"standard"}}, true
	}
	return takes{}, false
}

// today is the service's day: Config.Today when a test sets it.
func (s *Server) today() string {
	if s.cfg.Today != "" {
		return s.cfg.Today
	}
	return time.Now().UTC().Format(time.DateOnly)
}

// checkNewest answers the 400s the service gives for options its model
// does not take, in the service's words. It returns false when it has
// answered.
func (s *Server) checkNewest(w http.ResponseWriter, job *imageJob) bool {
	t, ok := familyTakes(job.model)
	if !ok {
		return true
	}
	bad := func(param, code, msg string) bool {
		writeError(w, http.StatusBadRequest, msg, "invalid_request_error", param, code)
		return false
	}
	if job.quality != "" && !slices.Contains(t.qualities, job.quality) {
		return bad("quality", "invalid_value", fmt.Sprintf("Invalid value: '%s'. Supported values are: %s.", job.quality, quoteList(t.qualities)))
	}
	if job.format != "" && t.formats != nil && !slices.Contains(t.formats, job.format) {
		return bad("output_format", "invalid_value", fmt.Sprintf("Invalid value: '%s'. Supported values are: %s.", job.format, quoteList(t.formats)))
	}
	if job.complexity != "" && !t.complexity {
		return bad("complexity", "unknown_parameter", "Unknown parameter: 'complexity'.")
	}
	if job.complexity != "" && !slices.Contains([]string{"low", "medium", "high"}, job.complexity) {
		return bad("complexity", "invalid_value", fmt.Sprintf("Invalid value: '%s'. Supported values are: 'low', 'medium', and 'high'.", job.complexity))
	}
	if job.markup != nil && !t.markup {
		return bad("markup", "unknown_parameter", "Unknown parameter: 'markup'.")
	}
	if job.background == "transparent" && t.transparentUntil != "" {
		if d := s.today(); d < t.transparentFrom || d >= t.transparentUntil {
			return bad("background", "", "Transparent background is not supported for this model.")
		}
	}
	if job.format == "gif" {
		frames := max(job.frames, 1)
		wd, ht := outputSize(job.size, job.base)
		if api.SheetSide(wd, ht, frames) > 3840 || frames > 24 {
			return bad("frames", "invalid_value", fmt.Sprintf("Invalid value for 'frames': %d frames of %dx%d do not fit a 3840-pixel sheet.", frames, wd, ht))
		}
	}
	return true
}

func quoteList(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = "'" + v + "'"
	}
	if len(q) > 1 {
		q[len(q)-1] = "and " + q[len(q)-1]
	}
	return strings.Join(q, ", ")
}

// newestTokens is one picture's output tokens for families with tables
// of their own, 0 for the rest.
func newestTokens(model, quality string, w, h int) int {
	t, ok := familyTakes(model)
	if !ok || t.tokens == nil {
		return 0
	}
	base := t.tokens[orDefault(quality, "high", "auto", "high")]
	return (base*w*h + 1024*1024 - 1) / (1024 * 1024)
}

// encodeGIF lays frames of the scene, each a step further on, into an
// animated GIF.
func (s *Server) encodeGIF(job imageJob, i, w, h int) ([]byte, error) {
	frames := max(job.frames, 1)
	delay := max(job.frameMillis, 100) / 10
	anim := &gif.GIF{LoopCount: 0}
	for f := range frames {
		scene := drawScene(fmt.Sprintf("%s #%d frame %d", job.prompt, i+1, f+1), w, h, false)
		anim.Image = append(anim.Image, webSafe(scene))
		anim.Delay = append(anim.Delay, delay)
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, anim); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// webSafe is an opaque scene in the 216 web-safe colours, each pixel's
// index worked out from its channels: draw.Draw's nearest-colour search
// over a palette took 30 s of CPU for four 1024² frames under -race,
// and the demo's flat scenes need no search.
func webSafe(scene *image.NRGBA) *image.Paletted {
	p := image.NewPaletted(scene.Rect, palette.WebSafe)
	step := func(v uint8) uint8 { return uint8((int(v) + 25) / 51) }
	for y := range scene.Rect.Dy() {
		src := scene.Pix[y*scene.Stride : y*scene.Stride+4*scene.Rect.Dx()]
		dst := p.Pix[y*p.Stride:]
		for x := range scene.Rect.Dx() {
			dst[x] = step(src[4*x])*36 + step(src[4*x+1])*6 + step(src[4*x+2])
		}
	}
	return p
}

// encodeSVG draws the scene as an SVG document: a sky, a sun and the
// prompt as its title.
func encodeSVG(job imageJob, i, w, h int) []byte {
	scene := drawScene(fmt.Sprintf("%s #%d", job.prompt, i+1), w, h, job.background == "transparent")
	top, bottom := scene.NRGBAAt(w/2, 1), scene.NRGBAAt(w/2, h-2)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`, w, h, w, h)
	fmt.Fprintf(&b, `<title>%s</title>`, html.EscapeString(job.prompt))
	fmt.Fprintf(&b, `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#%02x%02x%02x"/><stop offset="1" stop-color="#%02x%02x%02x"/></linearGradient></defs>`,
		top.R, top.G, top.B, bottom.R, bottom.G, bottom.B)
	if job.background != "transparent" {
		fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="url(#sky)"/>`, w, h)
	}
	fmt.Fprintf(&b, `<circle cx="%d" cy="%d" r="%d" fill="#ffd23c"/>`, w*2/3, h/3, min(w, h)/8)
	fmt.Fprintf(&b, `<path d="M0 %d L%d %d L%d %d L%d %d Z" fill="#2e5a3c"/>`, h, w/3, h*3/5, w*2/3, h*4/5, w, h)
	b.WriteString(`</svg>`)
	return []byte(b.String())
}

// Asked is what the last image request the service took asked for, as
// the wire carried it: tests read it to see an option really went.
type Asked struct {
	Model, Quality, Complexity, Format, Background, Prompt string
	Frames, FrameMillis                                    int
	// Markup is the size of the marks sent, zero for none.
	Markup image.Point
	// FirstImage is the size of the edit's first image, and First the
	// image itself, decoded as a service decodes it (its numbers read as
	// sRGB, whatever profile it carries).
	FirstImage image.Point
	First      image.Image
	// Turn is set when the request came through the Responses API, and
	// Previous is the previous_response_id it carried as the model saw
	// it ("" when none, or when the gateway dropped it).
	Turn     bool
	Previous string
	// Images is how many images the request carried.
	Images int
}

func (s *Server) remember(job imageJob) {
	a := Asked{Model: job.model, Prompt: job.prompt, Quality: job.quality, Complexity: job.complexity, Format: job.format,
		Background: job.background, Frames: job.frames, FrameMillis: job.frameMillis, Images: job.inputs}
	if job.markup != nil {
		a.Markup = job.markup.Bounds().Size()
	}
	if job.base != nil {
		a.FirstImage, a.First = job.base.Bounds().Size(), job.base
	}
	s.mu.Lock()
	s.asked = a
	s.mu.Unlock()
}

// LastAsked is what the last image request the service took asked for.
func (s *Server) LastAsked() Asked {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.asked
}
