package api_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/demoservice"
	"easel/internal/outpaint"
	"easel/internal/testsupport/fixture"
)

// TestConformanceThroughPrism sends the client's requests through Prism,
// a proxy that validates each request and each answer against the
// official OpenAPI document (testdata/openai-spec, a copy kept in the
// repository). `make test` installs Prism and sets PRISM; without it the
// test is skipped.
func TestConformanceThroughPrism(t *testing.T) {
	prism := os.Getenv("PRISM")
	if prism == "" {
		t.Skip("PRISM not set: run through make test")
	}
	spec, err := filepath.Abs(filepath.Join("testdata", "openai-spec", "openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(spec); err != nil {
		t.Fatalf("the spec is missing from the repository: %v", err)
	}
	upstream := httptest.NewServer(demoservice.New(demoservice.Config{Key: testKey}))
	defer upstream.Close()

	port := freePort(t)
	cmd := exec.Command(prism, "proxy", spec, upstream.URL, "--errors", "-h", "127.0.0.1", "-p", fmt.Sprint(port))
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	var mu sync.Mutex
	var log []string
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		once := sync.Once{}
		for sc.Scan() {
			mu.Lock()
			log = append(log, sc.Text())
			mu.Unlock()
			if strings.Contains(sc.Text(), "Prism is listening") {
				once.Do(func() { close(ready) })
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(60 * time.Second):
		t.Fatalf("Prism did not start:\n%s", strings.Join(log, "\n"))
	}

	c := api.New(api.Config{BaseURL: fmt.Sprintf("http://127.0.0.1:%d/v1", port), APIKey: testKey})
	ctx := context.Background()
	mustOK := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Errorf("%s through Prism: %v", what, err)
		}
	}
	_, err = c.Models(ctx)
	mustOK("models", err)
	for _, o := range []api.ImageOptions{
		{Model: "gpt-image-1", Size: "1024x1024", Quality: "low", OutputFormat: "png", Moderation: "low"},
		{Model: "gpt-image-1", Size: "1536x1024", OutputFormat: "jpeg", OutputCompression: ptr(60), N: 2},
		{Model: "gpt-image-2.5-flare", Size: "1536x864", Background: "transparent", OutputFormat: "webp", OutputCompression: ptr(90), Quality: "max"},
		// GPT Image 2.6's options, which the repository's spec adds
		// (testdata/openai-spec/newest.py).
		{Model: "gpt-image-2.6-flare", Quality: "xhigh", Complexity: "low", OutputFormat: "svg"},
		{Model: "gpt-image-2.6-sunburst", Size: "1024x1024", Quality: "low", OutputFormat: "gif", Frames: 4, FrameMillis: 120},
		{Model: "gpt-image-1", Size: "1024x1536", Stream: true, PartialImages: 2},
		{Model: "dall-e-3", Size: "1024x1024", ResponseFormat: "b64_json", Quality: "hd"},
	} {
		_, err := c.Generate(ctx, api.GenerateRequest{Prompt: "a lighthouse", ImageOptions: o}, nil)
		mustOK(fmt.Sprintf("generate %+v", o), err)
	}
	_, err = c.Chat(ctx, api.ChatRequest{Model: "gpt-4o-mini", Temperature: ptr(0.5), MaxTokens: ptr(50),
		Messages: []api.Message{{Role: api.RoleSystem, Content: "s"}, {Role: api.RoleUser, Content: "u"}, {Role: api.RoleAssistant, Content: "a"}, {Role: api.RoleUser, Content: "u2"}}}, nil)
	mustOK("chat", err)
	_, err = c.Chat(ctx, api.ChatRequest{Model: "gpt-4o-mini", Stream: true, Messages: []api.Message{{Role: api.RoleUser, Content: "u"}}}, nil)
	mustOK("chat stream", err)
	// What the Chat tab sends: images as content parts, a stream that
	// asks for its usage.
	_, err = c.Chat(ctx, api.ChatRequest{Model: "gpt-4o-mini", Stream: true, IncludeUsage: true, Messages: []api.Message{
		{Role: api.RoleUser, Content: "what is this?", Images: []api.InputImage{{Name: "a.png", ContentType: "image/png", Data: fixture.SolidPNG(t, 8, 8, color.NRGBA{1, 2, 3, 255})}}}}}, nil)
	mustOK("chat with an image, usage asked", err)

	// Prism's proxy re-encodes multipart bodies as text, which breaks the
	// image bytes on the way upstream; its request validation still runs
	// first, and that is what this checks: no 422 for the edit's fields.
	png := fixture.SolidPNG(t, 64, 64, color.NRGBA{1, 2, 3, 255})
	_, err = c.Edit(ctx, api.EditRequest{Prompt: "p", ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", Quality: "high",
		Background: "opaque", OutputFormat: "webp", OutputCompression: ptr(80), Moderation: "low", N: 1, Stream: true, PartialImages: 1},
		Images: []api.InputImage{{Name: "a.png", Data: png}, {Name: "b.png", Data: png}}, Mask: &api.InputImage{Name: "m.png", Data: png}, InputFidelity: "high"}, nil)
	var ae *api.Error
	if errors.As(err, &ae) && (ae.Status == 422 || strings.Contains(ae.Message, "prism")) {
		t.Errorf("Prism rejected the edit request: %v", err)
	}
	// A markup edit (GPT Image 2.6): the marks and their coverage as
	// parts of the first image's size, with complexity.
	_, err = c.Edit(ctx, api.EditRequest{Prompt: "a window here", ImageOptions: api.ImageOptions{Model: "gpt-image-2.6-flare", Complexity: "medium", Quality: "xhigh"},
		Images: []api.InputImage{{Name: "a.png", Data: png}}, Markup: &api.InputImage{Name: "markup.png", Data: png}, MarkupAlpha: &api.InputImage{Name: "markup_alpha.png", Data: png}}, nil)
	if errors.As(err, &ae) && (ae.Status == 422 || strings.Contains(ae.Message, "prism")) {
		t.Errorf("Prism rejected the markup edit: %v", err)
	}
	// An outpaint is an edit: the padded canvas and the mask of its new
	// area, at the canvas's size.
	plan, perr := outpaint.Expand(image.NewNRGBA(image.Rect(0, 0, 64, 64)), image.Pt(96, 64), outpaint.Left)
	if perr != nil {
		t.Fatal(perr)
	}
	canvas, mask, perr := plan.PNGs()
	if perr != nil {
		t.Fatal(perr)
	}
	_, err = c.Edit(ctx, api.EditRequest{Prompt: "widen", ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1536x1024"},
		Images: []api.InputImage{{Name: "canvas.png", ContentType: "image/png", Data: canvas}}, Mask: &api.InputImage{Name: "mask.png", ContentType: "image/png", Data: mask}}, nil)
	if errors.As(err, &ae) && (ae.Status == 422 || strings.Contains(ae.Message, "prism")) {
		t.Errorf("Prism rejected the outpaint request: %v", err)
	}

	time.Sleep(300 * time.Millisecond) // let Prism flush its log
	mu.Lock()
	defer mu.Unlock()
	for i, line := range log {
		// 422 as a status, not inside a port number (127.0.0.1:42275).
		if !strings.Contains(line, "Violation") && !status422.MatchString(line) {
			continue
		}
		// The edit's upstream 400 (see above) is the one answer outside the spec.
		if strings.Contains(line, "returned status code") && i > 0 && strings.Contains(strings.Join(log[max(0, i-4):i], " "), "images/edits") {
			continue
		}
		t.Errorf("Prism: %s", line)
	}
}

// status422 finds 422 standing alone, as Prism writes a status code.
var status422 = regexp.MustCompile(`(^|[^\d:])422($|\D)`)

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
