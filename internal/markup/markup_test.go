package markup

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"easel/internal/api"
	"easel/internal/testsupport/fixture"
)

func first(t *testing.T) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 400, 300))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = 40, 120, 200, 255
	}
	buf := fixture.PNG(t, img)
	return buf
}

var marks = Marks{Items: []Mark{
	{Kind: Pen, Points: [][2]float64{{20, 20}, {60, 40}, {100, 20}}},
	{Kind: Arrow, Points: [][2]float64{{200, 250}, {300, 150}}},
	{Kind: Circle, Points: [][2]float64{{100, 200}, {140, 200}}},
	{Kind: Note, Points: [][2]float64{{220, 60}}, Text: "make this a window"},
}}

func decode(t *testing.T, data []byte) image.Image {
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func TestAMarkupModelGetsTheMarksAsTheirOwnParts(t *testing.T) {
	req := api.EditRequest{Prompt: "a room", ImageOptions: api.ImageOptions{Model: "gpt-image-2.6-flare"},
		Images: []api.InputImage{{Name: "room.png", Data: first(t)}}}
	sent := req.Images[0].Data
	mode, original, err := Apply(&req, marks)
	if err != nil || mode != Markup || original != nil {
		t.Fatalf("mode %v, %v", mode, err)
	}
	if req.Markup == nil || req.MarkupAlpha == nil || !bytes.Equal(req.Images[0].Data, sent) || req.Prompt != "a room" {
		t.Fatal("the first image or the prompt changed, or no markup")
	}
	m, a := decode(t, req.Markup.Data), decode(t, req.MarkupAlpha.Data)
	if m.Bounds().Size() != image.Pt(400, 300) || a.Bounds().Size() != image.Pt(400, 300) {
		t.Errorf("markup %v, alpha %v", m.Bounds(), a.Bounds())
	}
	if _, _, _, al := m.At(250, 200).RGBA(); al == 0 {
		t.Error("the arrow is not in the markup")
	}
	if g := color.GrayModel.Convert(a.At(250, 200)).(color.Gray); g.Y < 200 {
		t.Errorf("markup_alpha under the arrow is %d", g.Y)
	}
	if _, _, _, al := m.At(380, 280).RGBA(); al != 0 {
		t.Error("the markup covers a corner with no mark")
	}
}

func TestAnotherModelGetsTheMarksDrawnOnTheFirstImage(t *testing.T) {
	req := api.EditRequest{Prompt: "a room", ImageOptions: api.ImageOptions{Model: "gpt-image-1"},
		Images: []api.InputImage{{Name: "room.png", Data: first(t)}}}
	orig := req.Images[0].Data
	mode, original, err := Apply(&req, marks)
	if err != nil || mode != Drawn {
		t.Fatalf("mode %v, %v", mode, err)
	}
	if !bytes.Equal(original, orig) || req.Markup != nil {
		t.Error("the original is not handed back, or markup was sent to a model without it")
	}
	if !strings.Contains(req.Prompt, "a room") || !strings.HasSuffix(req.Prompt, PromptNote) {
		t.Errorf("prompt %q", req.Prompt)
	}
	sent := decode(t, req.Images[0].Data)
	if r, g, b, _ := sent.At(250, 200).RGBA(); r>>8 != uint32(Bright.R) || g>>8 != uint32(Bright.G) || b>>8 != uint32(Bright.B) {
		t.Errorf("the arrow is not drawn on the image sent: %d,%d,%d", r>>8, g>>8, b>>8)
	}
	if r, g, b, _ := sent.At(380, 280).RGBA(); r>>8 != 40 || g>>8 != 120 || b>>8 != 200 {
		t.Error("the image sent changed where there is no mark")
	}
}

func TestNoMarksChangeNothing(t *testing.T) {
	req := api.EditRequest{Prompt: "a room", ImageOptions: api.ImageOptions{Model: "gpt-image-1"}, Images: []api.InputImage{{Data: first(t)}}}
	if mode, _, err := Apply(&req, Marks{}); mode != None || err != nil || req.Prompt != "a room" {
		t.Errorf("%v %v %q", mode, err, req.Prompt)
	}
	if _, err := Parse([]byte(`{"items":[` + strings.Repeat(`{"kind":"pen","points":[[1,1]]},`, MaxMarks) + `{"kind":"pen"}]}`)); err == nil {
		t.Error("parsed more marks than a request carries")
	}
}
