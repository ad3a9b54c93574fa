package api

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"io"
	"math/rand/v2"
	"net/http"
	"runtime"
	"testing"

	"easel/internal/testsupport/benchfloor"
)

// payload is a 1536x1024 PNG of noise (it barely compresses, like a real
// photo-like result) wrapped in an images answer, as it arrives.
func payload(b *testing.B) (body []byte, b64 string, raw []byte) {
	img := image.NewNRGBA(image.Rect(0, 0, 1536, 1024))
	r := rand.New(rand.NewPCG(1, 2))
	for i := range img.Pix {
		img.Pix[i] = byte(r.UintN(256))
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		b.Fatal(err)
	}
	raw = buf.Bytes()
	b64 = base64.StdEncoding.EncodeToString(raw)
	body = []byte(`{"created":1713833628,"data":[{"b64_json":"` + b64 + `"}],"background":"opaque","output_format":"png","size":"1536x1024","quality":"high","usage":{"total_tokens":100,"input_tokens":50,"output_tokens":50,"input_tokens_details":{"text_tokens":10,"image_tokens":40}}}`)
	return body, b64, raw
}

// BenchmarkWireToFileBytes measures turning a 1536x1024 result from the
// wire into the file's bytes (read the answer, find the image, decode its
// base64, check it is an image), against the floor of a plain base64
// decode of the same payload in the same run. It reports the ratio (goal:
// at most 1.2) and the bytes allocated per byte of image: 2.33 is the
// answer (base64, 4/3) plus the image (1), the two copies the goal allows
// at the peak.
func BenchmarkWireToFileBytes(b *testing.B) {
	body, b64, raw := payload(b)
	c := New(Config{BaseURL: "http://unused/v1"})
	// The floor and the wire path are timed in pairs, back to back and
	// in turn first, and the ratio is taken within each pair: a slower
	// moment of the machine (or the other's garbage) weighs on both alike.
	var allocated uint64
	decode := func() float64 {
		return benchfloor.MedianNs(1, func() {
			dst := make([]byte, base64.StdEncoding.DecodedLen(len(b64)))
			if _, err := base64.StdEncoding.Decode(dst, []byte(b64)); err != nil {
				b.Fatal(err)
			}
		})
	}
	fromWire := func() float64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		ns := benchfloor.MedianNs(1, func() {
			resp := &http.Response{Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)), Header: http.Header{}}
			res, err := c.readImageJSON(b.Context(), resp, "m", wanted{images: 1})
			if err != nil {
				b.Fatal(err)
			}
			if !bytes.Equal(res.Images[0].Data[:64], raw[:64]) {
				b.Fatal("wrong bytes")
			}
		})
		runtime.ReadMemStats(&after)
		allocated += after.TotalAlloc - before.TotalAlloc
		return ns
	}
	floor, ratios := benchfloor.Pairs(b.N, decode, fromWire)
	b.ReportMetric(benchfloor.Median(floor)/1e6, "floor-ms")
	b.ReportMetric(benchfloor.Median(ratios), "ratio-to-base64")
	b.ReportMetric(float64(allocated)/float64(b.N)/float64(len(raw)), "alloc-bytes-per-image-byte")
}
