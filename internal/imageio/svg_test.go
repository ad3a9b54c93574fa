package imageio

import (
	"bytes"
	"fmt"
	"image"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

const plainSVG = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="150" viewBox="0 0 300 150">
<rect x="0" y="0" width="150" height="150" fill="#ff0000"/><circle cx="225" cy="75" r="60" fill="#0000ff"/></svg>`

func TestAnSVGIsSniffedAndDrawnAtItsOwnShape(t *testing.T) {
	format, w, h, err := SniffImage([]byte(plainSVG))
	if err != nil || format != "svg" || w != 300 || h != 150 {
		t.Fatalf("sniffed %q %dx%d, %v", format, w, h, err)
	}
	img, err := DecodeBounded(strings.NewReader(plainSVG), MaxPixels)
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Bounds().Size(); got != image.Pt(300, 150) {
		t.Fatalf("drawn at %v", got)
	}
	if r, g, b, _ := img.At(70, 70).RGBA(); r>>8 < 240 || g>>8 > 10 || b>>8 > 10 {
		t.Errorf("the red square is %d,%d,%d", r>>8, g>>8, b>>8)
	}
	if r, _, b, _ := img.At(225, 75).RGBA(); b>>8 < 240 || r>>8 > 10 {
		t.Errorf("the blue circle is not blue")
	}
	if _, _, _, a := img.At(160, 5).RGBA(); a != 0 {
		t.Error("the canvas is not transparent where nothing is drawn")
	}
}

// listener counts every connection made to it: a drawing that fetched
// anything would show here.
func listener(t *testing.T) (string, *atomic.Int64) {
	var hits atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "image/png")
	}))
	srv.Config.ConnState = func(net.Conn, http.ConnState) { hits.Add(1) }
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL, &hits
}

func TestHostileSVGsAreKeptAndDrawnWithoutFetchingRunningOrExpanding(t *testing.T) {
	url, hits := listener(t)
	var path strings.Builder
	path.WriteString("M0 0")
	for i := range 100_000 {
		fmt.Fprintf(&path, " L%d %d", i%1000, i/100)
	}
	var many strings.Builder
	for range 100_000 {
		many.WriteString(`<rect width="1" height="1"/>`)
	}
	laughs := `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY lol "lol">` +
		`<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">` +
		`<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">` +
		`<!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]>` +
		`<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><text>&lol9;</text></svg>`
	for _, tc := range []struct {
		name  string
		svg   string
		drawn bool
	}{
		{"script", `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><script>fetch("` + url + `/script")</script>` +
			`<rect width="64" height="64" fill="green" onload="fetch('` + url + `/onload')"/></svg>`, true},
		{"external image", `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="64">` +
			`<image href="` + url + `/a.png" width="64" height="64"/><image xlink:href="` + url + `/b.png"/>` +
			`<use href="` + url + `/c.svg#x"/><rect width="8" height="8"/></svg>`, true},
		// oksvg reads no @import: the sheet is refused, nothing fetched.
		{"css import", `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><style>@import url(` + url + `/d.css);</style><rect width="8" height="8"/></svg>`, false},
		{"external entity", `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY ext SYSTEM "` + url + `/e.xml">]>` +
			`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&ext;</text></svg>`, false},
		{"billion laughs", laughs, false},
		{"100,000-segment path", `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000"><path d="` + path.String() + `" stroke="black"/></svg>`, true},
		{"100,000 elements", `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">` + many.String() + `</svg>`, false},
		{"gigapixel canvas", `<svg xmlns="http://www.w3.org/2000/svg" width="1000000" height="1000000"><rect width="10" height="10"/></svg>`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(tc.svg)
			format, w, h, err := SniffImage(data)
			if err != nil || format != "svg" {
				t.Fatalf("not kept as an SVG: %q, %v", format, err)
			}
			if int64(w)*int64(h) > SVGSide*SVGSide {
				t.Errorf("claims %dx%d to draw", w, h)
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			img, err := DecodeBounded(bytes.NewReader(data), MaxPixels)
			took := time.Since(start)
			runtime.ReadMemStats(&after)
			if tc.drawn != (err == nil) {
				t.Errorf("drawn: %v, want %v", err, tc.drawn)
			}
			if img != nil && img.Bounds().Dx()*img.Bounds().Dy() > SVGSide*SVGSide {
				t.Errorf("drawn at %v", img.Bounds())
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 256<<20 {
				t.Errorf("drawing it allocated %d MB", grew>>20)
			}
			if took > 20*time.Second {
				t.Errorf("drawing it took %v", took)
			}
		})
	}
	time.Sleep(50 * time.Millisecond)
	if n := hits.Load(); n != 0 {
		t.Errorf("drawing the SVGs reached the network %d times", n)
	}
}

func TestTextThatIsNotAnSVGIsNoImage(t *testing.T) {
	for _, s := range []string{`<html><body>502</body></html>`, `<?xml version="1.0"?><feed/>`, `not xml`} {
		if f, _, _, err := SniffImage([]byte(s)); err == nil {
			t.Errorf("%q sniffed as %s", s, f)
		}
	}
}

// #53: counts inside the bounds still made minutes of drawing — one path
// of 180,000 arcs of radius 9e6, a gradient of 19,000 stops — and a
// nesting past the depth bound was refused as too many elements. Each is
// refused with its own reason, in seconds.
func TestSVGDrawingWorkIsBoundedAndNamed(t *testing.T) {
	var arcs strings.Builder
	arcs.WriteString("M0 0")
	for range 180_000 {
		arcs.WriteString(" a9e6 9e6 0 1 1 1 0")
	}
	var stops strings.Builder
	for i := range 19_000 {
		fmt.Fprintf(&stops, `<stop offset="%g" stop-color="#%06x"/>`, float64(i)/19_000, i*883%0xffffff)
	}
	deep := strings.Repeat("<g>", 600) + `<rect width="9" height="9"/>` + strings.Repeat("</g>", 600)
	for _, tc := range []struct{ name, svg, why string }{
		{"arcs of radius 9e6", `<svg xmlns="http://www.w3.org/2000/svg" width="2048" height="2048"><path d="` + arcs.String() + `" stroke="black" fill="red"/></svg>`, "too much work"},
		{"19,000 stops", `<svg xmlns="http://www.w3.org/2000/svg" width="2048" height="2048"><defs><linearGradient id="g">` + stops.String() +
			`</linearGradient></defs><rect width="2048" height="2048" fill="url(#g)"/></svg>`, "stops"},
		{"600 deep", `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64">` + deep + `</svg>`, "nested more than 512 deep"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			_, err := DecodeBounded(strings.NewReader(tc.svg), MaxPixels)
			// Under -race the drawing is several times slower and the
			// deadline may come before the budget: either ends it.
			if err == nil || !strings.Contains(err.Error(), tc.why) && !strings.Contains(err.Error(), "took longer than") {
				t.Errorf("err %v, want one saying %q", err, tc.why)
			}
			if took := time.Since(start); took > 20*time.Second {
				t.Errorf("refusing it took %v", took)
			}
		})
	}
}

// A drawing past its deadline stops there, whatever its counts.
func TestSVGDrawingStopsAtItsDeadline(t *testing.T) {
	defer func(d time.Duration) { SVGDeadline = d }(SVGDeadline)
	SVGDeadline = -time.Second // passed already: Windows' clock may not tick between two reads
	_, err := DecodeBounded(strings.NewReader(plainSVG), MaxPixels)
	if err == nil || !strings.Contains(err.Error(), "took longer than") {
		t.Fatalf("err %v, want the deadline's", err)
	}
}
