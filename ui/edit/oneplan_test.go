package edit

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"mime/multipart"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"easel/internal/api"
	"easel/internal/cli"
	"easel/internal/config"
	"easel/internal/demoservice"
	"easel/internal/imageio"
	"easel/internal/jobs"
	"easel/internal/outpaint"
	"easel/internal/secrets"
	"easel/internal/secrets/secretstest"
	"easel/ui/imageform"
	"easel/ui/room/roomtest"
)

// formImage decodes the form's file field name (the first of them).
func formImage(t *testing.T, f *multipart.Form, name string) image.Image {
	t.Helper()
	fhs := f.File[name]
	if len(fhs) == 0 {
		t.Fatalf("no %s in the form", name)
	}
	r, err := fhs[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	data, _ := io.ReadAll(r)
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return img
}

// samePixels reports whether a and b are the same picture, pixel for pixel.
func samePixels(a, b image.Image) bool {
	if a.Bounds().Size() != b.Bounds().Size() {
		return false
	}
	ab, bb := a.Bounds(), b.Bounds()
	for y := 0; y < ab.Dy(); y++ {
		for x := 0; x < ab.Dx(); x++ {
			r1, g1, b1, a1 := a.At(ab.Min.X+x, ab.Min.Y+y).RGBA()
			r2, g2, b2, a2 := b.At(bb.Min.X+x, bb.Min.Y+y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				return false
			}
		}
	}
	return true
}

// The window and the command line plan an edit alike (issue 42): a
// masked edit of a 1000×300 picture that keeps its unmasked area, at
// "Match the first image" (--size match), reaches the service from both
// as the same request — its first image and mask padded to the same
// shape, pixel for pixel, at the same size — and both keep a copy of
// the picture's own size.
func TestTheWindowAndTheCommandLineSendAPaddedKeptEditAlike(t *testing.T) {
	h := roomtest.NewWith(t, roomtest.Options{RecordEdits: true})
	r := New(h)
	h.Show(r.Build)
	dir := t.TempDir()
	wide := image.NewNRGBA(image.Rect(0, 0, 1000, 300))
	mask := image.NewNRGBA(image.Rect(0, 0, 1000, 300))
	for y := 0; y < 300; y++ {
		for x := 0; x < 1000; x++ {
			wide.SetNRGBA(x, y, color.NRGBA{uint8(x / 4), uint8(y), 120, 255})
			a := uint8(255)
			if x > 400 && x < 600 {
				a = 0 // the middle may change
			}
			mask.SetNRGBA(x, y, color.NRGBA{A: a})
		}
	}
	picture, maskFile := filepath.Join(dir, "wide.png"), filepath.Join(dir, "mask.png")
	for path, img := range map[string]image.Image{picture: wide, maskFile: mask} {
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
	}

	// The window: the picture dropped, the mask imported, the size
	// matched, the unmasked area kept (the default).
	var done []jobs.Event
	h.OnJob = func(e jobs.Event) {
		if e.State.Final() {
			done = append(done, e)
		}
	}
	h.UI(func() { r.AddFiles([]string{picture}) })
	h.Until("the painter", func() bool { return r.mask.painter.Mask() != nil })
	var model string
	h.UI(func() {
		if err := r.mask.useMask(&r.strip.inputs[0], mask, "mask.png"); err != nil {
			t.Fatal(err)
		}
		o := r.Options().Options()
		model = o.Model
		r.Options().SetOptions(api.ImageOptions{Model: model, Size: imageform.MatchLabel()})
		r.Prompt().SetText("a lantern in the middle")
		r.PrimaryAction()
	})
	h.Until("the window's edit", func() bool { return len(done) == 1 })
	if done[0].State != jobs.Done || len(done[0].ItemIDs) != 2 {
		t.Fatalf("the window's edit ended %v with %d items", done[0].State, len(done[0].ItemIDs))
	}

	// The command line, against the same service.
	env, out, errOut := cliEnv(h, dir)
	if code := cli.Run([]string{"edit", "--prompt", "a lantern in the middle", "--model", model, "--image", picture, "--mask", maskFile,
		"--keep", "--size", "match", "--out", filepath.Join(dir, "out")}, env); code != 0 {
		t.Fatalf("easel edit: exit %d: %s", code, errOut.String())
	}

	forms := h.Edits()
	if len(forms) != 2 {
		t.Fatalf("the service received %d edits, want 2", len(forms))
	}
	win, line := forms[0], forms[1]
	for _, field := range []string{"size", "model", "n", "prompt"} {
		if a, b := win.Value[field], line.Value[field]; strings.Join(a, ",") != strings.Join(b, ",") {
			t.Errorf("%s: the window sent %q, the command line %q", field, a, b)
		}
	}
	if got := win.Value["size"]; len(got) != 1 || got[0] != api.MatchSize(model, 1000, 300) {
		t.Errorf("the window asked for size %q", got)
	}
	for _, field := range []string{"image[]", "mask"} {
		a, b := formImage(t, win, field), formImage(t, line, field)
		if a.Bounds().Size() == (image.Point{1000, 300}) {
			t.Errorf("%s went unpadded at 1000x300", field)
		}
		if !samePixels(a, b) {
			t.Errorf("%s: the window sent %v, the command line %v, or their pixels differ", field, a.Bounds().Size(), b.Bounds().Size())
		}
	}
	// Each kept a copy of the picture's own size.
	paths := strings.Fields(out.String())
	if len(paths) != 2 || !strings.HasSuffix(paths[1], "-kept.png") {
		t.Fatalf("easel edit wrote %q", out.String())
	}
	f, err := os.Open(paths[1])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	kept, err := png.Decode(f)
	if err != nil || kept.Bounds().Size() != (image.Point{1000, 300}) {
		t.Fatalf("the command line's kept copy is %v (%v), want 1000x300", kept.Bounds().Size(), err)
	}
	// Outside the mask and its feather, the picture's own pixels.
	for _, x := range []int{0, 200, 390, 610, 999} {
		for _, y := range []int{0, 150, 299} {
			if kept.At(x, y) != color.Color(wide.NRGBAAt(x, y)) && !sameColour(kept.At(x, y), wide.NRGBAAt(x, y)) {
				t.Errorf("the kept copy at (%d,%d) is %v, the picture %v", x, y, kept.At(x, y), wide.NRGBAAt(x, y))
			}
		}
	}
}

// cliEnv is a command line's environment against h's fake service, its
// home and profiles in dir, and what it prints.
func cliEnv(h *roomtest.Host, dir string) (cli.Env, *bytes.Buffer, *bytes.Buffer) {
	var out, errOut bytes.Buffer
	vars := map[string]string{"OPENAI_BASE_URL": h.ServiceURL(), "OPENAI_API_KEY": "sk-oneplan-test-123456", "EASEL_HOME": filepath.Join(dir, "home")}
	return cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return vars[k] },
		Profiles: config.Open(filepath.Join(dir, "profiles.json")), Keys: secrets.New(secretstest.NewMemory(), 0)}, &out, &errOut
}

func sameColour(a, b color.Color) bool {
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

// A kept edit of an Adobe RGB (1998) photograph (issue 44), from the
// window and from `easel edit --keep`: both send the first image as
// sRGB, converted (Adobe RGB (60,160,90) is about sRGB (0,161,85)), and
// both keep a copy that carries the Adobe RGB profile with the
// protected pixels the original's numbers, unchanged.
func TestTheWindowAndTheCommandLineKeepAnAdobeRGBPhotoInItsColours(t *testing.T) {
	h := roomtest.NewWith(t, roomtest.Options{RecordEdits: true})
	r := New(h)
	h.Show(r.Build)
	dir := t.TempDir()
	profile, err := os.ReadFile("../../internal/colour/testdata/adobergb.icc")
	if err != nil {
		t.Fatal(err)
	}
	adobe, sRGB := color.NRGBA{60, 160, 90, 255}, color.NRGBA{0, 161, 85, 255}
	photo := image.NewNRGBA(image.Rect(0, 0, 800, 600))
	mask := image.NewNRGBA(photo.Rect)
	for y := range 600 {
		for x := range 800 {
			photo.SetNRGBA(x, y, adobe)
			if x < 400 {
				mask.SetNRGBA(x, y, color.NRGBA{A: 255}) // the left half is kept
			}
		}
	}
	var pb, mb bytes.Buffer
	_, _ = png.Encode(&pb, photo), png.Encode(&mb, mask)
	tagged, ok := imageio.WithProfile(pb.Bytes(), profile, "Adobe RGB (1998)")
	if !ok {
		t.Fatal("the profile could not be embedded")
	}
	picture, maskFile := filepath.Join(dir, "photo.png"), filepath.Join(dir, "mask.png")
	if os.WriteFile(picture, tagged, 0o600) != nil || os.WriteFile(maskFile, mb.Bytes(), 0o600) != nil {
		t.Fatal("cannot write the inputs")
	}

	var done []jobs.Event
	var notes []string
	h.OnJob = func(e jobs.Event) {
		notes = append(notes, e.Notes...)
		if e.State.Final() {
			done = append(done, e)
		}
	}
	h.UI(func() { r.AddFiles([]string{picture}) })
	h.Until("the painter", func() bool { return r.mask.painter.Mask() != nil })
	var model string
	h.UI(func() {
		if err := r.mask.useMask(&r.strip.inputs[0], mask, "mask.png"); err != nil {
			t.Fatal(err)
		}
		model = r.Options().Options().Model
		r.Options().SetOptions(api.ImageOptions{Model: model, Size: imageform.MatchLabel()})
		r.Prompt().SetText("a lake")
		r.PrimaryAction()
	})
	h.Until("the window's edit", func() bool { return len(done) == 1 })
	if done[0].State != jobs.Done || len(done[0].ItemIDs) != 2 {
		t.Fatalf("the window's edit ended %v with %d items", done[0].State, len(done[0].ItemIDs))
	}
	if !strings.Contains(strings.Join(notes, " "), "Adobe RGB (1998) to sRGB") {
		t.Errorf("the card does not say the photo was converted: %q", notes)
	}
	kept, err := h.Library().Get(context.Background(), done[0].ItemIDs[1])
	if err != nil {
		t.Fatal(err)
	}
	windowKept, err := os.ReadFile(h.Library().Path(kept))
	if err != nil {
		t.Fatal(err)
	}

	env, out, errOut := cliEnv(h, dir)
	if code := cli.Run([]string{"edit", "--prompt", "a lake", "--model", model, "--image", picture, "--mask", maskFile,
		"--keep", "--size", "match", "--out", filepath.Join(dir, "out")}, env); code != 0 {
		t.Fatalf("easel edit: exit %d: %s", code, errOut.String())
	}
	paths := strings.Fields(out.String())
	if len(paths) != 2 {
		t.Fatalf("easel edit wrote %q", out.String())
	}
	lineKept, err := os.ReadFile(paths[1])
	if err != nil {
		t.Fatal(err)
	}

	forms := h.Edits()
	if len(forms) != 2 {
		t.Fatalf("the service received %d edits, want 2", len(forms))
	}
	for i, who := range []string{"the window", "the command line"} {
		sent := formImage(t, forms[i], "image[]")
		c := sent.Bounds().Size()
		if got := color.NRGBAModel.Convert(sent.At(c.X/2, c.Y/2)).(color.NRGBA); !sameWithin(got, sRGB, 1) {
			t.Errorf("%s sent the photo as %v, want its sRGB, about %v", who, got, sRGB)
		}
		data := [][]byte{windowKept, lineKept}[i]
		icc, _, ok := imageio.EmbeddedProfile(data)
		if !ok || !bytes.Equal(icc, profile) {
			t.Errorf("%s's kept copy does not carry the Adobe RGB profile", who)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil || img.Bounds().Size() != image.Pt(800, 600) {
			t.Fatalf("%s's kept copy: %v, %v", who, err, img.Bounds())
		}
		for _, p := range []image.Point{{0, 0}, {200, 300}, {390, 599}} {
			if got := color.NRGBAModel.Convert(img.At(p.X, p.Y)).(color.NRGBA); got != adobe {
				t.Errorf("%s's kept copy at %v is %v, want the original's %v", who, p, got, adobe)
			}
		}
	}
}

// sameWithin says whether a and b differ by at most d in each colour.
func sameWithin(a, b color.NRGBA, d int) bool {
	for _, p := range [][2]uint8{{a.R, b.R}, {a.G, b.G}, {a.B, b.B}} {
		if diff := int(p[0]) - int(p[1]); diff > d || -diff > d {
			return false
		}
	}
	return true
}

// Expand canvas… on an Adobe RGB picture makes the canvas from the
// picture's own numbers, with its profile: sent, it is converted like
// any input; kept, it stays in the picture's space.
func TestACanvasKeepsThePicturesOwnSpace(t *testing.T) {
	profile, err := os.ReadFile("../../internal/colour/testdata/adobergb.icc")
	if err != nil {
		t.Fatal(err)
	}
	photo := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for p := 0; p < len(photo.Pix); p += 4 {
		copy(photo.Pix[p:], []byte{60, 160, 90, 255})
	}
	var b bytes.Buffer
	_ = png.Encode(&b, photo)
	tagged, _ := imageio.WithProfile(b.Bytes(), profile, "Adobe RGB (1998)")
	widen := func(src image.Image) (*outpaint.Plan, error) {
		return outpaint.Expand(src, image.Pt(128, 64), outpaint.Left)
	}
	shown, _ := imageio.DecodeForScreen(tagged)
	plan, _ := widen(shown)
	asShown, _, _ := plan.PNGs()
	canvas, err := inOwnSpace(api.InputImage{Name: "photo.png", Data: tagged}, asShown, widen)
	if err != nil {
		t.Fatal(err)
	}
	if icc, _, ok := imageio.EmbeddedProfile(canvas); !ok || !bytes.Equal(icc, profile) {
		t.Fatal("the canvas does not carry the picture's profile")
	}
	img, _ := png.Decode(bytes.NewReader(canvas))
	if got := color.NRGBAModel.Convert(img.At(10, 10)); got != (color.NRGBA{60, 160, 90, 255}) {
		t.Errorf("the canvas holds %v where the picture's own numbers are (60,160,90)", got)
	}
}

// The window and the command line shape a request alike from what the
// service is known to do (issue 42): against a gateway that makes one
// image per request and answers streams unstreamed, each first learns
// it from one edit of 2 images asked as a stream; the next such edit
// then reaches the service from both as 2 requests of 1 image, not
// streamed. (The window offers the split and the user takes it; the
// command line says it and does it. Both ask for a stream from the
// profile's defaults, not from a flag that would ask anyway.)
func TestTheWindowAndTheCommandLineSplitAndUnstreamAlike(t *testing.T) {
	h := roomtest.NewWith(t, roomtest.Options{RecordEdits: true, Quirks: []demoservice.Quirk{demoservice.QuirkOneImage, demoservice.QuirkNoImageStream}})
	r := New(h)
	h.Show(r.Build)
	dir := t.TempDir()
	pic := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for p := 0; p < len(pic.Pix); p += 4 {
		copy(pic.Pix[p:], []byte{90, 140, 200, 255})
	}
	picture := filepath.Join(dir, "tile.png")
	var b bytes.Buffer
	_ = png.Encode(&b, pic)
	if err := os.WriteFile(picture, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	var done int
	h.OnJob = func(e jobs.Event) {
		if e.State.Final() {
			done++
		}
	}
	h.UI(func() { r.AddFiles([]string{picture}) })
	h.Until("the picture", func() bool { return len(r.strip.inputs) == 1 && r.mask.painter.Image() != nil })
	var model string
	send := func() {
		h.UI(func() {
			model = r.Options().Options().Model
			r.Options().SetOptions(api.ImageOptions{Model: model, Size: "1024x1024", N: 2, Stream: true, PartialImages: 1})
			r.Prompt().SetText("a tiled wall")
			r.PrimaryAction()
		})
	}
	send()
	h.Until("the window's first edit", func() bool { return done == 1 })
	send()
	split, said := h.Overlay("Send 2 requests of 1 image")
	if !strings.Contains(said, "one image") {
		t.Errorf("the offer says %q", said)
	}
	h.UI(func() { test.Tap(split) })
	h.Until("the window's two requests", func() bool { return done == 3 })

	// The command line, on a profile whose defaults ask for a stream.
	env, _, errOut := cliEnv(h, dir)
	env.Getenv = func(string) string { return "" }
	env.Library = filepath.Join(dir, "cli-gallery")
	on := true
	p := config.Profile{ID: "p-oneplan", Name: "One plan", BaseURL: h.ServiceURL(), Image: config.ImageDefaults{Stream: &on}}
	if _, err := env.Profiles.Update(func(f *config.File) error { f.Active = p.ID; return f.Put(p) }); err != nil {
		t.Fatal(err)
	}
	if err := env.Keys.Set(context.Background(), p.ID, "sk-oneplan-test-123456"); err != nil {
		t.Fatal(err)
	}
	args := []string{"edit", "--prompt", "a tiled wall", "--model", model, "--image", picture, "--size", "1024x1024", "--n", "2",
		"--partial-images", "1", "--out", filepath.Join(dir, "out")}
	for round := range 2 {
		if code := cli.Run(args, env); code != 0 {
			t.Fatalf("easel edit, round %d: exit %d: %s", round+1, code, errOut.String())
		}
	}
	if !strings.Contains(errOut.String(), "request 2 of 2") || !strings.Contains(errOut.String(), "without streaming") {
		t.Errorf("the command line did not say it split and unstreamed: %s", errOut.String())
	}

	forms := h.Edits()
	if len(forms) != 6 {
		t.Fatalf("the service received %d edits, want 1+2 from the window and 1+2 from the command line", len(forms))
	}
	for i, f := range forms {
		first := i == 0 || i == 3
		n, stream := strings.Join(f.Value["n"], ""), strings.Join(f.Value["stream"], "")
		switch {
		case first && (n != "2" || stream != "true"):
			t.Errorf("edit %d, a first one, asked n=%q stream=%q, want 2 and a stream", i+1, n, stream)
		case !first && (n != "1" || stream == "true" || len(f.Value["partial_images"]) > 0):
			t.Errorf("edit %d, after learning, asked n=%q stream=%q partial_images=%q, want 1 and no stream", i+1, n, stream, f.Value["partial_images"])
		}
	}
	for _, field := range []string{"n", "stream", "partial_images", "model", "size", "prompt"} {
		for k := 1; k < 3; k++ {
			if a, b := strings.Join(forms[k].Value[field], ","), strings.Join(forms[k+3].Value[field], ","); a != b {
				t.Errorf("%s: the window's request %d asked %q, the command line's %q", field, k, a, b)
			}
		}
	}
}

// A Display P3 picture added to Edit (a PNG, read from disk as it is
// sent; a JPEG, decoded to prove it whole) shows its colours converted in
// the strip, not its numbers read as sRGB.
func TestAP3InputsThumbnailShowsItsColours(t *testing.T) {
	h := roomtest.New(t)
	r := New(h)
	h.Show(r.Build)
	dir := t.TempDir()
	profile, err := os.ReadFile("../../internal/colour/testdata/displayp3.icc")
	if err != nil {
		t.Fatal(err)
	}
	own := color.NRGBA{200, 100, 50, 255}
	pic := image.NewNRGBA(image.Rect(0, 0, 96, 96))
	for p := 0; p < len(pic.Pix); p += 4 {
		copy(pic.Pix[p:], []byte{own.R, own.G, own.B, own.A})
	}
	var pb, jb bytes.Buffer
	_ = png.Encode(&pb, pic)
	_ = jpeg.Encode(&jb, pic, &jpeg.Options{Quality: 100})
	var paths []string
	for name, data := range map[string][]byte{"p3.png": pb.Bytes(), "p3.jpg": jb.Bytes()} {
		tagged, ok := imageio.WithProfile(data, profile, "Display P3")
		if !ok {
			t.Fatal("no profile embedded")
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, tagged, 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	want, _ := imageio.FileSpace(paths[0]).ToSRGB(pic)
	h.UI(func() { r.AddFiles(paths) })
	h.Until("both thumbnails", func() bool {
		return len(r.strip.inputs) == 2 && r.strip.inputs[0].Thumb != nil && r.strip.inputs[1].Thumb != nil
	})
	h.UI(func() {
		for _, in := range r.strip.inputs {
			got := color.NRGBAModel.Convert(in.Thumb.At(in.Thumb.Bounds().Min.X+10, in.Thumb.Bounds().Min.Y+10)).(color.NRGBA)
			if !sameWithin(got, want.NRGBAAt(0, 0), 3) {
				t.Errorf("%s's thumbnail shows %v; its colour in sRGB is %v (its own numbers %v)", in.Image.Name, got, want.NRGBAAt(0, 0), own)
			}
		}
	})
}
