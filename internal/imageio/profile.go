package imageio

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"io"
	"sort"

	"easel/internal/framing"
)

// maxProfile bounds an embedded colour profile read from a file: real
// ones are a few hundred bytes to a few hundred kilobytes.
const maxProfile = 4 << 20

// EmbeddedProfile is the ICC colour profile data carries (a PNG's iCCP,
// a JPEG's APP2 segments in order, a WebP's ICCP chunk), as bytes: Easel
// moves a profile from one container to another when it re-encodes a
// picture without changing its numbers, and hands it to package colour
// when it must change them. ok is false when there is none, or it cannot
// be read whole.
func EmbeddedProfile(data []byte) (icc []byte, name string, ok bool) {
	for kind, chunk := range framing.PNGChunks(data) {
		if kind == "IDAT" {
			break
		}
		if kind == "iCCP" {
			return pngProfile(chunk)
		}
	}
	switch framing.Kind(data) {
	case framing.JPEG:
		icc, ok = jpegProfile(data)
	case framing.WebP:
		for kind, chunk := range framing.WebPChunks(data) {
			if kind == "ICCP" && len(chunk) > 0 && len(chunk) <= maxProfile {
				return chunk, "", true
			}
		}
	}
	return icc, "", ok
}

// pngProfile reads an iCCP chunk: a name, a zero, the compression
// method (0, zlib) and the compressed profile.
func pngProfile(chunk []byte) ([]byte, string, bool) {
	name, rest, found := bytes.Cut(chunk, []byte{0})
	if !found || len(rest) < 1 || rest[0] != 0 {
		return nil, "", false
	}
	r, err := zlib.NewReader(bytes.NewReader(rest[1:]))
	if err != nil {
		return nil, "", false
	}
	icc, err := io.ReadAll(io.LimitReader(r, maxProfile+1))
	if err != nil || len(icc) == 0 || len(icc) > maxProfile {
		return nil, "", false
	}
	return icc, string(bytes.ToValidUTF8(name[:min(len(name), 79)], nil)), true
}

// jpegICCHeader starts each APP2 segment of an ICC profile, followed by
// the segment's number (from 1) and their count.
const jpegICCHeader = "ICC_PROFILE\x00"

// jpegProfile joins a JPEG's ICC segments in their order; a profile with
// a segment missing is none.
func jpegProfile(data []byte) ([]byte, bool) {
	type part struct {
		seq  int
		data []byte
	}
	var parts []part
	count := 0
	h := len(jpegICCHeader)
	for marker, seg := range framing.JPEGSegments(data) {
		if marker == 0xe2 && len(seg) >= h+2 && bytes.HasPrefix(seg, []byte(jpegICCHeader)) {
			parts = append(parts, part{seq: int(seg[h]), data: seg[h+2:]})
			count = int(seg[h+1])
		}
	}
	if len(parts) == 0 || len(parts) != count {
		return nil, false
	}
	sort.Slice(parts, func(i, j int) bool { return parts[i].seq < parts[j].seq })
	var icc []byte
	for i, p := range parts {
		if p.seq != i+1 {
			return nil, false
		}
		icc = append(icc, p.data...)
	}
	return icc, len(icc) > 0 && len(icc) <= maxProfile
}

// WithProfile is data (a PNG or JPEG Easel encoded, which carries no
// profile) with icc embedded as its colour profile, under name in a PNG;
// ok is false when it cannot carry one (another format, a profile too
// large for a JPEG's 255 segments).
func WithProfile(data, icc []byte, name string) (out []byte, ok bool) {
	if len(icc) == 0 || len(icc) > maxProfile {
		return nil, false
	}
	switch {
	case framing.Kind(data) == framing.PNG:
		if name == "" || len(name) > 79 {
			name = "ICC profile"
		}
		var z bytes.Buffer
		zw := zlib.NewWriter(&z)
		_, _ = zw.Write(icc) // a bytes.Buffer takes every write
		_ = zw.Close()
		// After IHDR, before anything the profile must precede.
		return framing.AfterHeader(data, framing.Chunk("iCCP", append(append([]byte(name), 0, 0), z.Bytes()...)))
	case bytes.HasPrefix(data, []byte{0xff, 0xd8}):
		const most = 65535 - 2 - len(jpegICCHeader) - 2
		count := (len(icc) + most - 1) / most
		if count > 255 {
			return nil, false
		}
		var segs bytes.Buffer
		for i := range count {
			part := icc[i*most : min(len(icc), (i+1)*most)]
			segs.Write([]byte{0xff, 0xe2})
			var n [2]byte
			binary.BigEndian.PutUint16(n[:], uint16(2+len(jpegICCHeader)+2+len(part)))
			segs.Write(n[:])
			segs.WriteString(jpegICCHeader)
			segs.Write([]byte{byte(i + 1), byte(count)})
			segs.Write(part)
		}
		return append(append([]byte{0xff, 0xd8}, segs.Bytes()...), data[2:]...), true
	}
	return nil, false
}
