package api

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// Limits are the custom-size rules the spec gives for models that take
// arbitrary sizes. They are configurable because providers change them.
type Limits struct {
	// Multiple is what both sides must be divisible by.
	Multiple int
	// MaxAspect is the largest ratio of long to short side.
	MaxAspect float64
	// MaxSide is the longest side allowed.
	MaxSide int
	// MinPixels and MaxPixels bound width×height.
	MinPixels, MaxPixels int
	// MaxImages is how many input images an edit takes.
	MaxImages int
}

// DefaultLimits are the spec's rules for gpt-image-2.
var DefaultLimits = Limits{Multiple: 16, MaxAspect: 3, MaxSide: 3840, MinPixels: 655_360, MaxPixels: 8_294_400, MaxImages: 16}

// listedSizes are the sizes the spec names; they are sent as they are,
// because each is valid for some model.
var listedSizes = map[string]bool{
	"auto": true, "1024x1024": true, "1536x1024": true, "1024x1536": true,
	"256x256": true, "512x512": true, "1792x1024": true, "1024x1792": true,
}

var (
	qualities    = []string{"auto", "low", "medium", "high", "standard", "hd"}
	backgrounds  = []string{"auto", "opaque", "transparent"}
	formats      = []string{"png", "jpeg", "webp"}
	moderations  = []string{"auto", "low"}
	respFormats  = []string{"url", "b64_json"}
	fidelities   = []string{"low", "high"}
	inputFormats = []string{"image/png", "image/jpeg", "image/webp"}
)

// preflight builds the error for a field that would be refused.
func preflight(kind Kind, field, problem, fix string) *Error {
	return &Error{Kind: kind, Param: field, Preflight: true,
		Message: field + ": " + problem, Hint: fix}
}

// ParseSize reads "WxH". ok is false for anything else, "auto" included.
func ParseSize(s string) (w, h int, ok bool) {
	ws, hs, found := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	if !found {
		return 0, 0, false
	}
	w, err1 := strconv.Atoi(strings.TrimSpace(ws))
	h, err2 := strconv.Atoi(strings.TrimSpace(hs))
	if err1 != nil || err2 != nil || w <= 0 || h <= 0 {
		return 0, 0, false
	}
	return w, h, true
}

// CheckSize applies the custom-size rules to size; listed sizes and the
// empty string (not sent) pass.
func (l Limits) CheckSize(size string) error {
	if size == "" || listedSizes[size] {
		return nil
	}
	w, h, ok := ParseSize(size)
	if !ok {
		return preflight(KindInvalidSize, "size", fmt.Sprintf("%q is not a size", size),
			"Write it as WIDTHxHEIGHT, for example 1536x864, or pick "+strings.Join(StandardSizes, ", ")+".")
	}
	if w%l.Multiple != 0 || h%l.Multiple != 0 {
		return preflight(KindInvalidSize, "size", fmt.Sprintf("%dx%d: both sides must be multiples of %d", w, h, l.Multiple),
			fmt.Sprintf("Try %dx%d.", roundTo(w, l.Multiple), roundTo(h, l.Multiple)))
	}
	long, short := max(w, h), min(w, h)
	if float64(long) > l.MaxAspect*float64(short) {
		return preflight(KindInvalidSize, "size", fmt.Sprintf("%dx%d is wider than %g:1", w, h, l.MaxAspect),
			fmt.Sprintf("Keep the long side at most %g times the short side, or use %s.", l.MaxAspect, strings.Join(StandardSizes, ", ")))
	}
	if long > l.MaxSide {
		return preflight(KindInvalidSize, "size", fmt.Sprintf("%dx%d has a side over %d", w, h, l.MaxSide),
			fmt.Sprintf("Keep both sides at most %d pixels.", l.MaxSide))
	}
	if px := w * h; px < l.MinPixels || px > l.MaxPixels {
		return preflight(KindInvalidSize, "size", fmt.Sprintf("%dx%d is %d pixels, outside %d–%d", w, h, px, l.MinPixels, l.MaxPixels),
			"Pick a size between about 1024x640 and 3840x2160, or use "+strings.Join(StandardSizes, ", ")+".")
	}
	return nil
}

func roundTo(v, m int) int {
	r := (v + m/2) / m * m
	if r == 0 {
		r = m
	}
	return r
}

func oneOf(field, v string, allowed []string) error {
	if v == "" {
		return nil
	}
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return preflight(KindInvalidRequest, field, fmt.Sprintf("%q is not accepted", v), "Use one of: "+strings.Join(allowed, ", ")+".")
}

// Check finds, before anything is sent, each option the service would
// refuse, and names the field and the fix.
func (o ImageOptions) Check(l Limits) error {
	if strings.TrimSpace(o.Model) == "" {
		return preflight(KindInvalidRequest, "model", "no model chosen", "Pick an image model from the list.")
	}
	if err := l.CheckSize(o.Size); err != nil {
		return err
	}
	for _, c := range []struct {
		field, v string
		allowed  []string
	}{
		{"quality", o.Quality, qualities}, {"background", o.Background, backgrounds},
		{"output_format", o.OutputFormat, formats}, {"moderation", o.Moderation, moderations},
		{"response_format", o.ResponseFormat, respFormats},
	} {
		if err := oneOf(c.field, c.v, c.allowed); err != nil {
			return err
		}
	}
	if o.Background == "transparent" && o.OutputFormat == "jpeg" {
		return preflight(KindInvalidRequest, "background", "a transparent background needs PNG or WebP; JPEG has no transparency",
			"Choose PNG or WebP, or an opaque background.")
	}
	if o.OutputCompression != nil {
		c := *o.OutputCompression
		if c < 0 || c > 100 {
			return preflight(KindInvalidRequest, "output_compression", fmt.Sprintf("%d is outside 0–100", c), "Choose a compression from 0 to 100.")
		}
		if o.OutputFormat != "jpeg" && o.OutputFormat != "webp" {
			return preflight(KindInvalidRequest, "output_compression", "compression applies only to JPEG and WebP",
				"Choose JPEG or WebP, or leave compression out.")
		}
	}
	if o.N < 0 || o.N > 10 {
		return preflight(KindInvalidRequest, "n", fmt.Sprintf("%d images is outside 1–10", o.N), "Ask for 1 to 10 images.")
	}
	if o.PartialImages < 0 || o.PartialImages > 3 {
		return preflight(KindInvalidRequest, "partial_images", fmt.Sprintf("%d previews is outside 0–3", o.PartialImages), "Ask for 0 to 3 previews.")
	}
	return nil
}

func checkPrompt(p string) error {
	if strings.TrimSpace(p) == "" {
		return preflight(KindInvalidRequest, "prompt", "the prompt is empty", "Describe the image you want.")
	}
	return nil
}

// Check validates a generation request before it is sent.
func (r GenerateRequest) Check(l Limits) error {
	if err := checkPrompt(r.Prompt); err != nil {
		return err
	}
	return r.ImageOptions.Check(l)
}

// Check validates an edit request before it is sent.
func (r EditRequest) Check(l Limits) error {
	if err := checkPrompt(r.Prompt); err != nil {
		return err
	}
	if err := r.ImageOptions.Check(l); err != nil {
		return err
	}
	if len(r.Images) == 0 {
		return preflight(KindInvalidImage, "image", "no input image", "Add at least one image to edit.")
	}
	if len(r.Images) > l.MaxImages {
		return preflight(KindInvalidImage, "image", fmt.Sprintf("%d images, at most %d are taken", len(r.Images), l.MaxImages),
			fmt.Sprintf("Remove %d of them.", len(r.Images)-l.MaxImages))
	}
	for i, img := range r.Images {
		if err := oneOf("image", http.DetectContentType(img.Data), inputFormats); err != nil {
			return preflight(KindInvalidImage, "image", fmt.Sprintf("image %d (%s) is not PNG, JPEG or WebP", i+1, img.Name),
				"Convert it to PNG, JPEG or WebP.")
		}
	}
	if r.Mask != nil && http.DetectContentType(r.Mask.Data) != "image/png" {
		return preflight(KindInvalidImage, "mask", "the mask is not a PNG", "Paint the mask again; masks are sent as PNG with transparency.")
	}
	return oneOf("input_fidelity", r.InputFidelity, fidelities)
}
