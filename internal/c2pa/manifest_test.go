package c2pa

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"image"
	"image/jpeg"
	"image/png"
	"math/big"
	"testing"
	"time"

	"easel/internal/imageio"
	"easel/internal/testsupport/signed"
)

// plainPNG is a small PNG without a credential.
func plainPNG(t *testing.T) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, 4, 4))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// testSigner is a key and a self-signed certificate made for the test.
func testSigner(t *testing.T) (*ecdsa.PrivateKey, []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1),
		Subject:   pkix.Name{Organization: []string{"Test Signer Org"}, CommonName: "test signer"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return key, der
}

// A store Sign made is read back: its generator, its signer, and a
// signature that matches; changed after signing, it no longer does.
func TestASignedManifestIsReadAndChecked(t *testing.T) {
	key, cert := testSigner(t)
	store, err := Sign("gpt-image-1 (demo)", key, cert)
	if err != nil {
		t.Fatal(err)
	}
	data := signed.WithChunk(plainPNG(t), "caBX", store)
	c, ok := Read(data)
	if !ok || c.Generator != "gpt-image-1 (demo)" || c.Signer != "Test Signer Org" || c.Issuer != "Test Signer Org" || c.Check != Valid {
		t.Fatalf("Read = %+v, %v", c, ok)
	}
	// The claim's generator changed after signing, its length kept.
	tampered := bytes.Replace(store, []byte("gpt-image-1 (demo)"), []byte("gpt-image-9 (demo)"), -1)
	c, ok = Read(signed.WithChunk(plainPNG(t), "caBX", tampered))
	if !ok || c.Check != Invalid || c.Generator != "gpt-image-9 (demo)" {
		t.Fatalf("a changed claim reads %+v, %v", c, ok)
	}
}

// A store Easel cannot read is present and unchecked; a file without
// one has none.
func TestAnUnreadableStoreIsPresentButUnchecked(t *testing.T) {
	if c, ok := Read(signed.PNG(t, 4, 4)); !ok || c.Check != Unchecked || c.Signer != "" {
		t.Fatalf("the fake store reads %+v, %v", c, ok)
	}
	if _, ok := Read(plainPNG(t)); ok {
		t.Fatal("a plain PNG has a credential")
	}
	if c, ok := Read(signed.WithChunk(plainPNG(t), "caBX", []byte{0, 0, 0, 200, 'j', 'u', 'm', 'b'})); !ok || c != (Credential{}) {
		t.Fatalf("a box longer than its chunk reads %+v, %v", c, ok)
	}
}

// In a JPEG the store is split over APP11 segments, each after the
// first repeating the box header; they are joined before reading.
func TestAJPEGStoreSplitOverSegmentsIsJoined(t *testing.T) {
	key, cert := testSigner(t)
	store, err := Sign("ChatGPT", key, cert)
	if err != nil {
		t.Fatal(err)
	}
	var plain bytes.Buffer
	_ = jpeg.Encode(&plain, image.NewNRGBA(image.Rect(0, 0, 8, 8)), nil)
	half := len(store) / 2
	var segs []byte
	for i, part := range [][]byte{store[:half], append(append([]byte{}, store[:8]...), store[half:]...)} {
		body := append([]byte{'J', 'P', 0, 1, 0, 0, 0, byte(i + 1)}, part...)
		segs = append(segs, 0xff, 0xeb, byte((len(body)+2)>>8), byte(len(body)+2))
		segs = append(segs, body...)
	}
	data := append(append([]byte{0xff, 0xd8}, segs...), plain.Bytes()[2:]...)
	c, ok := Read(data)
	if !ok || c.Generator != "ChatGPT" || c.Check != Valid {
		t.Fatalf("Read = %+v, %v", c, ok)
	}
}

// A name a file gives is shown as it came, but bounded and printable.
func TestNamesAreCleaned(t *testing.T) {
	long := string(bytes.Repeat([]byte("a"), 200))
	if got := clean("Open\x1b[31mAI\n"); got != "Open[31mAI" {
		t.Errorf("clean = %q", got)
	}
	if got := clean("Open\u202eIA\u202c"); got != "OpenIA" {
		t.Errorf("a right-to-left override kept: %q", got)
	}
	if got := []rune(clean(long)); len(got) != 81 {
		t.Errorf("a long name kept %d runes", len(got))
	}
}

// A store embedded in each format is found, read and checked there, and
// the picture still decodes.
func TestAStoreEmbeddedInEachFormatIsReadBack(t *testing.T) {
	key, cert := testSigner(t)
	store, err := Sign("gpt-image-1", key, cert)
	if err != nil {
		t.Fatal(err)
	}
	img := image.NewNRGBA(image.Rect(0, 0, 8, 8))
	var p, j bytes.Buffer
	_ = png.Encode(&p, img)
	_ = jpeg.Encode(&j, img, nil)
	var w bytes.Buffer
	if err := imageio.EncodeTo(&w, img, "webp", 90); err != nil {
		t.Fatal(err)
	}
	webp := w.Bytes()
	for name, data := range map[string][]byte{"png": p.Bytes(), "jpeg": j.Bytes(), "webp": webp} {
		out, ok := Embed(data, store)
		if !ok {
			t.Fatalf("%s: not embedded", name)
		}
		if c, ok := Read(out); !ok || c.Check != Valid || c.Generator != "gpt-image-1" {
			t.Errorf("%s: read back %+v, %v", name, c, ok)
		}
		if _, _, err := image.Decode(bytes.NewReader(out)); err != nil {
			t.Errorf("%s with its store no longer decodes: %v", name, err)
		}
	}
}
