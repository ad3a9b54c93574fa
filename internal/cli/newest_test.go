package cli

import (
	"bytes"
	"image"
	"image/gif"
	"image/png"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"easel/internal/demoservice"
)

// newest serves the demo, with its newest models, and returns it and
// an environment with a gallery (what the service refused is learnt
// there).
func newest(t *testing.T) (*demoservice.Server, Env, *strings.Builder, *strings.Builder) {
	srv := demoservice.New(demoservice.Config{Key: "sk-cli-test-key-123456"})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	env, _, _ := testEnv(t, ts.URL+"/v1")
	var out, errOut strings.Builder
	env.Stdout, env.Stderr = &out, &errOut
	env.Library = filepath.Join(t.TempDir(), "library")
	return srv, env, &out, &errOut
}

func TestGPTImage26OptionsGoOnTheWireAndAnSVGIsWritten(t *testing.T) {
	srv, env, out, errOut := newest(t)
	dir := t.TempDir()
	code := Run([]string{"gen", "--model", "gpt-image-2.6-flare", "--quality", "xhigh", "--complexity", "low", "--format", "svg",
		"--prompt", "a lighthouse", "--out", dir}, env)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	a := srv.LastAsked()
	if a.Model != "gpt-image-2.6-flare" || a.Quality != "xhigh" || a.Complexity != "low" || a.Format != "svg" {
		t.Errorf("the service was asked %+v", a)
	}
	path := strings.TrimSpace(out.String())
	if filepath.Ext(path) != ".svg" {
		t.Fatalf("wrote %q", path)
	}
	data, err := os.ReadFile(path)
	if err != nil || !strings.HasPrefix(string(data), "<svg") {
		t.Errorf("%s: %v %.40q", path, err, data)
	}
}

func TestAGIFOfFourFramesIsWritten(t *testing.T) {
	srv, env, out, errOut := newest(t)
	dir := t.TempDir()
	code := Run([]string{"gen", "--model", "gpt-image-2.6-sunburst", "--format", "gif", "--frames", "4", "--frame-ms", "120",
		"--size", "1024x1024", "--quality", "low", "--prompt", "a spinning coin", "--out", dir}, env)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if a := srv.LastAsked(); a.Frames != 4 || a.FrameMillis != 120 {
		t.Errorf("the service was asked %+v", a)
	}
	path := strings.TrimSpace(out.String())
	f, err := os.Open(path)
	if err != nil || filepath.Ext(path) != ".gif" {
		t.Fatalf("%q: %v", path, err)
	}
	defer f.Close()
	g, err := gif.DecodeAll(f)
	if err != nil || len(g.Image) != 4 {
		t.Fatalf("a GIF of %d frames: %v", len(g.Image), err)
	}
}

func TestARefusedQualityIsRememberedAndSaidBeforeTheNextSend(t *testing.T) {
	srv, env, _, errOut := newest(t)
	dir := t.TempDir()
	args := []string{"gen", "--model", "gpt-image-1", "--quality", "xhigh", "--prompt", "a fox", "--out", dir}
	// Not on gpt-image-1's sheet: sent, and the service refuses it.
	if code := Run(args, env); code == 0 {
		t.Fatal("the service took quality xhigh")
	}
	if a := srv.LastAsked(); a.Quality == "xhigh" {
		t.Fatal("the refused request was remembered as taken by the demo")
	}
	sent, _ := srv.ImageRequests()
	errOut.Reset()
	code := Run(args, env)
	if code == 0 {
		t.Fatal("the known refusal was sent and passed")
	}
	if again, _ := srv.ImageRequests(); again != sent {
		t.Errorf("the second run sent the refused value again (%d requests, then %d)", sent, again)
	}
	msg := errOut.String()
	if !strings.Contains(msg, `"xhigh"`) || !strings.Contains(msg, "--quality high") || !strings.Contains(msg, "--retry-refused") {
		t.Errorf("said %q", msg)
	}
	// Asked to, it sends it again.
	errOut.Reset()
	_ = Run(append(args, "--retry-refused"), env)
	if again, _ := srv.ImageRequests(); again == sent {
		t.Error("--retry-refused did not send")
	}
	// A value the model takes goes.
	if code := Run([]string{"gen", "--model", "gpt-image-1", "--quality", "high", "--prompt", "a fox", "--out", dir}, env); code != 0 {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

func TestAModelTheServiceDoesNotListWorksWhenTyped(t *testing.T) {
	srv, env, out, errOut := newest(t)
	for _, m := range demoservice.DefaultModels {
		if m.ID == "gpt-image-2.5-sunburst" {
			t.Fatal("the demo lists the model this test needs unlisted")
		}
	}
	code := Run([]string{"gen", "--model", "gpt-image-2.5-sunburst", "--quality", "max", "--prompt", "a fox", "--out", t.TempDir()}, env)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if a := srv.LastAsked(); a.Model != "gpt-image-2.5-sunburst" || a.Quality != "max" {
		t.Errorf("asked %+v", a)
	}
	if strings.TrimSpace(out.String()) == "" {
		t.Error("no image written")
	}
}

func TestTheEstimateCountsXHighAndMax(t *testing.T) {
	_, env, out, errOut := newest(t)
	est := func(q string) string {
		out.Reset()
		if code := Run([]string{"gen", "--model", "gpt-image-2.5-flare", "--quality", q, "--size", "1024x1024", "--prompt", "x", "--estimate"}, env); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		return strings.TrimSpace(out.String())
	}
	// 7,024 output tokens at $30 per million is $0.21; 3,122 is $0.094.
	if got := est("max"); !strings.Contains(got, "0.21") {
		t.Errorf("max: %s", got)
	}
	if got := est("xhigh"); !strings.Contains(got, "0.09") {
		t.Errorf("xhigh: %s", got)
	}
}

func TestEditMarksGoAsMarkupOrDrawnOnTheFirstImage(t *testing.T) {
	srv, env, _, errOut := newest(t)
	dir := t.TempDir()
	first := filepath.Join(dir, "room.png")
	img := image.NewNRGBA(image.Rect(0, 0, 320, 240))
	for i := range img.Pix {
		img.Pix[i] = 200
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	if err := os.WriteFile(first, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	marks := filepath.Join(dir, "marks.json")
	if err := os.WriteFile(marks, []byte(`{"items":[{"kind":"arrow","points":[[20,20],[200,150]]},{"kind":"circle","points":[[100,100],[130,100]]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := Run([]string{"edit", "--model", "gpt-image-2.6-flare", "--image", first, "--marks", marks, "--prompt", "a window here", "--out", dir}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if a := srv.LastAsked(); a.Markup != image.Pt(320, 240) || a.FirstImage != image.Pt(320, 240) {
		t.Errorf("markup %v for a first image of %v", a.Markup, a.FirstImage)
	}
	if !strings.Contains(errOut.String(), "markup") {
		t.Errorf("stderr %q", errOut)
	}
	errOut.Reset()
	if code := Run([]string{"edit", "--model", "gpt-image-1", "--image", first, "--marks", marks, "--prompt", "a window here", "--out", dir}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if a := srv.LastAsked(); a.Markup != (image.Point{}) || !strings.Contains(a.Prompt, "Follow the marks") {
		t.Errorf("markup %v went to a model without it, or the prompt %q does not ask to follow the marks", a.Markup, a.Prompt)
	}
	if !strings.Contains(errOut.String(), "drawn onto the first image") {
		t.Errorf("stderr %q", errOut)
	}
}

// --role says what each reference is for in the prompt, as the window's
// reference board does, before the marks' note; a role past the inputs
// is refused before anything is sent.
func TestRolesAreSaidInTheEditsPrompt(t *testing.T) {
	srv, env, _, errOut := newest(t)
	dir := t.TempDir()
	var files []string
	for _, name := range []string{"bottle.png", "poster.png"} {
		var buf bytes.Buffer
		_ = png.Encode(&buf, image.NewGray(image.Rect(0, 0, 64, 64)))
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	if code := Run([]string{"edit", "--model", "gpt-image-1", "--image", files[0], "--image", files[1], "--role", "1=product", "--role", "2=style",
		"--prompt", "the bottle on a shelf", "--out", dir}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := "the bottle on a shelf\n\nReference images: image 1 is the product; image 2 is the style to follow (its look, not its content)."
	if a := srv.LastAsked(); a.Prompt != want {
		t.Errorf("prompt %q, want %q", a.Prompt, want)
	}
	if code := Run([]string{"edit", "--image", files[0], "--role", "3=style", "--prompt", "p", "--out", dir}, env); code != 2 {
		t.Errorf("a role for a third input of one: exit %d", code)
	}
}
