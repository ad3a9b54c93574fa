package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"easel/internal/api"
	"easel/internal/demoservice"
	"easel/internal/testsupport/fixture"
)

// recorder passes requests on to the demo service and keeps each body.
type recorder struct {
	mu     sync.Mutex
	next   http.Handler
	bodies [][]byte
	ctypes []string
	accept []string
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	r.bodies = append(r.bodies, body)
	r.ctypes = append(r.ctypes, req.Header.Get("Content-Type"))
	r.accept = append(r.accept, req.Header.Get("Accept"))
	r.mu.Unlock()
	req.Body = io.NopCloser(bytes.NewReader(body))
	r.next.ServeHTTP(w, req)
}

func newRecorded(t *testing.T) (*api.Client, *recorder) {
	rec := &recorder{next: demoservice.New(demoservice.Config{})}
	ts := httptest.NewServer(rec)
	t.Cleanup(ts.Close)
	return api.New(api.Config{BaseURL: ts.URL + "/v1"}), rec
}

type part struct {
	name, filename, value string
}

func parts(t *testing.T, ctype string, body []byte) []part {
	_, params, err := mime.ParseMediaType(ctype)
	if err != nil {
		t.Fatal(err)
	}
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	var out []part
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(p)
		v := string(data)
		if p.FileName() != "" {
			v = ""
		}
		out = append(out, part{p.FormName(), p.FileName(), v})
	}
}

func TestEditMultipartPartByPart(t *testing.T) {
	c, rec := newRecorded(t)
	red := fixture.SolidPNG(t, 64, 64, color.NRGBA{255, 0, 0, 255})
	blue := fixture.SolidPNG(t, 64, 64, color.NRGBA{0, 0, 255, 255})
	green := fixture.SolidPNG(t, 64, 64, color.NRGBA{0, 255, 0, 255})
	mask := fixture.SolidPNG(t, 64, 64, color.NRGBA{0, 0, 0, 0})
	req := api.EditRequest{
		Prompt: "put the first on the second",
		ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1536", Quality: "high", Background: "opaque",
			OutputFormat: "webp", OutputCompression: ptr(70), Moderation: "low", N: 2, Stream: true, PartialImages: 2},
		Images:        []api.InputImage{{Name: "first.png", Data: red}, {Name: "second.png", Data: blue}, {Name: "third.png", Data: green}},
		Mask:          &api.InputImage{Name: "mask.png", Data: mask},
		InputFidelity: "high",
	}
	var previews, arrived int
	res, err := c.Edit(context.Background(), req, func(p api.Partial) {
		if p.Final {
			arrived++ // of several images, each as it arrives
		} else {
			previews++
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Images) != 2 || previews != 4 || arrived != 2 || res.Images[0].Format != "webp" || res.Images[0].Height != 1536 {
		t.Fatalf("images %d previews %d arrived %d first %+v", len(res.Images), previews, arrived, res.Images[0].Format)
	}
	if rec.accept[0] != "text/event-stream" {
		t.Errorf("stream sent Accept %q", rec.accept[0])
	}
	ps := parts(t, rec.ctypes[0], rec.bodies[0])
	var files []string
	fields := map[string]string{}
	for _, p := range ps {
		if p.filename != "" {
			files = append(files, p.name+"="+p.filename)
		} else {
			fields[p.name] = p.value
		}
	}
	if got := strings.Join(files, ","); got != "image[]=first.png,image[]=second.png,image[]=third.png,mask=mask.png" {
		t.Errorf("file parts in order: %s", got)
	}
	for k, v := range map[string]string{
		"prompt": req.Prompt, "model": "gpt-image-1", "size": "1024x1536", "quality": "high", "background": "opaque",
		"output_format": "webp", "output_compression": "70", "moderation": "low", "n": "2", "stream": "true",
		"partial_images": "2", "input_fidelity": "high",
	} {
		if fields[k] != v {
			t.Errorf("field %s = %q, want %q", k, fields[k], v)
		}
	}
}

func TestEditUsesFirstImageAndRespectsMask(t *testing.T) {
	c, _ := newRecorded(t)
	red := fixture.SolidPNG(t, 256, 256, color.NRGBA{255, 0, 0, 255})
	// Left half transparent (edit there), right half opaque (keep).
	m := image.NewNRGBA(image.Rect(0, 0, 256, 256))
	for y := 0; y < 256; y++ {
		for x := 128; x < 256; x++ {
			m.Set(x, y, color.NRGBA{0, 0, 0, 255})
		}
	}
	var mb bytes.Buffer
	_ = png.Encode(&mb, m)
	res, err := c.Edit(context.Background(), api.EditRequest{Prompt: "blue sky", ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024"},
		Images: []api.InputImage{{Name: "red.png", Data: red}}, Mask: &api.InputImage{Data: mb.Bytes()}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := image.Decode(bytes.NewReader(res.Images[0].Data))
	if err != nil {
		t.Fatal(err)
	}
	// The kept half drifts a little, as real models repaint it; it stays
	// the first image's red, near enough.
	keep := color.NRGBAModel.Convert(out.At(900, 512)).(color.NRGBA)
	if keep.R < 230 || keep.G > 25 || keep.B > 25 {
		t.Errorf("kept half is %v, want near the first image's red", keep)
	}
	changed := 0
	for y := 0; y < 1024; y += 64 {
		if c := color.NRGBAModel.Convert(out.At(100, y)).(color.NRGBA); c != (color.NRGBA{255, 0, 0, 255}) {
			changed++
		}
	}
	if changed < 8 {
		t.Errorf("masked half barely changed (%d of 16 samples)", changed)
	}
}

func TestChatStreamsAndSendsOptionalFieldsOnlyWhenSet(t *testing.T) {
	c, rec := newRecorded(t)
	var deltas []string
	res, err := c.Chat(context.Background(), api.ChatRequest{Model: "gpt-4o-mini", Stream: true,
		Messages: []api.Message{{Role: api.RoleSystem, Content: "be brief"}, {Role: api.RoleUser, Content: "hello there"}}},
		func(d string) { deltas = append(deltas, d) })
	if err != nil {
		t.Fatal(err)
	}
	if len(deltas) < 10 || strings.Join(deltas, "") != res.Content || !strings.Contains(res.Content, "hello there") {
		t.Errorf("%d deltas, content %q", len(deltas), res.Content)
	}
	if res.FinishReason != "stop" {
		t.Errorf("finish %q", res.FinishReason)
	}
	var sent map[string]any
	_ = json.Unmarshal(rec.bodies[0], &sent)
	if _, ok := sent["temperature"]; ok {
		t.Error("temperature sent though unset")
	}
	if _, ok := sent["max_tokens"]; ok {
		t.Error("max_tokens sent though unset")
	}
	if sent["stream"] != true || len(sent["messages"].([]any)) != 2 {
		t.Errorf("sent %v", sent)
	}

	res, err = c.Chat(context.Background(), api.ChatRequest{Model: "gpt-4o-mini", Temperature: ptr(0.2), MaxTokens: ptr(5),
		Messages: []api.Message{{Role: api.RoleUser, Content: "hi"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = json.Unmarshal(rec.bodies[1], &sent)
	if sent["temperature"] != 0.2 || sent["max_tokens"] != float64(5) {
		t.Errorf("sent %v", sent)
	}
	if res.FinishReason != "length" || res.Usage == nil {
		t.Errorf("unstreamed result %+v", res)
	}
}

func TestChatStreamFailuresKeepWhatArrived(t *testing.T) {
	c, _, _ := newFake(t, demoservice.Config{})
	for _, f := range []string{demoservice.FaultStreamError, demoservice.FaultCutStream} {
		res, err := c.Chat(context.Background(), api.ChatRequest{Model: "fault-" + f, Stream: true,
			Messages: []api.Message{{Role: api.RoleUser, Content: "hi"}}}, nil)
		if err == nil {
			t.Fatalf("%s: no error", f)
		}
		if res == nil || res.Content == "" {
			t.Errorf("%s: the text that arrived was lost", f)
		}
	}
	_, err := c.Chat(context.Background(), api.ChatRequest{Model: "fault-" + demoservice.FaultTruncatedJSON,
		Messages: []api.Message{{Role: api.RoleUser, Content: "hi"}}}, nil)
	if e := asAPIError(t, err); e.Kind != api.KindBadResponse {
		t.Errorf("truncated: %v", e)
	}
}
