package demoservice

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"sync"
	"time"

	"easel/internal/c2pa"
)

// signerName is the organisation the demo signs as: never OpenAI's, so a
// demo answer cannot pass for one of theirs.
const signerName = "Easel demo service (not OpenAI)"

// signer is the demo's signing key and its certificate, issued by a root
// of its own, made the first time an answer is signed, as OpenAI signs
// what its image models make with C2PA Content Credentials. The root is
// trusted by this process alone (c2pa.AddRoots): its key lives only in
// this process's memory, so no file from elsewhere chains to it, and the
// demo's answers read as signed by the demo, not as claims.
type signer struct {
	once sync.Once
	key  *ecdsa.PrivateKey
	cert []byte
	err  error
}

// store is a manifest store claiming model made the picture.
func (g *signer) store(model string) ([]byte, error) {
	g.once.Do(func() {
		g.key, g.cert, g.err = demoCertificate()
	})
	if g.err != nil {
		return nil, g.err
	}
	return c2pa.Sign(model, g.key, g.cert)
}

// demoCertificate makes a root, trusts it in this process, and issues
// the demo's signing certificate from it.
func demoCertificate() (*ecdsa.PrivateKey, []byte, error) {
	rootKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	now := time.Now()
	root := &x509.Certificate{SerialNumber: big.NewInt(now.UnixNano()),
		Subject:   pkix.Name{Organization: []string{signerName}, CommonName: "Easel demo root (this process only)"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.AddDate(1, 0, 0), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	rootDER, err := x509.CreateCertificate(rand.Reader, root, root, &rootKey.PublicKey, rootKey)
	if err != nil {
		return nil, nil, err
	}
	if _, err := c2pa.AddRoots(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: rootDER})); err != nil {
		return nil, nil, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	leaf := &x509.Certificate{SerialNumber: big.NewInt(now.UnixNano() + 1),
		Subject:   pkix.Name{Organization: []string{signerName}, CommonName: "Easel demo signer"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.AddDate(1, 0, 0), KeyUsage: x509.KeyUsageDigitalSignature}
	parent, _ := x509.ParseCertificate(rootDER)
	cert, err := x509.CreateCertificate(rand.Reader, leaf, parent, &key.PublicKey, rootKey)
	return key, cert, err
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
