package c2pa

import (
	"bytes"
	"crypto/x509"
	"encoding/binary"
	"strings"
	"unicode"

	"github.com/fxamacker/cbor/v2"
	"github.com/veraison/go-cose"

	"easel/internal/catalogue"
	"easel/internal/framing"
)

// Check is how far a credential's signature was checked.
type Check int

const (
	// Unchecked: the manifest could not be read far enough to check its
	// signature (a form Easel does not know, a certificate it cannot
	// parse, an algorithm go-cose lacks).
	Unchecked Check = iota
	// Valid: the signature matches the claim and the certificate it
	// names, and that certificate chains to a root Easel trusts
	// (trust.go): the signer is who the certificate says.
	Valid
	// Invalid: the signature does not match: the claim was changed after
	// signing, or the signature is not the certificate's.
	Invalid
	// Claimed: the signature matches its certificate, but the
	// certificate chains to no root Easel trusts (self-signed, or an
	// unknown authority): who signed is only what it claims.
	Claimed
)

// Credential is what a file's active C2PA manifest says: who signed it
// and what made it.
type Credential struct {
	// Generator is the claim's generator ("ChatGPT 1.0"), as it came.
	Generator string
	// Signer and Issuer are the signing certificate's subject and issuer
	// (organisation, else common name), as they came.
	Signer, Issuer string
	Check          Check
}

// maxStore bounds the manifest store read from a file: OpenAI's are a
// few tens of kilobytes; a store of megabytes is no credential Easel can
// use.
const maxStore = 8 << 20

// Read is the credential of the active (last) manifest in data's
// manifest store; ok is false when data carries none (Present). A store
// Easel cannot read is a credential with nothing known and Unchecked.
func Read(data []byte) (c Credential, ok bool) {
	store, ok := storeOf(data)
	if !ok {
		return Credential{}, false
	}
	if len(store) > maxStore {
		return Credential{}, true
	}
	top, ok := firstBox(store)
	if !ok || top.label != "c2pa" {
		return Credential{}, true
	}
	var active box
	for b := range boxes(top.content) {
		if b.kind == "jumb" {
			active = b
		}
	}
	var claim, signature []byte
	for b := range boxes(active.content) {
		switch b.label {
		case "c2pa.claim", "c2pa.claim.v2":
			claim = cborContent(b)
		case "c2pa.signature":
			signature = cborContent(b)
		}
	}
	c.Generator = generator(claim)
	c.Signer, c.Issuer, c.Check = checkSignature(claim, signature)
	return c, true
}

// storeOf is the manifest store's bytes where data's format puts it.
func storeOf(data []byte) ([]byte, bool) {
	for kind, chunk := range framing.PNGChunks(data) {
		if kind == "caBX" {
			return chunk, true
		}
	}
	for kind, chunk := range framing.WebPChunks(data) {
		if kind == "C2PA" {
			return chunk, true
		}
	}
	return jpegStore(data)
}

// jpegStore joins a JPEG's APP11 segments of the c2pa store (JPEG XT:
// "JP", a box instance, a sequence number, then the box; each segment
// after the first repeats the box's 8-byte header, which is dropped).
func jpegStore(data []byte) ([]byte, bool) {
	var store []byte
	found := false
	for marker, seg := range framing.JPEGSegments(data) {
		if marker != 0xeb || len(seg) < 16 || string(seg[:2]) != "JP" {
			continue
		}
		payload := seg[8:]
		if !found {
			if !bytes.Contains(payload[:min(len(payload), 64)], []byte("c2pa")) {
				continue
			}
			found = true
			store = append(store, payload...)
			continue
		}
		store = append(store, payload[8:]...)
		if len(store) > maxStore {
			break
		}
	}
	return store, found
}

// box is one JUMBF box: its type and content, and for a superbox
// (jumb) its description's label, the content being the boxes after
// the description.
type box struct {
	kind    string
	label   string
	content []byte
	// size is the whole box's length, its header included.
	size int
}

// boxes yields the boxes laid end to end in data (ISO BMFF framing:
// a 4-byte length, a 4-byte type; a length of 1 is followed by a
// 64-bit one), each length checked against what is left.
func boxes(data []byte) func(func(box) bool) {
	return func(yield func(box) bool) {
		for len(data) >= 8 {
			n, kind, head := uint64(binary.BigEndian.Uint32(data)), string(data[4:8]), uint64(8)
			switch n {
			case 0:
				n = uint64(len(data))
			case 1:
				if len(data) < 16 {
					return
				}
				n, head = binary.BigEndian.Uint64(data[8:16]), 16
			}
			if n < head || n > uint64(len(data)) {
				return
			}
			b := box{kind: kind, content: data[head:n], size: int(n)}
			if kind == "jumb" {
				b.label, b.content = describe(b.content)
			}
			if !yield(b) {
				return
			}
			data = data[n:]
		}
	}
}

// firstBox is data's first box.
func firstBox(data []byte) (box, bool) {
	for b := range boxes(data) {
		return b, true
	}
	return box{}, false
}

// describe reads a superbox's description box (jumd: a 16-byte type,
// a toggles byte, then, when toggled, a label ending in a zero) and
// returns the label and the boxes after it.
func describe(content []byte) (string, []byte) {
	d, ok := firstBox(content)
	if !ok || d.kind != "jumd" || len(d.content) < 17 {
		return "", nil
	}
	rest := content[d.size:]
	if d.content[16]&0x02 == 0 {
		return "", rest
	}
	label, _, _ := bytes.Cut(d.content[17:], []byte{0})
	return string(label), rest
}

// cborContent is the content of a superbox's cbor box.
func cborContent(b box) []byte {
	for c := range boxes(b.content) {
		if c.kind == "cbor" {
			return c.content
		}
	}
	return nil
}

// generator is a claim's generator: claim_generator_info's name and
// version (an array of them in version 1 claims, one in version 2),
// else claim_generator.
func generator(claim []byte) string {
	var m struct {
		Generator string          `cbor:"claim_generator"`
		Info      cbor.RawMessage `cbor:"claim_generator_info"`
	}
	if cbor.Unmarshal(claim, &m) != nil {
		return ""
	}
	type info struct {
		Name    string `cbor:"name"`
		Version string `cbor:"version"`
	}
	var one info
	if cbor.Unmarshal(m.Info, &one) != nil || one.Name == "" {
		var many []info
		if cbor.Unmarshal(m.Info, &many) == nil && len(many) > 0 {
			one = many[0]
		}
	}
	if one.Name == "" {
		return clean(m.Generator)
	}
	return clean(strings.TrimSpace(one.Name + " " + one.Version))
}

// checkSignature reads the signature (COSE_Sign1, its payload the claim,
// detached) and its certificate chain (x5chain, label 33, protected or
// not), and checks the signature with go-cose against the leaf
// certificate's key.
func checkSignature(claim, signature []byte) (signer, issuer string, check Check) {
	var msg cose.Sign1Message
	if len(claim) == 0 || msg.UnmarshalCBOR(signature) != nil {
		return "", "", Unchecked
	}
	chain := certificates(msg.Headers.Protected[cose.HeaderLabelX5Chain])
	if len(chain) == 0 {
		chain = certificates(msg.Headers.Unprotected[cose.HeaderLabelX5Chain])
	}
	if len(chain) == 0 {
		return "", "", Unchecked
	}
	cert := chain[0]
	signer, issuer = name(cert.Subject.Organization, cert.Subject.CommonName), name(cert.Issuer.Organization, cert.Issuer.CommonName)
	alg, err := msg.Headers.Protected.Algorithm()
	if err != nil {
		return signer, issuer, Unchecked
	}
	verifier, err := cose.NewVerifier(alg, cert.PublicKey)
	if err != nil {
		return signer, issuer, Unchecked
	}
	msg.Payload = claim
	if msg.Verify(nil, verifier) != nil {
		return signer, issuer, Invalid
	}
	if !chains(cert, chain[1:]) {
		return signer, issuer, Claimed
	}
	return signer, issuer, Valid
}

// certificates are an x5chain header's certificates, leaf first: one
// certificate, or an array of them. A certificate that does not parse
// ends the chain there.
func certificates(v any) []*x509.Certificate {
	var ders [][]byte
	switch v := v.(type) {
	case []byte:
		ders = [][]byte{v}
	case []any:
		for _, d := range v[:min(len(v), maxChain)] {
			if der, ok := d.([]byte); ok {
				ders = append(ders, der)
			}
		}
	}
	var out []*x509.Certificate
	for _, der := range ders {
		cert, err := x509.ParseCertificate(der)
		if err != nil {
			break
		}
		out = append(out, cert)
	}
	return out
}

// maxChain bounds the certificates read from a manifest: real chains
// are two or three long.
const maxChain = 8

// name is an organisation, else a common name, as shown to a person.
func name(org []string, cn string) string {
	if len(org) > 0 && org[0] != "" {
		return clean(org[0])
	}
	return clean(cn)
}

// clean bounds a name a file gave and drops what is not printable: it
// is shown in the details as it came, but a file is untrusted.
func clean(s string) string {
	s = strings.Map(func(r rune) rune {
		// Control characters, and format ones (a right-to-left
		// override would show a name other than the one signed).
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\uFFFD' {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, ""))
	if r := []rune(s); len(r) > 80 {
		s = string(r[:80]) + "…"
	}
	return strings.TrimSpace(s)
}

// Line says, for a person, what data's Content Credentials are, or ""
// when it carries none.
func Line(data []byte) string {
	c, ok := Read(data)
	if !ok {
		return ""
	}
	made := c.Generator
	if made == "" {
		made = catalogue.T("an unnamed tool")
	}
	switch c.Check {
	case Valid:
		return catalogue.F("Content Credentials: signed by %s, made with %s; the signature matches its certificate, which chains to a trusted root", c.Signer, made)
	case Claimed:
		return catalogue.F("Content Credentials: claims to be signed by %s, made with %s (a certificate Easel cannot verify)", c.Signer, made)
	case Invalid:
		return catalogue.F("Content Credentials: said to be signed by %s, but the signature does not match: the credential was changed after signing", c.Signer)
	}
	return catalogue.T("Content Credentials: present, not verified; Easel keeps this file byte for byte so they stay valid")
}
