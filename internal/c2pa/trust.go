package c2pa

import (
	"crypto/x509"
	"embed"
	"encoding/pem"
	"errors"
	"sync"
	"time"
)

// A signature that matches its certificate says nothing of who signed:
// anyone can make a certificate whose subject reads "OpenAI". A
// credential is Valid only when its certificate chains to a root Easel
// trusts: the C2PA Trust List and the interim list before it (trust/,
// its README says where each came from), and roots the user added.
// Anything else that verifies is Claimed.

//go:embed trust/*.pem
var bundled embed.FS

var (
	trustMu sync.Mutex
	trusted *x509.CertPool
	added   []*x509.Certificate
)

// roots is the pool chains are checked against: the bundled roots, read
// once, and those added since.
func roots() *x509.CertPool {
	trustMu.Lock()
	defer trustMu.Unlock()
	if trusted == nil {
		trusted = x509.NewCertPool()
		files, _ := bundled.ReadDir("trust")
		for _, f := range files {
			if data, err := bundled.ReadFile("trust/" + f.Name()); err == nil {
				trusted.AppendCertsFromPEM(data)
			}
		}
		for _, c := range added {
			trusted.AddCert(c)
		}
	}
	return trusted
}

// errNoRoots is AddRoots' answer for a file with no certificate in it.
var errNoRoots = errors.New("c2pa: no PEM certificate found")

// AddRoots trusts the certificates in data (PEM) (a user's own signing root, a
// newer list) besides the bundled ones, and returns how many it took.
func AddRoots(data []byte) (int, error) {
	var certs []*x509.Certificate
	for rest := data; ; {
		var block *pem.Block
		if block, rest = pem.Decode(rest); block == nil {
			break
		}
		if c, err := x509.ParseCertificate(block.Bytes); block.Type == "CERTIFICATE" && err == nil {
			certs = append(certs, c)
		}
	}
	if len(certs) == 0 {
		return 0, errNoRoots
	}
	trustMu.Lock()
	defer trustMu.Unlock()
	added = append(added, certs...)
	if trusted != nil {
		for _, c := range certs {
			trusted.AddCert(c)
		}
	}
	return len(certs), nil
}

// chains reports whether leaf, with the intermediates a manifest carried,
// chains to a trusted root. The chain is checked at a moment inside the
// leaf's validity (its NotBefore): a credential signed while its
// certificate was valid stays a credential after it expires, as C2PA's
// time-stamps have it; Easel reads no time-stamp, so this is the
// signature's claim of when, not a proof.
func chains(leaf *x509.Certificate, intermediates []*x509.Certificate) bool {
	pool := x509.NewCertPool()
	for _, c := range intermediates {
		pool.AddCert(c)
	}
	_, err := leaf.Verify(x509.VerifyOptions{Roots: roots(), Intermediates: pool,
		CurrentTime: leaf.NotBefore.Add(time.Second), KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageAny}})
	return err == nil
}
