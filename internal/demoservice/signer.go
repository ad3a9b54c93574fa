package demoservice

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"sync"
	"time"

	"easel/internal/c2pa"
)

// signerName is the organisation the demo signs as: never OpenAI's, so a
// demo answer cannot pass for one of theirs.
const signerName = "Easel demo service (not OpenAI)"

// signer is the demo's signing key and its self-signed certificate,
// made the first time an answer is signed, as OpenAI signs what its
// image models make with C2PA Content Credentials.
type signer struct {
	once sync.Once
	key  *ecdsa.PrivateKey
	cert []byte
	err  error
}

// store is a manifest store claiming model made the picture.
func (g *signer) store(model string) ([]byte, error) {
	g.once.Do(func() {
		if g.key, g.err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader); g.err != nil {
			return
		}
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()),
			Subject:   pkix.Name{Organization: []string{signerName}, CommonName: "Easel demo signer"},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().AddDate(1, 0, 0),
			KeyUsage: x509.KeyUsageDigitalSignature}
		g.cert, g.err = x509.CreateCertificate(rand.Reader, tmpl, tmpl, &g.key.PublicKey, g.key)
	})
	if g.err != nil {
		return nil, g.err
	}
	return c2pa.Sign(model, g.key, g.cert)
}

// sign puts a manifest store in an answer (c2pa.Embed), as OpenAI signs
// what its image models make: its claim says model made it. An answer
// it cannot sign goes as it is.
func (g *signer) sign(p []byte, model string) []byte {
	store, err := g.store(model)
	if err != nil {
		return p
	}
	if out, ok := c2pa.Embed(p, store); ok {
		return out
	}
	return p
}
