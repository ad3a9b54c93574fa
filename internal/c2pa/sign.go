package c2pa

import (
	"crypto"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"

	"github.com/fxamacker/cbor/v2"
	"github.com/veraison/go-cose"

	"easel/internal/framing"
)

// Sign makes a manifest store of one manifest whose claim says generator
// made the picture, signed (ES256) with key, whose certificate is cert
// (DER): what the demo service puts in its answers, as OpenAI's carry
// one, so that reading, keeping and showing credentials is tested
// offline. The claim binds no hash of the picture.
func Sign(generator string, key crypto.Signer, cert []byte) ([]byte, error) {
	id := make([]byte, 16)
	_, _ = rand.Read(id) // crypto/rand does not fail
	claim, err := cbor.Marshal(map[string]any{
		"claim_generator":      generator,
		"claim_generator_info": []map[string]string{{"name": generator}},
		"signature":            "self#jumbf=c2pa.signature",
		"assertions":           []any{},
		"dc:format":            "image/png",
		"instanceID":           "xmp:iid:" + hex.EncodeToString(id),
		"alg":                  "sha256",
	})
	if err != nil {
		return nil, err
	}
	signer, err := cose.NewSigner(cose.AlgorithmES256, key)
	if err != nil {
		return nil, err
	}
	msg := cose.NewSign1Message()
	msg.Headers.Protected.SetAlgorithm(cose.AlgorithmES256)
	msg.Headers.Protected[cose.HeaderLabelX5Chain] = [][]byte{cert}
	msg.Payload = claim
	if err := msg.Sign(rand.Reader, nil, signer); err != nil {
		return nil, err
	}
	msg.Payload = nil // detached: the payload is the claim box
	signature, err := msg.MarshalCBOR()
	if err != nil {
		return nil, err
	}
	manifest := "urn:uuid:" + hex.EncodeToString(id)
	return superbox("c2pa",
		superbox(manifest,
			superbox("c2pa.assertions"),
			superbox("c2pa.claim", plainBox("cbor", claim)),
			superbox("c2pa.signature", plainBox("cbor", signature)))), nil
}

// plainBox is a box of kind holding content.
func plainBox(kind string, content []byte) []byte {
	out := binary.BigEndian.AppendUint32(nil, uint32(8+len(content)))
	return append(append(out, kind...), content...)
}

// superbox is a jumb box labelled label holding children, after its
// description (its type left zero: Easel reads boxes by label).
func superbox(label string, children ...[]byte) []byte {
	desc := append(make([]byte, 16), 0x03) // requestable, labelled
	desc = append(append(desc, label...), 0)
	content := plainBox("jumd", desc)
	for _, c := range children {
		content = append(content, c...)
	}
	return plainBox("jumb", content)
}

// Embed is data (a PNG, JPEG or WebP) with store written where the
// standard puts a manifest store: a caBX chunk after a PNG's header, an
// APP11 segment (JPEG XT box framing) after a JPEG's start, a C2PA chunk
// at a WebP's end. ok is false for another format, or a store too large
// for one JPEG segment.
func Embed(data, store []byte) (out []byte, ok bool) {
	switch framing.Kind(data) {
	case framing.PNG:
		return framing.AfterHeader(data, framing.Chunk("caBX", store))
	case framing.JPEG:
		// "JP", box instance 1, sequence 1, then the box itself.
		body := append([]byte{'J', 'P', 0, 1, 0, 0, 0, 1}, store...)
		if len(body)+2 > 0xffff {
			return nil, false
		}
		seg := append(binary.BigEndian.AppendUint16([]byte{0xff, 0xeb}, uint16(len(body)+2)), body...)
		return append(append(append([]byte{}, data[:2]...), seg...), data[2:]...), true
	case framing.WebP:
		chunk := binary.LittleEndian.AppendUint32([]byte("C2PA"), uint32(len(store)))
		chunk = append(chunk, store...)
		if len(store)%2 == 1 {
			chunk = append(chunk, 0)
		}
		out = append(append([]byte{}, data...), chunk...)
		binary.LittleEndian.PutUint32(out[4:8], uint32(len(out)-8))
		return out, true
	}
	return nil, false
}
