package cli

import (
	"bytes"
	"image"
	"image/color"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"easel/internal/demoservice"
	"easel/internal/imageio"
	"easel/internal/testsupport/fixture"
	"easel/internal/testsupport/hostile"
)

// writePNG writes img as a PNG in dir and returns its path.
func writePNG(t *testing.T, dir, name string, img image.Image) string {
	t.Helper()
	buf := fixture.PNG(t, img)
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// outpaint widens a square to 1536x1024 and writes a picture in which
// the square is exactly the original.
func TestOutpaintKeepsTheOriginalExact(t *testing.T) {
	env, out, errOut := testEnv(t, fake(t))
	dir := t.TempDir()
	orig := image.NewNRGBA(image.Rect(0, 0, 512, 512))
	for i := range orig.Pix {
		orig.Pix[i] = byte(i*13 + i/9)
	}
	for i := 3; i < len(orig.Pix); i += 4 {
		orig.Pix[i] = 255
	}
	in := writePNG(t, dir, "square.png", orig)
	code := Run([]string{"outpaint", "--image", in, "--size", "1536x1024", "--anchor", "left", "--prompt", "a wider room", "--out", dir}, env)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	paths := strings.Fields(out.String())
	if len(paths) != 1 {
		t.Fatalf("stdout %q", out)
	}
	got, err := imageio.DecodeFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	if got.Bounds().Size() != image.Pt(1536, 1024) {
		t.Fatalf("the result is %v", got.Bounds())
	}
	// The 512 square fits the canvas as it is: at the left edge,
	// halfway down.
	n := imageio.AsNRGBA(got)
	for y := 0; y < 512; y++ {
		for x := 0; x < 512; x++ {
			if a, b := n.NRGBAAt(x, 256+y), orig.NRGBAAt(x, y); a != b {
				t.Fatalf("(%d,%d) is %v, the original %v", x, y, a, b)
			}
		}
	}
}

// cutout keys a green background out locally and writes a transparent
// PNG.
func TestCutoutWritesATransparentPNG(t *testing.T) {
	env, out, errOut := testEnv(t, "http://127.0.0.1:1/v1") // nothing is sent
	dir := t.TempDir()
	img := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for y := 0; y < 64; y++ {
		for x := 0; x < 64; x++ {
			c := color.NRGBA{0, 255, 0, 255}
			if x > 16 && x < 48 && y > 16 && y < 48 {
				c = color.NRGBA{200, 30, 30, 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	in := writePNG(t, dir, "keyed.png", img)
	code := Run([]string{"cutout", "--image", in, "--key-colour", "#00ff00", "--out", dir}, env)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	got, err := imageio.DecodeFile(strings.TrimSpace(out.String()))
	if err != nil {
		t.Fatal(err)
	}
	n := imageio.AsNRGBA(got)
	if n.NRGBAAt(2, 2).A != 0 || n.NRGBAAt(32, 32).A != 255 {
		t.Errorf("corner alpha %d, middle %d", n.NRGBAAt(2, 2).A, n.NRGBAAt(32, 32).A)
	}
	if !strings.Contains(errOut.String(), "#00ff00") {
		t.Errorf("stderr does not say what was keyed: %s", errOut)
	}
}

// batch crosses 2×3 values and 2 sizes into 12 requests, never more
// than the concurrency in flight at the demo service, and writes 12
// images and a contact sheet.
func TestBatchCrossesAndLimitsConcurrency(t *testing.T) {
	srv := demoservice.New(demoservice.Config{Key: "sk-cli-test-key-123456", SlowFirstByte: 100 * time.Millisecond})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	env, out, errOut := testEnv(t, ts.URL+"/v1")
	dir := t.TempDir()
	code := Run([]string{"batch", "--prompt", "a {animal} in {style}", "--var", "animal=cat,dog", "--var", "style=ink,oil,clay",
		"--var", "size=1024x1024,1536x1024", "--model", "fault-" + demoservice.FaultSlowFirstByte, "--concurrency", "3", "--out", dir}, env)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// Each cell's file is written (and printed) as the cell ends, in the
	// order the cells end; the sheet comes last.
	paths := strings.Fields(out.String())
	if len(paths) != 13 || !strings.HasSuffix(paths[12], "-sheet.png") || !strings.Contains(out.String(), "-01-cat-ink-1024x1024.png") {
		t.Fatalf("stdout %q", out)
	}
	if total, peak := srv.ImageRequests(); total != 12 || peak > 3 {
		t.Errorf("%d requests, %d at once", total, peak)
	}
}

// A batch whose prompt names a variable without values sends nothing.
func TestBatchSaysAMissingVariable(t *testing.T) {
	env, _, errOut := testEnv(t, "http://127.0.0.1:1/v1")
	if code := Run([]string{"batch", "--prompt", "a {animal} in {style}", "--var", "animal=cat"}, env); code != 2 || !strings.Contains(errOut.String(), "{style}") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

// --estimate prints the whole batch's cost and sends nothing.
func TestBatchEstimates(t *testing.T) {
	srv := demoservice.New(demoservice.Config{Key: "sk-cli-test-key-123456"})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	env, out, errOut := testEnv(t, ts.URL+"/v1")
	code := Run([]string{"batch", "--prompt", "a {animal}", "--var", "animal=cat,dog,owl", "--model", "gpt-image-1", "--size", "1024x1024", "--quality", "low", "--estimate"}, env)
	if code != 0 || !strings.Contains(out.String(), "$") {
		t.Fatalf("exit %d: %q %s", code, out, errOut)
	}
	if total, _ := srv.ImageRequests(); total != 0 {
		t.Errorf("--estimate sent %d requests", total)
	}
}

// What the service sent that is no picture is written beside the images
// and said on stderr, though the command fails.
func TestGenKeepsUnreadableBytes(t *testing.T) {
	ts := httptest.NewServer(hostile.Server{Key: "sk-cli-test-key-123456"})
	defer ts.Close()
	env, _, errOut := testEnv(t, ts.URL+"/v1")
	dir := t.TempDir()
	if code := Run([]string{"gen", "--model", hostile.NotAnImage, "--prompt", "x", "--out", dir}, env); code != 1 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*-unreadable.bin"))
	if len(files) != 1 || !strings.Contains(errOut.String(), files[0]) {
		t.Fatalf("files %v; stderr %s", files, errOut)
	}
	if data, _ := os.ReadFile(files[0]); !bytes.HasPrefix(data, []byte("%PDF")) {
		t.Errorf("kept %q", data)
	}
}
