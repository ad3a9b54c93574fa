package api

import (
	"encoding/base64"
	"strings"
	"testing"
)

func TestParseWireEdgeCases(t *testing.T) {
	data := []byte("\xff\xfe/any bytes?>")
	b64 := base64.StdEncoding.EncodeToString(data) // holds '/' and '+'
	escaped := strings.ReplaceAll(b64, "/", `\/`)
	for _, tc := range []struct {
		name, body string
		ok         bool
	}{
		{"plain", `{"data":[{"b64_json":"` + b64 + `"}]}`, true},
		{"escaped slashes", `{"data":[{"b64_json" : "` + escaped + `"}]}`, true},
		{"key inside text", `{"data":[{"revised_prompt":"say \"b64_json\": here","b64_json":"` + b64 + `"}]}`, true},
		{"truncated in image", `{"data":[{"b64_json":"` + b64[:4], false},
		{"truncated after", `{"data":[{"b64_json":"` + b64 + `"}`, false},
		{"not base64", `{"data":[{"b64_json":"@@@@"}]}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := parseWire([]byte(tc.body))
			if err == nil {
				var got []byte
				got, err = w.image(w.meta.Get("data.0.b64_json"))
				if err == nil && string(got) != string(data) {
					t.Fatalf("decoded %q", got)
				}
			}
			if (err == nil) != tc.ok {
				t.Errorf("err = %v, want ok=%v", err, tc.ok)
			}
		})
	}
}
