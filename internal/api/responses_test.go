package api_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"image/color"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"easel/internal/api"
	"easel/internal/demoservice"
	"easel/internal/testsupport/fixture"
)

func turnEdit(t *testing.T, previous string, stream bool) api.EditRequest {
	req := api.EditRequest{Prompt: "warmer light", ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", Stream: stream},
		Images: []api.InputImage{{Name: "first.png", ContentType: "image/png", Data: fixture.SolidPNG(t, 64, 64, color.NRGBA{R: 200, A: 255})}},
		Turn:   &api.ResponsesTurn{Previous: previous}}
	if stream {
		req.PartialImages = 2
	}
	return req
}

// A turn through the Responses API reads as an edit does: the picture,
// the previews of a stream, and the answer's id, which the next turn
// names and the service says it continued.
func TestATurnThroughTheResponsesAPI(t *testing.T) {
	c, srv, _ := newFake(t, demoservice.Config{})
	var previews int
	first, err := c.Edit(context.Background(), turnEdit(t, "", true), func(p api.Partial) { previews++ })
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Images) != 1 || first.Images[0].Width != 1024 || !strings.HasPrefix(first.Response, "resp_demo_") || first.Continued != "" {
		t.Fatalf("first turn: %+v", first)
	}
	if previews != 2 || first.Previews != 2 || !first.Streamed {
		t.Errorf("previews: %d handed on, %d counted", previews, first.Previews)
	}
	second, err := c.Edit(context.Background(), turnEdit(t, first.Response, false), nil)
	if err != nil {
		t.Fatal(err)
	}
	if second.Continued != first.Response || second.Response == first.Response || len(second.Images) != 1 {
		t.Fatalf("second turn: %+v", second)
	}
	if a := srv.LastAsked(); !a.Turn || a.Previous != first.Response || a.Images != 0 {
		t.Errorf("the second turn reached the model as %+v: want the first answer named and no picture", a)
	}
}

// Gateways pass the image tool's previews on under the Images API's
// event name too; a stream that ends with the finished output item and
// no completed response still gives its picture.
func TestATurnStreamUnderEitherEventName(t *testing.T) {
	png := fixture.SolidPNG(t, 32, 32, color.NRGBA{B: 200, A: 255})
	b64 := base64.StdEncoding.EncodeToString(png)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_gw\",\"previous_response_id\":\"resp_before\"}}\n\n")
		fmt.Fprintf(w, "data: {\"type\":\"image_generation.partial_image\",\"b64_json\":%q,\"partial_image_index\":0}\n\n", b64)
		fmt.Fprintf(w, "data: {\"type\":\"response.image_generation_call.partial_image\",\"partial_image_b64\":%q,\"partial_image_index\":1}\n\n", b64)
		fmt.Fprintf(w, "data: {\"type\":\"response.output_item.done\",\"item\":{\"type\":\"image_generation_call\",\"id\":\"ig_1\",\"status\":\"completed\",\"result\":%q}}\n\n", b64)
	}))
	t.Cleanup(ts.Close)
	c := api.New(api.Config{BaseURL: ts.URL + "/v1", APIKey: testKey})
	var previews int
	res, err := c.Edit(context.Background(), turnEdit(t, "resp_before", true), func(api.Partial) { previews++ })
	if err != nil {
		t.Fatal(err)
	}
	if previews != 2 || len(res.Images) != 1 || res.Images[0].Width != 32 || res.Response != "resp_gw" || res.Continued != "resp_before" {
		t.Fatalf("%d previews, %+v", previews, res)
	}
}

// What says the lane cannot be used at all, and what does not.
func TestLaneRefused(t *testing.T) {
	c, _, _ := newFake(t, demoservice.Config{Responses: demoservice.ResponsesNone})
	_, err := c.Edit(context.Background(), turnEdit(t, "", false), nil)
	if why, ok := api.LaneRefused(err); !ok || !strings.Contains(why, "no Responses API (HTTP 404)") {
		t.Errorf("a missing route: %q, %v (%v)", why, ok, err)
	}
	c, _, _ = newFake(t, demoservice.Config{})
	_, err = c.Edit(context.Background(), turnEdit(t, "resp_never_made", false), nil)
	if why, ok := api.LaneRefused(err); !ok || !strings.Contains(why, "previous_response_id") {
		t.Errorf("an unknown earlier answer: %q, %v (%v)", why, ok, err)
	}
	for _, e := range []error{nil, &api.Error{Kind: api.KindRateLimited, Status: 429}, &api.Error{Kind: api.KindServer, Status: 500}} {
		if _, ok := api.LaneRefused(e); ok {
			t.Errorf("%v rules the lane out", e)
		}
	}
}
