package imageio

import (
	"bytes"
	"encoding/binary"
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
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return pngDeclared(data[8:])
	case bytes.HasPrefix(data, []byte{0xff, 0xd8}):
		return Declared{Profile: jpegHasICC(data[2:])}
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return Declared{Profile: webpHasChunk(data[12:], "ICCP")}
	}
	return Declared{}
}

func pngDeclared(b []byte) Declared {
	var d Declared
	for len(b) >= 12 {
		n := int(binary.BigEndian.Uint32(b[:4]))
		kind := string(b[4:8])
		if n < 0 || n > len(b)-12 || kind == "IDAT" || kind == "IEND" {
			break
		}
		switch kind {
		case "iCCP":
			name, _, _ := bytes.Cut(b[8:8+n], []byte{0})
			d.Profile, d.Name = true, string(bytes.ToValidUTF8(name[:min(len(name), 79)], nil))
		case "sRGB":
			d.SRGB = true
		}
		b = b[12+n:]
	}
	return d
}

func jpegHasICC(b []byte) bool {
	for len(b) >= 4 && b[0] == 0xff {
		marker := b[1]
		if marker == 0xda || marker == 0xd9 {
			return false
		}
		n := int(binary.BigEndian.Uint16(b[2:4]))
		if n < 2 || n+2 > len(b) {
			return false
		}
		if marker == 0xe2 && bytes.HasPrefix(b[4:2+n], []byte("ICC_PROFILE\x00")) {
			return true
		}
		b = b[2+n:]
	}
	return false
}

func webpHasChunk(b []byte, want string) bool {
	for len(b) >= 8 {
		n := int(binary.LittleEndian.Uint32(b[4:8]))
		if string(b[:4]) == want {
			return true
		}
		if n < 0 || n > len(b)-8 {
			return false
		}
		b = b[min(len(b), 8+n+n%2):] // an odd last chunk has no pad byte
	}
	return false
}
