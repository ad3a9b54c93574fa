package c2pa

import (
	"testing"

	"easel/internal/testsupport/signed"
)

// FuzzRead hands the manifest reader (JUMBF boxes, CBOR, COSE, X.509)
// any file: no panic, and a credential's names stay bounded and clean.
func FuzzRead(f *testing.F) {
	key, cert := selfSigned(f, "OpenAI")
	store, err := Sign("ChatGPT 1.0", key, cert)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(signed.WithChunk(signed.PNG(f, 4, 4), "caBX", store))
	f.Add(signed.PNG(f, 4, 4))
	f.Add(store)
	f.Fuzz(func(t *testing.T, data []byte) {
		c, _ := Read(data)
		if len([]rune(c.Signer)) > 81 || len([]rune(c.Issuer)) > 81 {
			t.Fatalf("a name of %d runes", len([]rune(c.Signer)))
		}
		_ = Line(data)
	})
}
