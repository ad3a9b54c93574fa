// Package markup is a markup edit's marks: pen strokes, arrows, circles
// and short notes drawn in a bright colour over the first image, telling
// the model what to change there. GPT Image 2.6 takes them as they are
// (the edit's markup and markup_alpha parts); for any other model the
// marks are drawn onto a copy of the first image, which is sent in its
// place, and the prompt asks the model to follow them. Either way the
// unmasked area is kept from the first image as the user gave it, never
// from the copy with the marks.
//
// The strokes are drawn by rasterx (antialiased, round caps), the notes
// in the system font that has their script (internal/labelfont). It
// knows nothing of Fyne: the window's painter and the command line both
// make requests through Apply.
package markup

import (
	"bytes"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/draw"
	"math"

	"github.com/srwiley/rasterx"
	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"

	"easel/internal/api"
	"easel/internal/capability"
	"easel/internal/catalogue"
	"easel/internal/imageio"
	"easel/internal/labelfont"
)

// Kind is what one mark is.
type Kind string

// The kinds of mark.
const (
	Pen    Kind = "pen"
	Arrow  Kind = "arrow"
	Circle Kind = "circle"
	Note   Kind = "note"
)

// Mark is one mark, in the first image's pixels: a pen's path, an
// arrow's tail and head, a circle's centre and a point on it, a note's
// place (its text's baseline start).
type Mark struct {
	Kind   Kind         `json:"kind"`
	Points [][2]float64 `json:"points"`
	Text   string       `json:"text,omitempty"`
}

// Marks are an edit's marks and their colour.
type Marks struct {
	Colour color.NRGBA `json:"colour"`
	Items  []Mark      `json:"items"`
}

// Bright is the marks' colour unless the user picks another: a blue few
// photographs are full of, and far from the pink the painter tints the
// mask in (a red beside it made "what may change" and "what I point at"
// look alike).
var Bright = color.NRGBA{R: 0x0a, G: 0x84, B: 0xff, A: 0xff}

// MaxMarks and MaxNote bound what a request carries: marks are a few
// gestures, notes a few words.
const (
	MaxMarks = 500
	MaxNote  = 80
)

// Empty reports whether there is nothing to send.
func (m Marks) Empty() bool { return len(m.Items) == 0 }

// Width is the stroke width for an image of w×h: about a two-hundredth
// of its long side, so marks read at any size.
func Width(w, h int) float64 { return math.Max(3, float64(max(w, h))/200) }

// Render draws the marks on a transparent w×h canvas.
func (m Marks) Render(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	if m.Colour.A == 0 {
		m.Colour = Bright
	}
	width := Width(w, h)
	scanner := rasterx.NewScannerGV(w, h, img, img.Bounds())
	d := rasterx.NewDasher(w, h, scanner)
	d.SetColor(m.Colour)
	d.SetStroke(fixed.Int26_6(width*64), 4*64, rasterx.RoundCap, nil, rasterx.RoundGap, rasterx.Round, nil, 0)
	at := func(p [2]float64) fixed.Point26_6 {
		return fixed.Point26_6{X: fixed.Int26_6(p[0] * 64), Y: fixed.Int26_6(p[1] * 64)}
	}
	line := func(pts ...[2]float64) {
		d.Clear()
		d.Start(at(pts[0]))
		for _, p := range pts[1:] {
			d.Line(at(p))
		}
		d.Stop(false)
		d.Draw()
	}
	for _, mk := range m.Items {
		switch {
		case mk.Kind == Pen && len(mk.Points) > 1:
			line(mk.Points...)
		case mk.Kind == Pen && len(mk.Points) == 1:
			line(mk.Points[0], [2]float64{mk.Points[0][0] + 0.5, mk.Points[0][1]})
		case mk.Kind == Arrow && len(mk.Points) >= 2:
			tail, head := mk.Points[0], mk.Points[len(mk.Points)-1]
			line(tail, head)
			angle := math.Atan2(head[1]-tail[1], head[0]-tail[0])
			barb := width * 5
			for _, side := range []float64{-1, 1} {
				a := angle + math.Pi - side*math.Pi/7
				line(head, [2]float64{head[0] + barb*math.Cos(a), head[1] + barb*math.Sin(a)})
			}
		case mk.Kind == Circle && len(mk.Points) >= 2:
			c, e := mk.Points[0], mk.Points[len(mk.Points)-1]
			r := math.Hypot(e[0]-c[0], e[1]-c[1])
			d.Clear()
			rasterx.AddCircle(c[0], c[1], r, d)
			d.Draw()
		case mk.Kind == Note && len(mk.Points) >= 1 && mk.Text != "":
			note(img, mk.Points[0], mk.Text, m.Colour, width)
		}
	}
	return img
}

// note writes text at p in c, about eight stroke widths tall, over a
// halo in black or white (whichever c stands out from), so the words
// read on any part of a picture.
func note(img *image.NRGBA, p [2]float64, text string, c color.NRGBA, width float64) {
	face, ok := labelfont.Face(text, width*8)
	if !ok {
		return
	}
	halo := math.Max(1, math.Round(width/3))
	for _, d := range [][2]float64{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}} {
		dr := font.Drawer{Dst: img, Src: image.NewUniform(Contrast(c)), Face: face,
			Dot: fixed.P(int(p[0]+d[0]*halo), int(p[1]+d[1]*halo))}
		dr.DrawString(text)
	}
	dr := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: face, Dot: fixed.P(int(p[0]), int(p[1]))}
	dr.DrawString(text)
}

// Contrast is black or white, whichever stands out more from c: a
// note's halo in the picture, its words on a chip in the painter.
func Contrast(c color.NRGBA) color.NRGBA {
	if 299*int(c.R)+587*int(c.G)+114*int(c.B) > 150_000 {
		return color.NRGBA{A: 0xff}
	}
	return color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
}

// Notes are the marks' notes, and Shapes the rest: the painter draws the
// shapes at the picture's scale and the notes in the window's own type,
// legible at any zoom.
func (m Marks) Notes() []Mark {
	var notes []Mark
	for _, mk := range m.Items {
		if mk.Kind == Note {
			notes = append(notes, mk)
		}
	}
	return notes
}

// Shapes are the marks without their notes (see Notes).
func (m Marks) Shapes() Marks {
	out := Marks{Colour: m.Colour}
	for _, mk := range m.Items {
		if mk.Kind != Note {
			out.Items = append(out.Items, mk)
		}
	}
	return out
}

// Alpha is where the marks cover, as a greyscale image: markup_alpha.
func Alpha(marks *image.NRGBA) *image.Gray {
	g := image.NewGray(marks.Rect)
	for i := 0; i < len(g.Pix); i++ {
		g.Pix[i] = marks.Pix[i*4+3]
	}
	return g
}

// AlphaPNG is markup_alpha for marks kept as a PNG (a journalled edit
// sent again).
func AlphaPNG(marksPNG []byte) ([]byte, error) {
	img, err := imageio.DecodeBounded(bytes.NewReader(marksPNG), imageio.MaxPixels)
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	n := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(n, n.Rect, img, b.Min, draw.Src)
	return imageio.EncodePNG(Alpha(n))
}

// Mode is how the marks went to the service.
type Mode int

const (
	// None: no marks.
	None Mode = iota
	// Markup: as the model's own markup and markup_alpha parts.
	Markup
	// Drawn: drawn onto the first image sent, with a sentence in the
	// prompt.
	Drawn
)

// PromptNote is what the prompt says when the marks are drawn on the
// first image: it is for the model, in the words models are told in.
const PromptNote = "Follow the marks drawn on the first image; do not draw the marks themselves."

// Sentence says how the marks went, for the job card and stderr.
func (m Mode) Sentence() string {
	switch m {
	case Markup:
		return catalogue.T("The marks went to the model as markup, beside the first image.")
	case Drawn:
		return catalogue.T("The model takes no markup: the marks were drawn onto the first image sent, and the prompt asks it to follow them.")
	}
	return ""
}

// Apply puts marks into req, whose first image they were drawn on: as
// markup for a model whose capability sheet takes it, else drawn onto a
// copy of the first image (sent in its place) with PromptNote added to
// the prompt. It returns how, and the first image as the user gave it
// (for keeping the unmasked area) when it was replaced.
func Apply(req *api.EditRequest, m Marks) (Mode, []byte, error) {
	if m.Empty() || len(req.Images) == 0 {
		return None, nil, nil
	}
	if len(m.Items) > MaxMarks {
		return None, nil, errors.New(catalogue.F("there are more than %d marks", MaxMarks))
	}
	for i := range m.Items {
		if r := []rune(m.Items[i].Text); len(r) > MaxNote {
			m.Items[i].Text = string(r[:MaxNote])
		}
	}
	// The first image is read whole (it is drawn on, or its size read):
	// one image, never every reference.
	firstData, err := req.Images[0].Bytes()
	if err != nil {
		return None, nil, err
	}
	// The first image's size from its header: markup needs no more.
	_, w, h, err := imageio.SniffImage(firstData)
	if err == nil {
		err = imageio.CheckPixels(w, h)
	}
	if err != nil {
		return None, nil, err
	}
	marks := m.Render(w, h)
	if s, ok := capability.Lookup(req.Model); ok && s.Markup {
		mp, err := imageio.EncodePNG(marks)
		if err != nil {
			return None, nil, err
		}
		ap, err := imageio.EncodePNG(Alpha(marks))
		if err != nil {
			return None, nil, err
		}
		req.Markup = &api.InputImage{Name: "markup.png", ContentType: "image/png", Data: mp}
		req.MarkupAlpha = &api.InputImage{Name: "markup_alpha.png", ContentType: "image/png", Data: ap}
		return Markup, nil, nil
	}
	// Drawn on the image: only now is it decoded.
	first, err := imageio.DecodeBounded(bytes.NewReader(firstData), imageio.MaxPixels)
	if err != nil {
		return None, nil, err
	}
	drawn := image.NewNRGBA(image.Rect(0, 0, w, h))
	draw.Draw(drawn, drawn.Rect, first, first.Bounds().Min, draw.Src)
	draw.Draw(drawn, drawn.Rect, marks, image.Point{}, draw.Over)
	data, err := imageio.EncodePNG(drawn)
	if err != nil {
		return None, nil, err
	}
	original := firstData
	req.Images[0] = api.InputImage{Name: req.Images[0].Name, ContentType: "image/png", Data: data}
	req.Prompt = joinPrompt(req.Prompt)
	return Drawn, original, nil
}

func joinPrompt(p string) string {
	if p == "" {
		return PromptNote
	}
	return p + "\n\n" + PromptNote
}

// Parse reads marks saved as JSON (the command line's --marks file, a
// draft), bounded.
func Parse(data []byte) (Marks, error) {
	var m Marks
	if len(data) > 1<<20 {
		return m, errors.New(catalogue.T("the marks file is over 1 MB"))
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, err
	}
	if len(m.Items) > MaxMarks {
		return m, errors.New(catalogue.F("there are more than %d marks", MaxMarks))
	}
	return m, nil
}
