package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"easel/internal/config"
	"easel/internal/demoservice"
	"easel/internal/honesty"
	"easel/internal/imageio"
)

// #55: a picture `easel gen` wrote is continued three times, each turn
// from the one before (by its file, then by its gallery id), then
// branched from turn 1. Each turn says its place and how much the demo's
// drift mode changed outside the marks, within 1 % of a pixel count of
// the two pictures; `easel thread` lists the five turns with their costs,
// and its JSON the same.
func TestEditContinuesAThreadAndBranches(t *testing.T) {
	srv := demoservice.New(demoservice.Config{Key: "sk-cli-test-key-123456", Drift: 0.3})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	env, out, errOut := testEnv(t, ts.URL+"/v1")
	env.Library = filepath.Join(t.TempDir(), "library")
	dir := t.TempDir()
	if code := Run([]string{"gen", "--prompt", "a lighthouse at dusk", "--size", "1024x1024", "--out", dir}, env); code != 0 {
		t.Fatalf("gen: %s", errOut)
	}
	start := strings.TrimSpace(out.String())
	// The marks: the right half may change, the left half is protected.
	maskImg := image.NewNRGBA(image.Rect(0, 0, 1024, 1024))
	for y := range 1024 {
		for x := range 512 {
			maskImg.SetNRGBA(x, y, color.NRGBA{A: 255})
		}
	}
	maskPath := filepath.Join(t.TempDir(), "mask.png")
	var mb bytes.Buffer
	_ = png.Encode(&mb, maskImg)
	if err := os.WriteFile(maskPath, mb.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := env.Profiles.Update(func(f *config.File) error { f.DriftLimit = 0.2; return nil }); err != nil {
		t.Fatal(err)
	}
	turnLine := regexp.MustCompile(`turn (\d+) of the thread \(after turn (\d+)\), gallery picture (\d+)(?:; [^;]*)?; the service changed (\d+) % of the picture outside your marks`)
	from, prev := start, start
	var lastID string
	for i, prompt := range []string{"warmer light", "move the boat left", "a red roof"} {
		out.Reset()
		errOut.Reset()
		if code := Run([]string{"edit", "--continue", from, "--mask", maskPath, "--prompt", prompt, "--out", dir}, env); code != 0 {
			t.Fatalf("turn %d: %s", i+2, errOut)
		}
		m := turnLine.FindStringSubmatch(errOut.String())
		if m == nil || m[1] != []string{"2", "3", "4"}[i] || m[2] != []string{"1", "2", "3"}[i] {
			t.Fatalf("turn %d said %q", i+2, errOut)
		}
		if !strings.Contains(errOut.String(), "that is over your limit of 20 %") {
			t.Errorf("turn %d, 30 %% outside the marks, is not flagged over the 20 %% limit: %q", i+2, errOut)
		}
		result := strings.TrimSpace(out.String())
		if want := measured(t, result, prev, maskPath); math.Abs(atof(m[4])/100-want) > 0.01 {
			t.Errorf("turn %d: said %s %%, a pixel count gives %.1f %%", i+2, m[4], 100*want)
		}
		prev, lastID = result, m[3]
		from = result
		if i == 1 {
			from = "#" + lastID // by its gallery id, as easel prints it
		}
	}
	errOut.Reset()
	if code := Run([]string{"edit", "--continue", start, "--branch", "1", "--mask", maskPath, "--prompt", "a green roof instead", "--out", dir}, env); code != 0 {
		t.Fatalf("branch: %s", errOut)
	}
	if !strings.Contains(errOut.String(), "turn 5 of the thread (after turn 1)") {
		t.Errorf("the branch said %q", errOut)
	}

	out.Reset()
	sheet := filepath.Join(t.TempDir(), "thread.png")
	if code := Run([]string{"thread", "--sheet", sheet, prev}, env); code != 0 {
		t.Fatalf("thread: %s", errOut)
	}
	listed := out.String()
	for _, want := range []string{"turn 1 ", "the start", "turn 2 (after 1)", "turn 3 (after 2)", "* turn 4 (after 3)", "turn 5 (after 1)", "sent in the service's conversation", "% changed outside the marks", "a red roof", "$"} {
		if !strings.Contains(listed, want) {
			t.Errorf("easel thread lacks %q:\n%s", want, listed)
		}
	}
	if f, err := os.Open(sheet); err != nil {
		t.Errorf("the contact sheet: %v", err)
	} else {
		cfg, err := png.DecodeConfig(f)
		f.Close()
		// Five turns: a grid of three columns, two rows of 256-pixel cells.
		if err != nil || cfg.Width < 3*256 || cfg.Height < 2*256 {
			t.Errorf("the contact sheet: %+v, %v", cfg, err)
		}
	}
	// As the window does: where turn 2 changed, and the right half of
	// turn 4 (the mask's transparent half) taken back from turn 1.
	acts := t.TempDir()
	out.Reset()
	if code := Run([]string{"thread", "--changes", "2", "--out", acts, prev}, env); code != 0 || !strings.HasSuffix(strings.TrimSpace(out.String()), "easel-turn-2-changes.png") {
		t.Fatalf("--changes: %q %s", out, errOut)
	}
	out.Reset()
	errOut.Reset()
	if code := Run([]string{"thread", "--restore-from", "1", "--mask", maskPath, "--out", acts, prev}, env); code != 0 || !strings.Contains(errOut.String(), "the area is back from turn 1") {
		t.Fatalf("--restore-from: %q %s", out, errOut)
	}
	restored := strings.TrimSpace(out.String())
	px := func(path string, x, y int) color.NRGBA {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		img, err := imageio.DecodeForScreen(data)
		if err != nil {
			t.Fatal(err)
		}
		return color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
	}
	if got, want := px(restored, 900, 700), px(start, 900, 700); got != want {
		t.Errorf("in the area taken back: %v, turn 1 has %v", got, want)
	}
	if got, want := px(restored, 100, 700), px(prev, 100, 700); got != want {
		t.Errorf("outside it: %v, turn 4 has %v", got, want)
	}
	out.Reset()
	if code := Run([]string{"thread", "--json", lastID}, env); code != 0 {
		t.Fatalf("thread --json: %s", errOut)
	}
	var doc threadDoc
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || len(doc.Turns) != 6 || doc.Turns[5].After != 4 || doc.Turns[5].Way != "restored" {
		t.Fatalf("thread --json: %v\n%s", err, out)
	}
	for _, r := range doc.Turns[1:5] {
		if r.Cost == nil || r.Cost.Amount <= 0 || r.Drift == nil || r.Way != "responses" {
			t.Errorf("turn %d: %+v", r.Turn, r)
		}
	}
}

// measured is the share of before's pixels protected by the mask at
// maskPath that after changed, counted here as the guard counts it.
func measured(t *testing.T, after, before, maskPath string) float64 {
	t.Helper()
	read := func(p string) *imageio.Picture {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return imageio.PictureOf(data)
	}
	share, ok := honesty.DriftOf(read(after), read(before), read(maskPath))
	if !ok {
		t.Fatalf("%s against %s could not be compared", after, before)
	}
	return share
}

func atof(s string) float64 {
	var f float64
	_, _ = fmt.Sscan(s, &f)
	return f
}
