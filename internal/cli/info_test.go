package cli

import (
	"bytes"
	"image"
	"image/png"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"easel/internal/demoservice"
	"easel/internal/imageio"
	"easel/internal/testsupport/signed"
)

// easel info says of each file its format and size, what it declares of
// its colours (an embedded profile by its name, sRGB, or nothing) and
// whether it carries Content Credentials; nothing is sent.
func TestInfoSaysColoursAndCredentials(t *testing.T) {
	var b bytes.Buffer
	png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, 80, 60)))
	plain := b.Bytes()
	dir := t.TempDir()
	profile, err := os.ReadFile("../colour/testdata/adobergb.icc")
	if err != nil {
		t.Fatal(err)
	}
	adobe, _ := imageio.WithProfile(plain, profile, "Adobe RGB (1998)")
	files := map[string][]byte{
		"plain.png":  plain,
		"adobe.png":  adobe,
		"broken.png": signed.WithChunk(plain, "iCCP", []byte("Adobe RGB (1998)\x00\x00not deflated")),
		"signed.png": signed.WithChunk(signed.WithChunk(plain, "sRGB", []byte{0}), "caBX", []byte("\x00\x00\x00\x10jumbjumdc2pa")),
	}
	var args []string
	for name, data := range files {
		p := filepath.Join(dir, name)
		os.WriteFile(p, data, 0o600)
		args = append(args, p)
	}
	env, out, errOut := testEnv(t, "http://127.0.0.1:1/v1") // nothing may be sent
	if code := Run(append([]string{"info"}, args...), env); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	said := out.String()
	for _, want := range []string{"PNG 80×60", "Colours: Interchangeable with Adobe RGB (1998), from its embedded profile; shown and sent converted to sRGB",
		"an embedded profile Easel cannot read, so read as sRGB", "sRGB, as the file says", "no profile, read as sRGB",
		"Content Credentials: present, not verified", "Content Credentials: none"} {
		if !strings.Contains(said, want) {
			t.Errorf("easel info did not say %q:\n%s", want, said)
		}
	}
}

// #53: a PNG whose embedded profile claims gigabytes (a tag count, a tag
// offset, a curve's length) ended `easel info` with Go's unrecoverable
// out-of-memory at that file. Each is now described, the damage named,
// and the files after it are listed too.
func TestInfoDescribesEachProfileBomb(t *testing.T) {
	var b bytes.Buffer
	png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, 40, 30)))
	dir := t.TempDir()
	var args []string
	for _, name := range []string{"bomb-tagcount.icc", "bomb-tagoffset.icc", "bomb-curve.icc"} {
		profile, err := os.ReadFile("../colour/testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		data, ok := imageio.WithProfile(b.Bytes(), profile, "Display P3")
		if !ok {
			t.Fatal("no profile embedded")
		}
		p := filepath.Join(dir, name+".png")
		os.WriteFile(p, data, 0o600)
		args = append(args, p)
	}
	last := filepath.Join(dir, "last.png")
	os.WriteFile(last, b.Bytes(), 0o600)
	env, out, errOut := testEnv(t, "http://127.0.0.1:1/v1")
	if code := Run(append([]string{"info"}, append(args, last)...), env); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	said := out.String()
	if n := strings.Count(said, "Colours: an embedded profile that is damaged ("); n != 3 {
		t.Errorf("%d of 3 bombs said to be damaged:\n%s", n, said)
	}
	for _, want := range []string{"4294967295 tags", "outside the profile's", "a curve of 4294967295 points", "last.png", "no profile, read as sRGB"} {
		if !strings.Contains(said, want) {
			t.Errorf("easel info did not say %q:\n%s", want, said)
		}
	}
}

// An answer the service signed (the demo signs as OpenAI does) is
// written as it came: its Content Credentials are still there, and
// still verify.
func TestASignedAnswerIsWrittenWithItsCredential(t *testing.T) {
	ts := httptest.NewServer(demoservice.New(demoservice.Config{Key: "sk-cli-test-key-123456"}))
	defer ts.Close()
	env, out, errOut := testEnv(t, ts.URL+"/v1")
	dir := t.TempDir()
	if code := Run([]string{"gen", "--prompt", "a signed fox", "--out", dir}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	path := strings.TrimSpace(out.String())
	out.Reset()
	if code := Run([]string{"info", path}, env); code != 0 || !strings.Contains(out.String(), "Content Credentials: signed by Easel demo service (not OpenAI), made with gpt-image-1; the signature matches") {
		t.Errorf("the written answer lost its credential: %s", out)
	}
}
