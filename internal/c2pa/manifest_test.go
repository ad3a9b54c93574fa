package c2pa

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math/big"
	"strings"
	"testing"
	"time"

	"easel/internal/imageio"
	"easel/internal/testsupport/fixture"
	"easel/internal/testsupport/signed"
)

// testSigner is a key and a self-signed certificate made for the test,
// added to the roots Easel trusts as a user adds their own.
func testSigner(t *testing.T) (*ecdsa.PrivateKey, []byte) {
	t.Helper()
	key, der := selfSigned(t, "Test Signer Org")
	if _, err := AddRoots(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})); err != nil {
		t.Fatal(err)
	}
	return key, der
}

// selfSigned is a key and a self-signed certificate of organisation org.
func selfSigned(t testing.TB, org string) (*ecdsa.PrivateKey, []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1),
		Subject:   pkix.Name{Organization: []string{org}, CommonName: "test signer"},
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
	data := signed.WithChunk(fixture.SolidPNG(t, 4, 4, color.Transparent), "caBX", store)
	c, ok := Read(data)
	if !ok || c.Generator != "gpt-image-1 (demo)" || c.Signer != "Test Signer Org" || c.Issuer != "Test Signer Org" || c.Check != Valid {
		t.Fatalf("Read = %+v, %v", c, ok)
	}
	// The claim's generator changed after signing, its length kept.
	tampered := bytes.Replace(store, []byte("gpt-image-1 (demo)"), []byte("gpt-image-9 (demo)"), -1)
	c, ok = Read(signed.WithChunk(fixture.SolidPNG(t, 4, 4, color.Transparent), "caBX", tampered))
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
	if _, ok := Read(fixture.SolidPNG(t, 4, 4, color.Transparent)); ok {
		t.Fatal("a plain PNG has a credential")
	}
	if c, ok := Read(signed.WithChunk(fixture.SolidPNG(t, 4, 4, color.Transparent), "caBX", []byte{0, 0, 0, 200, 'j', 'u', 'm', 'b'})); !ok || c != (Credential{}) {
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

// #53: a self-signed certificate whose subject says OpenAI, on a manifest
// saying ChatGPT made the picture, read "signed by OpenAI". Its signature
// matches its certificate, but the certificate chains to no root Easel
// trusts: it is a claim, and said as one.
func TestASelfSignedOpenAIManifestIsOnlyAClaim(t *testing.T) {
	key, cert := selfSigned(t, "OpenAI")
	store, err := Sign("ChatGPT 1.0", key, cert)
	if err != nil {
		t.Fatal(err)
	}
	data := signed.WithChunk(fixture.SolidPNG(t, 4, 4, color.Transparent), "caBX", store)
	if c, ok := Read(data); !ok || c.Check != Claimed || c.Signer != "OpenAI" {
		t.Fatalf("Read = %+v, %v", c, ok)
	}
	line := Line(data)
	if !strings.Contains(line, "claims to be signed by OpenAI") || !strings.Contains(line, "a certificate Easel cannot verify") || strings.Contains(line, "Credentials: signed by") {
		t.Errorf("Line = %q", line)
	}
}

// A leaf issued by a root Easel trusts verifies as signed; the same leaf
// whose issuer is not trusted is a claim.
func TestALeafIssuedByATrustedRootIsSigned(t *testing.T) {
	rootKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	rootTmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{Organization: []string{"Test Root"}},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	rootDER, err := x509.CreateCertificate(rand.Reader, rootTmpl, rootTmpl, &rootKey.PublicKey, rootKey)
	if err != nil {
		t.Fatal(err)
	}
	root, _ := x509.ParseCertificate(rootDER)
	leafKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	leafTmpl := &x509.Certificate{SerialNumber: big.NewInt(3), Subject: pkix.Name{Organization: []string{"Studio"}},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), KeyUsage: x509.KeyUsageDigitalSignature}
	leafDER, err := x509.CreateCertificate(rand.Reader, leafTmpl, root, &leafKey.PublicKey, rootKey)
	if err != nil {
		t.Fatal(err)
	}
	store, err := Sign("Studio 2", leafKey, leafDER)
	if err != nil {
		t.Fatal(err)
	}
	data := signed.WithChunk(fixture.SolidPNG(t, 4, 4, color.Transparent), "caBX", store)
	if c, _ := Read(data); c.Check != Claimed {
		t.Fatalf("before its root is trusted: %+v", c)
	}
	if n, err := AddRoots(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: rootDER})); n != 1 || err != nil {
		t.Fatalf("AddRoots = %d, %v", n, err)
	}
	if c, _ := Read(data); c.Check != Valid || c.Signer != "Studio" || c.Issuer != "Test Root" {
		t.Fatalf("after: %+v", c)
	}
}

// The bundled roots parse: the trust list is not silently empty.
func TestTheBundledRootsParse(t *testing.T) {
	files, _ := bundled.ReadDir("trust")
	n := 0
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), ".pem") {
			continue
		}
		data, _ := bundled.ReadFile("trust/" + f.Name())
		for rest := data; ; {
			var b *pem.Block
			if b, rest = pem.Decode(rest); b == nil {
				break
			}
			if _, err := x509.ParseCertificate(b.Bytes); err != nil {
				t.Errorf("%s: %v", f.Name(), err)
			}
			n++
		}
	}
	if n < 40 {
		t.Errorf("%d bundled roots, want the 48 of the two lists", n)
	}
}
