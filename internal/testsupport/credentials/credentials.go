// Package credentials makes, for tests, C2PA manifest stores whose
// signatures verify (package signed makes PNGs that merely carry one; it
// cannot import c2pa, whose own tests use it).
package credentials

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"testing"
	"time"

	"easel/internal/c2pa"
)

// Manifest is a C2PA manifest store claiming generator made a picture,
// signed by a key and self-signed certificate made for the test, whose
// subject's organisation is org, and trusted as a user-added root: what
// OpenAI's answers carry, with a signer that verifies.
func Manifest(tb testing.TB, generator, org string) []byte {
	tb.Helper()
	store, root := Unverified(tb, generator, org)
	if _, err := c2pa.AddRoots(root); err != nil {
		tb.Fatal(err)
	}
	return store
}

// Unverified is Manifest without trusting its certificate, and that
// certificate as PEM: a store that verifies but whose signer is only a
// claim until root is trusted (by another process, trust-roots.pem).
func Unverified(tb testing.TB, generator, org string) (store, root []byte) {
	tb.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{Organization: []string{org}},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	cert, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		tb.Fatal(err)
	}
	store, err = c2pa.Sign(generator, key, cert)
	if err != nil {
		tb.Fatal(err)
	}
	return store, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert})
}
