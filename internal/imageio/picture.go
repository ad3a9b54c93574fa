package imageio

import (
	"bytes"
	"errors"
	"image"
	"image/draw"
	"sync"
	"sync/atomic"

	"easel/internal/catalogue"
	"easel/internal/colour"
)

// decodes counts whole decodes of large pictures, for Decodes.
var decodes atomic.Int64

// countedPixels is the size from which a decode is counted: a picture,
// not a thumbnail or an icon.
const countedPixels = 1 << 20

// Decodes is how many pictures of a megapixel or more this process has
// decoded whole (DecodeBounded): the benchmarks count what a masked
// edit's answer costs with it.
func Decodes() int64 { return decodes.Load() }

// Picture is an image's bytes and, once something asks, its pixels:
// decoded at most once however many steps need them. A 3840×2160 result
// is 33 MB of pixels and most of a second to decode, so a masked edit's
// answer must not be decoded once for the mask's honesty, again for the
// kept composite and again for each thumbnail. Safe for concurrent use:
// a second asker of the pixels waits for the first's decode; an asker of
// the bytes does not (the honesty figure reads the original's header
// while the composite decodes it).
type Picture struct {
	load func() ([]byte, error)
	// answer marks bytes a service sent: the vetter draws them before
	// this process decodes them (AnswerOf).
	answer bool

	loading sync.Mutex // guards loaded, data, loadErr
	loaded  bool
	data    []byte
	loadErr error

	mu      sync.Mutex // guards decoded, img, err; taken before loading
	decoded bool
	img     image.Image
	err     error
}

// PictureOf is the picture of data.
func PictureOf(data []byte) *Picture { return &Picture{data: data, loaded: true} }

// AnswerOf is the picture of data a service sent, which no child has
// drawn yet: its pixels are decoded here only after the vetter drew them
// (a masked edit's kept copy, a turn's drift), so a decoder's crash on a
// hostile answer costs a child, never the window. A picture the vetter
// refuses gives its reason as the decode's error.
func AnswerOf(data []byte) *Picture { return &Picture{data: data, loaded: true, answer: true} }

// PictureFrom is a picture whose bytes are read by load when first
// needed (a reference on disk).
func PictureFrom(load func() ([]byte, error)) *Picture { return &Picture{load: load} }

// pictureOfPixels is a picture made from pixels in hand: its bytes are
// data, already encoded from img.
func pictureOfPixels(data []byte, img image.Image) *Picture {
	return &Picture{data: data, loaded: true, img: img, decoded: true}
}

// Bytes are the picture's bytes, read once.
func (p *Picture) Bytes() ([]byte, error) {
	p.loading.Lock()
	defer p.loading.Unlock()
	if !p.loaded {
		p.data, p.loadErr = p.load()
		p.loaded = true
	}
	return p.data, p.loadErr
}

// Image is the picture decoded (within MaxPixels), once.
func (p *Picture) Image() (image.Image, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.decoded {
		var data []byte
		if data, p.err = p.Bytes(); p.err == nil && p.answer {
			p.err = Vet(bytes.NewReader(data))
		}
		if p.err == nil {
			p.img, p.err = DecodeBounded(bytes.NewReader(data), MaxPixels)
		}
		p.decoded = true
	}
	return p.img, p.err
}

// Decoded is the picture's pixels if something has decoded them, else
// nil: for a step that uses them when they are at hand and does without
// otherwise (a thumbnail made now, or later from the file).
func (p *Picture) Decoded() image.Image {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.img
}

// EditPictures are a masked edit's pictures once its answer came: each
// result, the first image sent and the mask, each decoded at most once
// and shared by everything that needs their pixels (the mask's honesty,
// the kept composite, the thumbnails, the card's before picture).
type EditPictures struct {
	Results  []*Picture
	Original *Picture
	Mask     *Picture
	// Source is the picture a kept composite takes its unmasked area
	// from (the first image before marks were drawn on it, or the one
	// sent); User is the user's own picture (Source, cut to a padded
	// upload's frame). Set only for an edit that keeps its unmasked area.
	Source, User *Picture

	keepOnce sync.Once
	kept     []*Picture
	keptErr  []error
	keptDone chan struct{}
}

// KeepFrom starts making each result's kept composite (Kept, from
// Source and Mask) on a goroutine of its own: encoding a 3840×2160
// composite takes a second, which runs beside the mask's honesty figure
// and the raw result's saving rather than after them. A second call does
// nothing; KeptResult waits for it.
func (e *EditPictures) KeepFrom(feather int, frame image.Rectangle) {
	e.keepOnce.Do(func() {
		e.kept, e.keptErr = make([]*Picture, len(e.Results)), make([]error, len(e.Results))
		e.keptDone = make(chan struct{})
		go func() {
			defer close(e.keptDone)
			for i, r := range e.Results {
				e.kept[i], e.keptErr[i] = Kept(r, e.Source, e.Mask, feather, frame)
			}
		}()
	})
}

// errNotKept is KeptResult's answer for a result no composite was begun
// for (a function: the language is chosen after package init).
func errNotKept() error {
	return errors.New(catalogue.T("the copy with the unmasked area kept was not made"))
}

// KeptResult is the i-th result's kept composite, once KeepFrom has
// made it.
func (e *EditPictures) KeptResult(i int) (*Picture, error) {
	if e.keptDone == nil {
		return nil, errNotKept()
	}
	<-e.keptDone
	if i < 0 || i >= len(e.kept) {
		return nil, errNotKept()
	}
	return e.kept[i], e.keptErr[i]
}

// Answered gives the pictures the answer's results, once.
func (e *EditPictures) Answered(results [][]byte) {
	if e == nil || len(e.Results) > 0 {
		return
	}
	for _, r := range results {
		e.Results = append(e.Results, AnswerOf(r))
	}
}

// Result is the i-th result's picture; nil when there is none.
func (e *EditPictures) Result(i int) *Picture {
	if e == nil || i < 0 || i >= len(e.Results) {
		return nil
	}
	return e.Results[i]
}

// Kept is result with the original's pixels put back where the mask
// kept them (KeepUnmaskedIn), from the shared pictures: the composite
// as PNG, its picture already decoded (for its thumbnail).
func Kept(result, original, mask *Picture, feather int, frame image.Rectangle) (*Picture, error) {
	// The original, the mask, then the result: the honesty figure asks
	// beside this for the result, the mask, then the original, so the
	// two decode different pictures at once and whichever is first
	// free takes the mask (the cores stay busy until all three are in).
	orig, err := original.Image()
	if err != nil {
		return nil, err
	}
	m, err := mask.Image()
	if err != nil {
		return nil, err
	}
	res, err := result.Image()
	if err != nil {
		return nil, err
	}
	space, res, err := inOriginalSpace(res, result, original)
	if err != nil {
		return nil, err
	}
	out, err := keepUnmasked(res, orig, m, feather, frame)
	if err != nil {
		return nil, err
	}
	data, err := EncodePNG(out)
	if err != nil {
		return nil, err
	}
	if space != nil {
		if tagged, ok := WithProfile(data, space.ICC, space.Name); ok {
			data = tagged
		}
	}
	return pictureOfPixels(data, out), nil
}

// inOriginalSpace is res, result's pixels, in the colour space original
// declares (nil: sRGB), and that space. An original in another space
// than sRGB (an Adobe RGB photograph) is kept in it: the result is taken
// into that space, so the kept area is the original's numbers unchanged
// and the composite carries the original's profile. A result that
// declares a space of its own (a route that answers in Display P3) is
// read in it.
func inOriginalSpace(res image.Image, result, original *Picture) (*colour.Space, image.Image, error) {
	if data, err := result.Bytes(); err == nil {
		if own := SpaceOf(data); own != nil {
			converted, err := own.ToSRGB(res)
			if err != nil {
				return nil, nil, err
			}
			res = converted
		}
	}
	originalBytes, err := original.Bytes()
	if err != nil {
		return nil, nil, err
	}
	space := SpaceOf(originalBytes)
	if space == nil {
		return nil, res, nil
	}
	converted, err := space.FromSRGB(res)
	return space, converted, err
}

// Cropped is p cut to r (in its own coordinates) as a PNG picture, from
// its pixels: the user's own picture inside a padded upload.
func Cropped(p *Picture, r image.Rectangle) (*Picture, error) {
	c, err := crop(p, r)
	if errors.As(err, new(outsideError)) {
		return p, nil
	}
	return c, err
}

// outsideError is crop's error for a part that lies outside the image.
type outsideError struct{}

func (outsideError) Error() string { return catalogue.T("the part to keep lies outside the image") }

// crop is the part r of p as a PNG picture, its pixels in hand.
func crop(p *Picture, r image.Rectangle) (*Picture, error) {
	img, err := p.Image()
	if err != nil {
		return nil, err
	}
	r = r.Add(img.Bounds().Min).Intersect(img.Bounds())
	if r.Empty() {
		return nil, outsideError{}
	}
	out := image.NewNRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(out, out.Rect, img, r.Min, draw.Src)
	data, err := EncodePNG(out)
	if err != nil {
		return nil, err
	}
	return pictureOfPixels(data, out), nil
}
