// Package colour converts pictures between the colour space an image file
// declares (its embedded ICC profile) and sRGB, the space the image
// service reads and writes and the screen is drawn in.
//
// The profile maths is kovidgoyal/imaging's prism/meta/icc (ICC v2 and
// v4, tested against Little CMS): Easel parses no profile itself. What
// lives here is the choice of intent and the per-pixel loop, which rounds
// to the nearest 8-bit value (the library's own image loop truncates,
// which moves a colour that is in both gamuts by one step).
package colour

import (
	"bytes"
	_ "embed" // the sRGB profile, for conversions out of sRGB
	"errors"
	"image"
	"image/draw"
	"math"
	"sync"

	"github.com/kovidgoyal/imaging/prism/meta/icc"

	"easel/internal/catalogue"
	"easel/internal/cores"
)

// srgbICC is Compact ICC Profiles' sRGB-v4 (CC0, 480 bytes): the source
// profile when a result the service sent in sRGB is taken into an
// original's space.
//
//go:embed srgb.icc
var srgbICC []byte

// intent keeps every colour both spaces can show at the same colour, and
// clips only those one of them cannot: a kept area must not shift, and an
// out-of-gamut colour becomes the nearest one inside, as Photoshop's
// "Relative Colorimetric" does. No black-point compensation: it would
// move in-gamut colours too.
const intent = icc.RelativeColorimetricRenderingIntent

// Space is a colour space an image declared: its ICC profile as the file
// carried it, and the conversions to and from sRGB, made once when first
// needed. Safe for concurrent use.
type Space struct {
	// ICC is the profile's bytes as the file carried them, and Name the
	// name the file gave it (PNG's iCCP names its profile); Description
	// is the profile's own name for itself ("Display P3").
	ICC         []byte
	Name        string
	Description string

	profile  *icc.Profile
	toOnce   sync.Once
	to       *icc.Pipeline
	toErr    error
	fromOnce sync.Once
	from     *icc.Pipeline
	fromErr  error
}

// ErrUnsupported is Parse's answer for a profile that is not RGB (a grey
// or CMYK profile, which Easel's decoders do not hand over as such).
var ErrUnsupported = errors.New("colour: not an RGB profile")

// Parse reads an ICC profile named name. A profile that describes sRGB
// itself is nil with no error: nothing needs converting. A profile whose
// sizes its bytes cannot hold is a *ProfileError, found before the ICC
// library is given it (check.go says why).
func Parse(profile []byte, name string) (s *Space, err error) {
	if err := check(profile); err != nil {
		return nil, err
	}
	defer recovered(&err)
	p, err := icc.DecodeProfile(bytes.NewReader(profile))
	if err != nil {
		return nil, err
	}
	if p.Header.DataColorSpace != icc.ColorSpaceRGB {
		return nil, ErrUnsupported
	}
	if p.IsSRGB() {
		return nil, nil
	}
	s = &Space{ICC: profile, Name: name, profile: p}
	if d, err := p.Description(); err == nil {
		s.Description = d
	}
	return s, nil
}

// Label is how the space is named to a person: the profile's own
// description, else the name the file gave it.
func (s *Space) Label() string {
	if s.Description != "" {
		return s.Description
	}
	return s.Name
}

// recovered turns a panic of the ICC library, on a profile check let
// through, into a ProfileError in *err: the fuzzer found tags of one type
// that the library takes for another, and more may remain.
func recovered(err *error) {
	if r := recover(); r != nil {
		*err = refuse(catalogue.F("the profile could not be read: %v", r))
	}
}

func (s *Space) toSRGB() (*icc.Pipeline, error) {
	s.toOnce.Do(func() {
		defer recovered(&s.toErr)
		s.to, s.toErr = s.profile.CreateTransformerToSRGB(intent, false, 3, true, false, true)
	})
	return s.to, s.toErr
}

func (s *Space) fromSRGB() (*icc.Pipeline, error) {
	s.fromOnce.Do(func() {
		defer recovered(&s.fromErr)
		srgb, err := icc.DecodeProfile(bytes.NewReader(srgbICC))
		if err != nil {
			s.fromErr = err
			return
		}
		pcs, err := srgb.CreateTransformerToPCS(intent, 3, true)
		if err != nil {
			s.fromErr = err
			return
		}
		device, err := s.profile.CreateTransformerToDevice(intent, false, true)
		if err != nil {
			s.fromErr = err
			return
		}
		s.from = pcs.Weld(device, true)
	})
	return s.from, s.fromErr
}

// ToSRGB is img's colours, read in s, as sRGB: what is sent to the
// service and drawn on the screen. img itself is left as it was.
func (s *Space) ToSRGB(img image.Image) (*image.NRGBA, error) {
	p, err := s.toSRGB()
	if err != nil {
		return nil, err
	}
	return apply(p, img)
}

// FromSRGB is img's colours, read as sRGB, in s: a result the service
// sent, taken into the space of the original it is put together with.
func (s *Space) FromSRGB(img image.Image) (*image.NRGBA, error) {
	p, err := s.fromSRGB()
	if err != nil {
		return nil, err
	}
	return apply(p, img)
}

// apply runs p over a copy of img's pixels, rows split among the CPUs:
// a 3840×2160 picture is eight million transforms of about 270 ns. Alpha
// is kept. A panic of the library's in a worker is an error, not the end
// of the process.
func apply(p *icc.Pipeline, img image.Image) (out *image.NRGBA, err error) {
	b := img.Bounds()
	out = image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(out, out.Rect, img, b.Min, draw.Src)
	rows := out.Rect.Dy()
	workers := min(cores.Workers(), max(1, rows/64))
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for w := range workers {
		wg.Go(func() {
			defer recovered(&errs[w])
			// A picture's colours repeat, near and far: each worker
			// remembers the answers for the last colours it met, one
			// per slot of a small table indexed by a hash of the
			// colour (exact: a slot holds its colour with its answer).
			var seen [cacheSlots]uint64
			for y := w * rows / workers; y < (w+1)*rows/workers; y++ {
				row := out.Pix[y*out.Stride : y*out.Stride+4*out.Rect.Dx()]
				for i := 0; i < len(row); i += 4 {
					key := uint64(row[i])<<16 | uint64(row[i+1])<<8 | uint64(row[i+2])
					slot := &seen[(key*0x9E3779B1>>8)%cacheSlots]
					if *slot>>32 != key|1<<24 {
						r, g, b := p.Transform(float64(row[i])/255, float64(row[i+1])/255, float64(row[i+2])/255)
						*slot = (key|1<<24)<<32 | uint64(to8(r))<<16 | uint64(to8(g))<<8 | uint64(to8(b))
					}
					row[i], row[i+1], row[i+2] = uint8(*slot>>16), uint8(*slot>>8), uint8(*slot)
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}

// cacheSlots is how many colours each worker of apply remembers.
const cacheSlots = 1 << 16

// to8 is v (0 to 1, clipped) as the nearest 8-bit value.
func to8(v float64) uint8 {
	return uint8(math.Round(max(0, min(v, 1)) * 255))
}
