package imageio

import (
	"bytes"

	"easel/internal/framing"
)

// Declared is what a file says of its colours, read from its framing:
// an embedded ICC profile (a PNG's iCCP, a JPEG's APP2, a WebP's ICCP;
// Name is a PNG's profile name, "" elsewhere), a PNG's sRGB chunk, or
// nothing (read as sRGB). The profile itself is not read here.
type Declared struct {
	Profile bool
	Name    string
	SRGB    bool
}

// DeclaredColours reads what data, a PNG, JPEG or WebP file, declares
// of its colours.
func DeclaredColours(data []byte) Declared {
	var d Declared
	for kind, chunk := range framing.PNGChunks(data) {
		if kind == "IDAT" {
			break // what declares colours comes before the pixels
		}
		switch kind {
		case "iCCP":
			name, _, _ := bytes.Cut(chunk, []byte{0})
			d.Profile, d.Name = true, string(bytes.ToValidUTF8(name[:min(len(name), 79)], nil))
		case "sRGB":
			d.SRGB = true
		}
	}
	for marker, seg := range framing.JPEGSegments(data) {
		if marker == 0xe2 && bytes.HasPrefix(seg, []byte(jpegICCHeader)) {
			d.Profile = true
		}
	}
	for kind := range framing.WebPChunks(data) {
		if kind == "ICCP" {
			d.Profile = true
		}
	}
	return d
}
