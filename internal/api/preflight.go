package api

import (
	"fmt"
	"image/color"
	"image/png"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"easel/internal/capability"
	"easel/internal/catalogue"
	"easel/internal/wording"
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

// inputFormats are the files the edits endpoint takes as references.
var inputFormats = []string{"image/png", "image/jpeg", "image/webp"}

// now is the day capability sheets are read at (tests move it).
var now = time.Now

// Option is one enumerated option of a request by its wire name, as a
// capability sheet knows it.
type Option struct{ Field, Value string }

// Options are o's enumerated options a capability sheet can know (those
// set, in a fixed order): what pre-flight judges and what the service's
// refusals are remembered by.
func (o ImageOptions) Options() []Option {
	all := []Option{{"quality", o.Quality}, {"background", o.Background}, {"output_format", o.OutputFormat},
		{"moderation", o.Moderation}, {"complexity", o.Complexity}, {"response_format", o.ResponseFormat}}
	out := all[:0]
	for _, op := range all {
		if op.Value != "" {
			out = append(out, op)
		}
	}
	return out
}

// LimitsFor are the size rules of model: its sheet's custom-size rules
// and reference count where it has them, else l's.
func LimitsFor(model string, l Limits) Limits {
	s, ok := capability.Lookup(model)
	if !ok {
		return l
	}
	if c := s.Sizes.Custom; c != nil {
		l.Multiple, l.MaxAspect, l.MaxSide, l.MinPixels, l.MaxPixels = c.Multiple, c.MaxAspect, c.MaxSide, c.MinPixels, c.MaxPixels
	}
	if s.MaxImages > 0 {
		l.MaxImages = s.MaxImages
	}
	return l
}

// preflight builds the error for a field that would be refused.
func preflight(kind Kind, field, problem, fix string) *Error {
	return &Error{Kind: kind, Param: field, Preflight: true, Message: sentence(problem), Hint: fix}
}

// sentence is problem as a sentence: a capital first and a full stop
// last, so a message begins with words, not a field's name.
func sentence(problem string) string {
	if problem == "" {
		return problem
	}
	if r, size := utf8.DecodeRuneInString(problem); size > 0 {
		problem = string(unicode.ToUpper(r)) + problem[size:]
	}
	return wording.FullStop(problem)
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
		return preflight(KindInvalidSize, "size", catalogue.F("the size %q is not a width and a height", size),
			catalogue.F("Write it as WIDTHxHEIGHT, for example 1536x864, or pick %s.", strings.Join(StandardSizes, ", ")))
	}
	if problem := l.sizeProblem(w, h); problem != "" {
		nw, nh := l.Nearest(w, h)
		return &Error{Kind: KindInvalidSize, Param: "size", Preflight: true,
			Message: catalogue.F("The size %dx%d %s.", w, h, problem),
			Hint:    catalogue.F("Try %dx%d, the nearest size that every rule allows, or pick %s.", nw, nh, strings.Join(StandardSizes, ", "))}
	}
	return nil
}

// sizeProblem says which custom-size rule w×h breaks, "" for none.
func (l Limits) sizeProblem(w, h int) string {
	long, short := max(w, h), min(w, h)
	switch {
	case w <= 0 || h <= 0:
		return catalogue.T("has a side of zero")
	case w%l.Multiple != 0 || h%l.Multiple != 0:
		return catalogue.F("needs both sides to be multiples of %d", l.Multiple)
	case float64(long) > l.MaxAspect*float64(short):
		return catalogue.F("is longer than %g times its short side", l.MaxAspect)
	case long > l.MaxSide:
		return catalogue.F("has a side over %d pixels", l.MaxSide)
	case w*h < l.MinPixels || w*h > l.MaxPixels:
		return catalogue.F("is %d pixels, outside %d–%d", w*h, l.MinPixels, l.MaxPixels)
	}
	return ""
}

// Nearest is the size closest to w×h that passes every custom-size rule:
// its aspect as near as the rules allow, its area as near as they allow,
// both sides multiples. A suggestion made from it never breaks a rule.
func (l Limits) Nearest(w, h int) (int, int) {
	w, h = max(w, 1), max(h, 1)
	// The aspect, clamped to the rule, and the area, clamped to its
	// bounds and to what the longest side allows at that aspect.
	ratio := float64(w) / float64(h)
	ratio = min(max(ratio, 1/l.MaxAspect), l.MaxAspect)
	area := min(max(float64(w*h), float64(l.MinPixels)), float64(l.MaxPixels))
	if side := float64(l.MaxSide); ratio >= 1 {
		area = min(area, side*side/ratio)
	} else {
		area = min(area, side*side*ratio)
	}
	tw, th := math.Sqrt(area*ratio), math.Sqrt(area/ratio)
	// The passing multiples around that ideal, the nearest side by side
	// (a tie goes to the larger, as rounding half up does).
	m := l.Multiple
	bw, bh, best := 0, 0, math.Inf(1)
	for cw := (int(tw)/m + 5) * m; cw >= (int(tw)/m-4)*m; cw -= m {
		for ch := (int(th)/m + 5) * m; ch >= (int(th)/m-4)*m; ch -= m {
			if cw <= 0 || ch <= 0 || l.sizeProblem(cw, ch) != "" {
				continue
			}
			d := math.Pow(float64(cw)-tw, 2) + math.Pow(float64(ch)-th, 2)
			if d < best {
				bw, bh, best = cw, ch, d
			}
		}
	}
	if bw == 0 {
		return 1024, 1024
	}
	return bw, bh
}

// oneOf refuses v when it is not one of allowed: for what is fixed by
// the wire itself (the references' file types), not for a model's
// options, which are its sheet's.
func oneOf(field, v string, allowed []string) error {
	if v == "" {
		return nil
	}
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return preflight(KindInvalidRequest, field, catalogue.F("the %s %q is not accepted", strings.ReplaceAll(field, "_", " "), v), catalogue.F("Use one of: %s.", strings.Join(allowed, ", ")))
}

// Check finds, before anything is sent, each option the service would
// refuse, and names the field and the fix. What a model takes is its
// capability sheet's: a value the sheet knows the model refuses stops
// here, a value it does not know goes to the service, which decides.
func (o ImageOptions) Check(l Limits) error {
	if strings.TrimSpace(o.Model) == "" {
		return preflight(KindInvalidRequest, "model", catalogue.T("no model is chosen"), catalogue.T("Pick an image model from the list, or type its id."))
	}
	if err := LimitsFor(o.Model, l).CheckSize(o.Size); err != nil {
		return err
	}
	if err := o.checkSheet(); err != nil {
		return err
	}
	if o.Background == "transparent" && o.OutputFormat == "jpeg" {
		return preflight(KindInvalidRequest, "background", catalogue.T("a transparent background needs PNG or WebP; JPEG has no transparency"),
			catalogue.T("Choose PNG or WebP, or an opaque background."))
	}
	if o.OutputCompression != nil {
		c := *o.OutputCompression
		if c < 0 || c > 100 {
			return preflight(KindInvalidRequest, "output_compression", catalogue.F("a quality of %d is outside 0–100", c), catalogue.T("Choose a quality from 0 to 100."))
		}
		if o.OutputFormat != "jpeg" && o.OutputFormat != "webp" {
			return preflight(KindInvalidRequest, "output_compression", catalogue.T("quality applies only to JPEG and WebP"),
				catalogue.T("Choose JPEG or WebP, or leave compression out."))
		}
	}
	if o.N < 0 || o.N > 10 {
		return preflight(KindInvalidRequest, "n", catalogue.F("%d images is more or fewer than the 1–10 a request takes", o.N), catalogue.T("Ask for 1 to 10 images."))
	}
	if o.PartialImages < 0 || o.PartialImages > 3 {
		return preflight(KindInvalidRequest, "partial_images", catalogue.F("%d previews is more or fewer than the 0–3 a request takes", o.PartialImages), catalogue.T("Ask for 0 to 3 previews."))
	}
	return o.checkGIF()
}

// checkSheet refuses a value the model's sheet knows it refuses (a
// value it took only for a time), naming the nearest it takes.
func (o ImageOptions) checkSheet() error {
	s, ok := capability.Lookup(o.Model)
	if !ok {
		return nil
	}
	at := now()
	for _, f := range o.Options() {
		v, w := s.Judge(f.Field, f.Value, at)
		if v != capability.Refuses {
			continue
		}
		problem := catalogue.F("the model %s does not take the %s %q", o.Model, strings.ReplaceAll(f.Field, "_", " "), f.Value)
		switch {
		case w.Until != "" && at.UTC().Format(time.DateOnly) >= w.Until:
			problem = catalogue.F("the model %s no longer takes the %s %q (it did from %s until %s)", o.Model, strings.ReplaceAll(f.Field, "_", " "), f.Value, orOpen(w.From), w.Until)
		case w.From != "":
			problem = catalogue.F("the model %s takes the %s %q only from %s", o.Model, strings.ReplaceAll(f.Field, "_", " "), f.Value, w.From)
		}
		hint := catalogue.T("Choose another value.")
		if near := s.Nearest(f.Field, f.Value, at); near != "" {
			hint = catalogue.F("Use %q, the nearest value it takes (its sheet: %s, %s).", near, s.Source, s.Date)
		}
		return preflight(KindInvalidRequest, f.Field, problem, hint)
	}
	return nil
}

// SheetSide is the long side of the sheet frames of w×h lie on: a grid
// as near square as the count allows (4 frames are 2×2, 5 are 3×2), as
// gateways describe GPT Image 2.6's animations.
func SheetSide(w, h, frames int) int {
	if frames <= 0 {
		return max(w, h)
	}
	cols := int(math.Ceil(math.Sqrt(float64(frames))))
	rows := (frames + cols - 1) / cols
	return max(cols*w, rows*h)
}

func orOpen(day string) string {
	if day == "" {
		return catalogue.T("the start")
	}
	return day
}

// checkGIF checks an animation against its model's sheet: its frames lie
// on one sheet, whose long side stays within the model's bound.
func (o ImageOptions) checkGIF() error {
	if o.OutputFormat != "gif" {
		if o.Frames > 0 || o.FrameMillis > 0 {
			return preflight(KindInvalidRequest, "frames", catalogue.T("frames apply only to a GIF"), catalogue.T("Choose the GIF format, or leave the frames out."))
		}
		return nil
	}
	if o.Frames < 0 || o.FrameMillis < 0 {
		return preflight(KindInvalidRequest, "frames", catalogue.T("a GIF's frames and their length cannot be negative"), catalogue.T("Ask for one frame or more."))
	}
	s, ok := capability.Lookup(o.Model)
	if !ok || s.GIF == nil || o.Frames == 0 {
		return nil
	}
	if s.GIF.MaxFrames > 0 && o.Frames > s.GIF.MaxFrames {
		return preflight(KindInvalidRequest, "frames", catalogue.F("%d frames is more than the %d a GIF of %s takes", o.Frames, s.GIF.MaxFrames, o.Model),
			catalogue.F("Ask for %d frames or fewer.", s.GIF.MaxFrames))
	}
	w, h, ok := ParseSize(o.Size)
	if !ok {
		w, h = 1024, 1024 // auto: the service's square
	}
	if side := SheetSide(w, h, o.Frames); s.GIF.MaxSheetSide > 0 && side > s.GIF.MaxSheetSide {
		fit := 1
		for SheetSide(w, h, fit+1) <= s.GIF.MaxSheetSide && fit < 1000 {
			fit++
		}
		return preflight(KindInvalidRequest, "frames", catalogue.F("%d frames of %dx%d lie on a sheet %d pixels long, over the %d the model draws", o.Frames, w, h, side, s.GIF.MaxSheetSide),
			catalogue.F("Ask for %d frames or fewer at this size, or a smaller size.", fit))
	}
	return nil
}

func checkPrompt(p string) error {
	if strings.TrimSpace(p) == "" {
		return preflight(KindInvalidRequest, "prompt", catalogue.T("the prompt is empty"), catalogue.T("Describe the image you want."))
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
	if !Edits(r.Model) {
		return preflight(KindInvalidRequest, "model", catalogue.F("%s does not edit images", r.Model),
			catalogue.T("Pick a GPT image model (gpt-image-1 and its kin) or dall-e-2 for edits."))
	}
	l = LimitsFor(r.Model, l)
	if len(r.Images) == 0 {
		return preflight(KindInvalidImage, "image", catalogue.T("there is no input image"), catalogue.T("Add at least one image to edit."))
	}
	if len(r.Images) > l.MaxImages {
		return preflight(KindInvalidImage, "image", catalogue.F("%d input images is more than the %d an edit takes", len(r.Images), l.MaxImages),
			catalogue.F("Remove %d of them.", len(r.Images)-l.MaxImages))
	}
	for i, img := range r.Images {
		if err := oneOf("image", http.DetectContentType(img.head()), inputFormats); err != nil {
			return preflight(KindInvalidImage, "image", catalogue.F("image %d (%s) is not PNG, JPEG or WebP", i+1, img.Name),
				catalogue.T("Convert it to PNG, JPEG or WebP."))
		}
	}
	if r.Mask != nil {
		if err := r.checkMask(); err != nil {
			return err
		}
	}
	return r.checkMarkup()
}

// checkMarkup refuses marks the service could not lay over the first
// image: not PNGs, or not of its size.
func (r EditRequest) checkMarkup() error {
	for _, mk := range []struct {
		field string
		img   *InputImage
	}{{"markup", r.Markup}, {"markup_alpha", r.MarkupAlpha}} {
		if mk.img == nil {
			continue
		}
		mc, err := mk.img.configBy(png.DecodeConfig)
		if err != nil {
			return preflight(KindInvalidImage, mk.field, catalogue.T("the marks are not a readable PNG"), catalogue.T("Draw the marks again in the window."))
		}
		if ic, err := r.Images[0].Config(); err == nil && (ic.Width != mc.Width || ic.Height != mc.Height) {
			return preflight(KindInvalidImage, mk.field, catalogue.F("the marks are %dx%d but the first image is %dx%d", mc.Width, mc.Height, ic.Width, ic.Height),
				catalogue.T("Draw the marks over the first image in the window, so they have its size."))
		}
	}
	return nil
}

// checkMask refuses, before anything is sent, a mask the service would
// refuse after the upload: not a PNG, without an alpha channel (its
// transparent pixels are what marks the area to change), or not the first
// image's size.
func (r EditRequest) checkMask() error {
	if http.DetectContentType(r.Mask.head()) != "image/png" {
		return preflight(KindInvalidImage, "mask", catalogue.T("the mask is not a PNG"), catalogue.T("Save the mask as a PNG with transparency where the image may change."))
	}
	mc, err := r.Mask.configBy(png.DecodeConfig)
	if err != nil {
		return preflight(KindInvalidImage, "mask", catalogue.T("the mask is a damaged PNG"), catalogue.T("Save the mask again as a PNG."))
	}
	if !hasAlpha(mc.ColorModel) {
		return preflight(KindInvalidImage, "mask", catalogue.T("the mask has no transparency (no alpha channel)"),
			catalogue.T("Save the mask as a PNG with an alpha channel: transparent where the image may change, opaque where it is kept."))
	}
	if ic, err := r.Images[0].Config(); err == nil && (ic.Width != mc.Width || ic.Height != mc.Height) {
		return preflight(KindInvalidImage, "mask", catalogue.F("the mask is %dx%d but the first image is %dx%d", mc.Width, mc.Height, ic.Width, ic.Height),
			catalogue.T("Make the mask exactly the first image's size, or paint it over that image in the window."))
	}
	return nil
}

// hasAlpha reports whether a PNG's colour model can hold transparency.
func hasAlpha(m color.Model) bool {
	switch m {
	case color.NRGBAModel, color.NRGBA64Model, color.RGBAModel, color.RGBA64Model, color.AlphaModel, color.Alpha16Model:
		return true
	}
	if p, ok := m.(color.Palette); ok {
		for _, c := range p {
			if _, _, _, a := c.RGBA(); a != 0xffff {
				return true
			}
		}
	}
	return false
}

// TakesCustomSizes reports whether a model takes any size the custom-size
// rules allow, as its capability sheet says (the gpt-image-2 families);
// others take the listed sizes only.
func TakesCustomSizes(model string) bool {
	s, ok := capability.Lookup(model)
	return ok && s.Sizes.Custom != nil
}

// MatchSize is the size to ask for so a result has the shape of a w×h
// image (Edit's "Match the first image"): for a model that takes custom
// sizes, the nearest size every rule allows; for others, the standard
// size whose shape is closest.
func MatchSize(model string, w, h int) string {
	if w <= 0 || h <= 0 {
		return "auto"
	}
	if TakesCustomSizes(model) {
		nw, nh := LimitsFor(model, DefaultLimits).Nearest(w, h)
		return fmt.Sprintf("%dx%d", nw, nh)
	}
	best, bestDiff := "1024x1024", math.Inf(1)
	for _, s := range StandardSizes {
		sw, sh, _ := ParseSize(s)
		if d := math.Abs(math.Log(float64(sw)/float64(sh)) - math.Log(float64(w)/float64(h))); d < bestDiff {
			best, bestDiff = s, d
		}
	}
	return best
}
