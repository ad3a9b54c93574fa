// Package honesty compares what a request asked of the service with what
// its answer shows the service did. Gateways (new-api, one-api, sub2api,
// LiteLLM) quietly drop streaming, force one image, ignore masks, send
// links for inline images, rewrite prompts; nothing in the answer says
// so. Measuring each answer lets Easel tell the user in a sentence on the
// job card, keep it with the images, and remember per profile and model
// what the service honours (library's service traits), so the next
// request is shaped to what works.
package honesty

import (
	"fmt"
	"image"
	"strings"

	"easel/internal/api"
	"easel/internal/c2pa"
	"easel/internal/capability"
	"easel/internal/catalogue"
	"easel/internal/imageio"
)

// Trait is one thing a request can ask that a service may quietly not do.
// The values are stored in the library: never renamed.
type Trait string

// The traits measured on image answers.
const (
	// Stream: a stream of events with previews, not one JSON answer.
	Stream Trait = "stream"
	// StreamedEdit: an edit asked as a stream that the gateway can carry
	// (older new-api fails on them after the provider did the work).
	StreamedEdit Trait = "streamed_edit"
	// Previews: as many previews as asked.
	Previews Trait = "previews"
	// Count: n images in one request.
	Count Trait = "n"
	// Size: the pixel size asked.
	Size Trait = "size"
	// Format: png, jpeg or webp as asked.
	Format Trait = "format"
	// Transparency: a transparent background, alpha in the image.
	Transparency Trait = "transparency"
	// Inline: images inline (b64_json), not as links that expire.
	Inline Trait = "inline"
	// Prompt: the prompt used as written.
	Prompt Trait = "prompt"
	// Mask: the area the mask protects left as it was.
	Mask Trait = "mask"
	// StreamFails: image requests asked as a stream fail at the gateway
	// after the upstream did (and billed) the work (one-api cannot read
	// an image stream: 500 unmarshal_response_body_failed).
	StreamFails Trait = "stream_fails"
	// Responses: a thread's turn through the Responses API keeps the
	// earlier answer it names (previous_response_id); not honoured when
	// the route is missing, refuses the image tool or drops the id (Got
	// says which).
	Responses Trait = "responses"
	// Edits: the gateway takes image edits at all (one-api has no
	// /v1/images/edits).
	Edits Trait = "edits"
	// References: every reference image of an edit reaching the model,
	// as the service's own token count shows (LiteLLM #14488 dropped all
	// but the first).
	References Trait = "references"
	// Served: the model answered at all, under the name sent (a typed
	// model the service does not list is remembered by it).
	Served Trait = "served"
	// MaskShape: a masked edit answered at the first image's shape, so
	// what the mask protects can be compared at all.
	MaskShape Trait = "mask_shape"
	// Credentials: the Content Credentials the model's provider signs
	// its pictures with arrived with them (capability's Signed); a route
	// that re-encodes them drops the signature.
	Credentials Trait = "credentials"
	// Colours: a picture's embedded colour profile is one Easel can use.
	// One it cannot (damaged, unreadable, not RGB) leaves the picture
	// drawn as sRGB, not as made; measured only on pictures with a
	// profile.
	Colours Trait = "colours"
)

// MinImageTokens is the fewest input tokens one reference image costs
// (a small image at low fidelity; a 1024x1024 one costs about 135, 3,050
// at high fidelity): an edit of k images whose answer counts fewer than
// k times this did not show the model all k.
const MinImageTokens = 65

// Check is one trait measured on one answer.
type Check struct {
	Trait    Trait `json:"trait"`
	Honoured bool  `json:"honoured"`
	// Asked and Got say what was asked and what came, in the request's
	// own terms ("4", "1"; "1536x1024", "1024x1024"; a rewritten prompt).
	Asked string `json:"asked,omitempty"`
	Got   string `json:"got,omitempty"`
	// Changed is, for Mask, the share (0–1) of the protected pixels the
	// service changed visibly, measured before Easel puts them back.
	Changed float64 `json:"changed,omitempty"`
}

// Report is every check made on one answer. Restored says whether Easel
// put the protected area back (the job kept the unmasked area), which the
// mask's sentence tells.
type Report struct {
	Checks   []Check `json:"checks,omitempty"`
	Restored bool    `json:"restored,omitempty"`
}

// Departures are the checks the service did not honour, in order.
func (r Report) Departures() []Check {
	var out []Check
	for _, c := range r.Checks {
		if !c.Honoured {
			out = append(out, c)
		}
	}
	return out
}

// Find is the check of trait t, if one was made.
func (r Report) Find(t Trait) (Check, bool) {
	for _, c := range r.Checks {
		if c.Trait == t {
			return c, true
		}
	}
	return Check{}, false
}

// Sentences are the departures in words, one per departure, for the job
// card, the gallery's details and the command line. A mask check is said
// whatever its figure, as the figure is the point.
func (r Report) Sentences() []string {
	var out []string
	for _, c := range r.Checks {
		if c.Trait == Mask || !c.Honoured {
			out = append(out, c.sentence(r.Restored))
		}
	}
	return out
}

// MaskChangeThreshold is how far (0–255, in any channel) a protected
// pixel may move before it counts as changed: re-encoding and colour
// drift move pixels a little everywhere; a repaint moves them far.
const MaskChangeThreshold = 32

// MaskHonoured is the largest share of the protected area a service may
// change and still count as honouring the mask.
const MaskHonoured = 0.05

func (c Check) sentence(restored bool) string {
	switch c.Trait {
	case Stream:
		return catalogue.T("asked for a stream with previews, the service sent the whole answer at once (no previews)")
	case StreamedEdit:
		return catalogue.T("streamed edits fail through this service: the gateway could not read the provider's streamed answer")
	case Previews:
		return catalogue.F("asked for %s previews, the service sent %s", c.Asked, c.Got)
	case Count:
		return catalogue.F("asked for %s images, the service sent %s", c.Asked, c.Got)
	case Size:
		return catalogue.F("asked for %s, the service sent %s", c.Asked, c.Got)
	case Format:
		return catalogue.F("asked for %s, the service sent %s", strings.ToUpper(c.Asked), strings.ToUpper(c.Got))
	case Transparency:
		return catalogue.T("asked for a transparent background, the service sent an opaque image")
	case Inline:
		return catalogue.T("asked for the images inline, the service sent links (Easel downloaded them at once)")
	case Prompt:
		return catalogue.F("the service rewrote your prompt: “%s”", shorten(c.Got, 160))
	case MaskShape:
		return catalogue.F("the service answered at %s, not the first image's %s: whether it kept what your mask protects could not be measured", c.Got, c.Asked)
	case Credentials:
		return catalogue.T("the picture came without the Content Credentials its model's maker signs with: this route re-encoded or stripped them")
	case Colours:
		return catalogue.F("Easel could not draw this picture's colours as made: its embedded colour profile %s, so it is shown as sRGB (the file is kept as it came)", c.Got)
	case References:
		return catalogue.F("sent %s reference images, the service's own token count shows at most %s reached the model", c.Asked, c.Got)
	case Mask:
		return c.maskSentence(restored)
	}
	return catalogue.F("%s was not honoured", c.Trait)
}

// maskSentence says the share of the protected area the service changed,
// and whether Easel restored it.
func (c Check) maskSentence(restored bool) string {
	pct := int(c.Changed*100 + 0.5)
	switch {
	case c.Honoured && pct == 0:
		// "changed 0 %" read as a figure nobody measured.
		return catalogue.T("the service kept the area your mask protects: under one per cent of it changed")
	case c.Honoured:
		return catalogue.F("the service changed %d %% of the area your mask protects", pct)
	case restored:
		return catalogue.F("the service changed %d %% of the area your mask protects; Easel restored it", pct)
	}
	return catalogue.F("the service changed %d %% of the area your mask protects; keep the unmasked area to restore it", pct)
}

func shorten(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// Asked is what a request asked for, as far as the answer can show it.
type Asked struct {
	Options api.ImageOptions
	Prompt  string
	// Edit marks the edits endpoint; Pictures are its first image and
	// mask, when it had one, decoded once for all that needs them (and
	// given the results' pictures when the answer comes).
	Edit     bool
	Pictures *imageio.EditPictures
	// Inputs is how many images an edit sent.
	Inputs int
}

// AskedOf is what a generation or an edit asked (exactly one is set).
func AskedOf(gen *api.GenerateRequest, edit *api.EditRequest) Asked {
	if gen != nil {
		return Asked{Options: gen.ImageOptions, Prompt: gen.Prompt}
	}
	a := Asked{Options: edit.ImageOptions, Prompt: edit.Prompt, Edit: true, Inputs: len(edit.Images)}
	if edit.Mask != nil && len(edit.Images) > 0 {
		// The first image whole, read from disk when it is a file and
		// first needed; an unreadable one leaves the mask's honesty
		// unmeasured.
		a.Pictures = &imageio.EditPictures{Original: imageio.PictureFrom(edit.Images[0].Bytes), Mask: imageio.PictureOf(edit.Mask.Data)}
	}
	return a
}

// Measure compares an answer with what was asked. It decodes images only
// for the traits that need pixels (transparency, the mask).
func Measure(a Asked, res *api.ImageResult) Report {
	var r Report
	o := a.Options
	add := func(t Trait, ok bool, asked, got string) {
		r.Checks = append(r.Checks, Check{Trait: t, Honoured: ok, Asked: asked, Got: got})
	}
	if o.Stream {
		add(Stream, res.Streamed, "stream", map[bool]string{true: "stream", false: "json"}[res.Streamed])
		if res.Streamed && o.PartialImages > 0 {
			want := o.PartialImages * max(o.N, 1)
			add(Previews, res.Previews > 0, fmt.Sprint(want), fmt.Sprint(res.Previews))
		}
	}
	if n := o.N; n > 1 {
		// One image asked says nothing of whether several would come.
		add(Count, len(res.Images) >= n, fmt.Sprint(n), fmt.Sprint(len(res.Images)))
	}
	if w, h, ok := api.ParseSize(o.Size); ok && len(res.Images) > 0 {
		img := res.Images[0]
		add(Size, img.Width == w && img.Height == h, fmt.Sprintf("%dx%d", w, h), fmt.Sprintf("%dx%d", img.Width, img.Height))
	}
	if o.OutputFormat != "" && len(res.Images) > 0 {
		got := res.Images[0].Format
		add(Format, got == o.OutputFormat, o.OutputFormat, got)
	}
	if o.Background == "transparent" && len(res.Images) > 0 {
		alpha := hasAlpha(res.Images[0].Data)
		add(Transparency, alpha, "transparent", map[bool]string{true: "transparent", false: "opaque"}[alpha])
	}
	if o.ResponseFormat == "b64_json" || o.ResponseFormat == "" && !api.LinksByDefault(o.Model) {
		add(Inline, res.Linked == 0, "b64_json", map[bool]string{true: "b64_json", false: "url"}[res.Linked == 0])
	}
	for _, img := range res.Images {
		if rp := strings.TrimSpace(img.RevisedPrompt); rp != "" && rp != strings.TrimSpace(a.Prompt) {
			add(Prompt, false, a.Prompt, rp)
			break
		}
	}
	if u := res.Usage; a.Inputs > 1 && u != nil && u.ImageTokens > 0 {
		reached := max(1, u.ImageTokens/MinImageTokens)
		add(References, u.ImageTokens >= MinImageTokens*int64(a.Inputs), fmt.Sprint(a.Inputs), fmt.Sprint(min(reached, int64(a.Inputs))))
	}
	r.Checks = append(r.Checks, credentials(o.Model, res)...)
	r.Checks = append(r.Checks, profiles(res)...)
	r.Checks = append(r.Checks, valuesTaken(o)...)
	if len(res.Images) > 0 {
		r.Checks = append(r.Checks, Check{Trait: Served, Honoured: true, Asked: o.Model, Got: o.Model})
	}
	if p := a.Pictures; p != nil && len(res.Images) > 0 {
		p.Answered(ResultData(res))
		original, _ := p.Original.Bytes()
		if share, ok := MaskChangeOf(p.Result(0), p.Original, p.Mask); ok {
			r.Checks = append(r.Checks, Check{Trait: Mask, Honoured: share <= MaskHonoured, Changed: share})
		} else if _, ow, oh, err := imageio.SniffImage(original); err == nil {
			// Answered at another shape: nothing can be said of the mask
			// but that, which is said rather than nothing.
			img := res.Images[0]
			asked, got := fmt.Sprintf("%dx%d", ow, oh), fmt.Sprintf("%dx%d", img.Width, img.Height)
			r.Checks = append(r.Checks, Check{Trait: MaskShape, Honoured: false, Asked: asked, Got: got})
		}
	}
	return r
}

// FromError is what a failed request shows the service cannot do: a
// streamed edit the gateway could not read, a transparent background the
// model refuses. Most failures show nothing of the kind.
func FromError(a Asked, e *api.Error) []Check {
	if e == nil {
		return nil
	}
	switch {
	case a.Edit && a.Options.Stream && e.Kind == api.KindBadResponse && (e.Code == "bad_response_body" || e.Code == "read_response_body_failed"):
		return []Check{{Trait: StreamedEdit, Honoured: false, Asked: "stream", Got: e.Code}}
	case a.Edit && e.NotOffered:
		return []Check{{Trait: Edits, Honoured: false, Asked: "edit", Got: "not offered"}}
	case a.Options.Stream && (e.Code == "unmarshal_response_body_failed" || e.Code == "read_response_body_failed" && !a.Edit):
		return []Check{{Trait: StreamFails, Honoured: false, Asked: "stream", Got: e.Code}}
	case a.Options.Background == "transparent" && e.Param == "background":
		return []Check{{Trait: Transparency, Honoured: false, Asked: "transparent", Got: "refused"}}
	}
	if c, ok := valueRefused(a, e); ok {
		return []Check{c}
	}
	return nil
}

// hasAlpha reports whether an image has any pixel that is not opaque:
// decoded here only once the vetter has drawn it (imageio.AnswerOf).
func hasAlpha(data []byte) bool {
	img, err := imageio.AnswerOf(data).Image()
	if err != nil {
		return false
	}
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return !o.Opaque()
	}
	return true
}

// ResultData are the answer's images' bytes, in order.
func ResultData(res *api.ImageResult) [][]byte {
	out := make([][]byte, len(res.Images))
	for i, img := range res.Images {
		out[i] = img.Data
	}
	return out
}

// MaskChangeOf is MaskChange of pictures decoded once for all.
func MaskChangeOf(result, original, mask *imageio.Picture) (share float64, ok bool) {
	return DriftOf(result, original, mask)
}

// DriftOf is the share of before's pixels that result changed (by more
// than MaskChangeThreshold in a channel) where mask protects them, or
// everywhere when mask is nil: how far a thread's turn strayed outside
// the marks. A result of another size is compared scaled to before's
// frame, as Easel would restore it.
func DriftOf(result, before, mask *imageio.Picture) (share float64, ok bool) {
	c, ok := align(result, before, mask)
	if !ok {
		return 0, false
	}
	protected, changed := 0, 0
	c.each(func(_ int, kept, moved bool) {
		if kept {
			protected++
			if moved {
				changed++
			}
		}
	})
	if protected == 0 {
		return 0, false
	}
	return float64(changed) / float64(protected), true
}

// ChangeMap is where result changed before (as DriftOf counts it), drawn
// over the result faded: what changed where the mask protects it in
// red, what changed where it let the picture change in blue, the rest
// as it is, faint; ok is false when the two cannot be compared.
func ChangeMap(result, before, mask *imageio.Picture) (*image.NRGBA, bool) {
	c, ok := align(result, before, mask)
	if !ok {
		return nil, false
	}
	out := image.NewNRGBA(c.result.Rect)
	c.each(func(i int, kept, moved bool) {
		p, r := out.Pix[i:i+4:i+4], c.result.Pix[i:i+4:i+4]
		switch {
		case moved && kept:
			p[0], p[1], p[2] = 230, 40, 40
		case moved:
			p[0], p[1], p[2] = 60, 110, 230
		default:
			grey := (uint32(r[0])*3 + uint32(r[1])*6 + uint32(r[2])) / 10
			p[0], p[1], p[2] = uint8(160+grey/4), uint8(160+grey/4), uint8(160+grey/4)
		}
		p[3] = 255
	})
	return out, true
}

// aligned are a result and the picture before it on one frame (the
// result scaled to it as Easel would restore it), with where the mask
// protects it.
type aligned struct {
	result, before *image.NRGBA
	keep           *image.Alpha
}

func align(result, before, mask *imageio.Picture) (aligned, bool) {
	// The result, the mask, then the picture before: a kept edit's
	// composite asks for them the other way round beside this
	// (imageio.Kept), so the two decode different pictures at once and
	// the first to finish takes the mask.
	res, err := result.Image()
	if err != nil {
		return aligned{}, false
	}
	var m image.Image
	if mask != nil {
		if m, err = mask.Image(); err != nil {
			return aligned{}, false
		}
	}
	orig, err := before.Image()
	if err != nil {
		return aligned{}, false
	}
	keep, ok := protected(m, orig.Bounds().Size())
	if !ok {
		return aligned{}, false
	}
	var onFrame *image.NRGBA
	if res.Bounds().Size() == orig.Bounds().Size() {
		onFrame = imageio.AsNRGBA(res)
	} else if onFrame, err = imageio.Composite(res, orig, image.NewAlpha(keep.Rect), 0); err != nil {
		return aligned{}, false
	}
	return aligned{result: onFrame, before: imageio.AsNRGBA(orig), keep: keep}, true
}

// each calls f for every pixel: its offset in the result's Pix, whether
// the mask protects it and whether it moved by more than
// MaskChangeThreshold in a channel.
func (a aligned) each(f func(i int, kept, moved bool)) {
	w := a.keep.Rect.Dx()
	for y := 0; y < a.keep.Rect.Dy(); y++ {
		k := a.keep.Pix[y*a.keep.Stride : y*a.keep.Stride+w]
		r, q := a.result.Pix[y*a.result.Stride:y*a.result.Stride+4*w], a.before.Pix[y*a.before.Stride:y*a.before.Stride+4*w]
		for x, v := range k {
			i := 4 * x
			f(y*a.result.Stride+i, v >= 250, far(r[i], q[i]) || far(r[i+1], q[i+1]) || far(r[i+2], q[i+2]))
		}
	}
}

// protected is where the mask's pixels m protect a picture of size:
// everywhere when there is no mask; ok is false when m is of another
// size.
func protected(m image.Image, size image.Point) (*image.Alpha, bool) {
	if m == nil {
		keep := image.NewAlpha(image.Rectangle{Max: size})
		for i := range keep.Pix {
			keep.Pix[i] = 0xff
		}
		return keep, true
	}
	if m.Bounds().Size() != size {
		return nil, false
	}
	return imageio.KeepAlpha(m), true
}

// far says whether two levels of a channel differ by more than
// MaskChangeThreshold.
func far(a, b uint8) bool {
	d := int(a) - int(b)
	return d > MaskChangeThreshold || d < -MaskChangeThreshold
}

// profiles checks the colour profiles the answer's pictures carry: the
// first one Easel cannot use is the check, else one that all were read.
// No check for an answer with no profile at all.
func profiles(res *api.ImageResult) []Check {
	seen := false
	for _, img := range res.Images {
		if why, bad := imageio.ProfileTrouble(img.Data); bad {
			return []Check{{Trait: Colours, Asked: "profile", Got: why}}
		}
		seen = seen || imageio.DeclaredColours(img.Data).Profile
	}
	if !seen {
		return nil
	}
	return []Check{{Trait: Colours, Honoured: true, Asked: "profile", Got: "profile"}}
}

// credentials checks that every picture of an answer from a model whose
// provider signs (capability's Signed) carries Content Credentials whose
// signer Easel can verify: a manifest anyone could have made (a
// self-signed "OpenAI") is not the provider's, so it does not count. No
// check for another model, nor for a picture Easel could not read.
func credentials(model string, res *api.ImageResult) []Check {
	sheet, ok := capability.Lookup(model)
	if !ok || sheet.Signed == nil || len(res.Images) == 0 {
		return nil
	}
	missing := 0
	for _, img := range res.Images {
		if c, _ := c2pa.Read(img.Data); c.Check != c2pa.Valid {
			missing++
		}
	}
	got := map[bool]string{true: "signed", false: "unsigned"}[missing == 0]
	return []Check{{Trait: Credentials, Honoured: missing == 0, Asked: "signed", Got: got}}
}
