package demoservice

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color/palette"
	"image/draw"
	_ "image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// post sends body to path on a demo service with cfg and returns the
// answer.
func post(t *testing.T, cfg Config, path, body, key string) (*http.Response, []byte) {
	t.Helper()
	srv := httptest.NewServer(New(cfg))
	t.Cleanup(srv.Close)
	req, _ := http.NewRequest(http.MethodPost, srv.URL+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp, data
}

// The demo service answers a generation as the spec's ImagesResponse:
// the images asked for, decodable, of the size asked, with usage.
func TestGenerationAnswersAsTheSpecSays(t *testing.T) {
	generate := func(prompt string) (cfg image.Config, n int, usage bool) {
		resp, data := post(t, Config{}, "/v1/images/generations", `{"model":"gpt-image-1","prompt":"`+prompt+`","n":2,"size":"1536x1024"}`, "")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d: %s", resp.StatusCode, data)
		}
		var body struct {
			Data []struct {
				B64JSON string `json:"b64_json"`
			}
			Usage map[string]any
		}
		if err := json.Unmarshal(data, &body); err != nil {
			t.Fatal(err)
		}
		raw, err := base64.StdEncoding.DecodeString(body.Data[0].B64JSON)
		if err != nil {
			t.Fatal(err)
		}
		c, _, err := imageConfig(raw)
		if err != nil {
			t.Fatal(err)
		}
		return c, len(body.Data), body.Usage != nil
	}
	c, n, usage := generate("a lighthouse")
	if n != 2 || c.Width != 1536 || c.Height != 1024 || !usage {
		t.Errorf("%d images of %dx%d, usage %v; want 2 of 1536x1024 with usage", n, c.Width, c.Height, usage)
	}
}

func imageConfig(b []byte) (image.Config, string, error) {
	return image.DecodeConfig(bytes.NewReader(b))
}

// A key is required when one is set, a fault asked for in the model's
// name answers as the service would, and the balance runs out.
func TestKeysFaultsAndBalance(t *testing.T) {
	resp, _ := post(t, Config{Key: "sk-demo"}, "/v1/images/generations", `{"model":"gpt-image-1","prompt":"x"}`, "sk-wrong")
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a wrong key: %d, want 401", resp.StatusCode)
	}
	resp, data := post(t, Config{}, "/v1/images/generations", `{"model":"fault-`+FaultNoBalance+`","prompt":"x"}`, "")
	if resp.StatusCode < 400 || !bytes.Contains(data, []byte(`"error"`)) {
		t.Errorf("the no-balance fault answered %d %s", resp.StatusCode, data)
	}
	srv := httptest.NewServer(New(Config{Balance: 1}))
	defer srv.Close()
	var statuses []int
	for range 2 {
		r, err := http.Post(srv.URL+"/v1/images/generations", "application/json", strings.NewReader(`{"model":"gpt-image-1","prompt":"x"}`))
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		statuses = append(statuses, r.StatusCode)
	}
	if statuses[0] != http.StatusOK || statuses[1] < 400 {
		t.Errorf("a balance of one image answered %v", statuses)
	}
}

// A stream of two images sends each image's previews, then that image,
// in order, as server-sent events the spec names.
func TestStreamSendsPreviewsThenEachImage(t *testing.T) {
	resp, data := post(t, Config{}, "/v1/images/generations", `{"model":"gpt-image-1","prompt":"x","n":2,"stream":true,"partial_images":1}`, "")
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("content type %q", ct)
	}
	var kinds []string
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "event: "); ok {
			kinds = append(kinds, rest)
		}
	}
	want := "image_generation.partial_image image_generation.completed image_generation.partial_image image_generation.completed"
	if strings.Join(kinds, " ") != want {
		t.Errorf("events %v, want %s", kinds, want)
	}
}

// A GIF frame's colours are the web-safe palette's nearest, as the
// search draw.Draw makes would find them.
func TestWebSafeFramesPickTheNearestColour(t *testing.T) {
	scene := drawScene("a spinning coin", 64, 48, false)
	want := image.NewPaletted(scene.Rect, palette.WebSafe)
	draw.Draw(want, want.Rect, scene, image.Point{}, draw.Src)
	if got := webSafe(scene); !bytes.Equal(got.Pix, want.Pix) {
		t.Fatal("the frame's indexes differ from the nearest colours")
	}
}
