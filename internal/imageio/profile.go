package imageio

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"sort"
)

// maxProfile bounds an embedded colour profile read from a file: real
// ones are a few hundred bytes to a few hundred kilobytes.
const maxProfile = 4 << 20

// EmbeddedProfile is the ICC colour profile data carries (a PNG's iCCP,
// a JPEG's APP2 segments in order), as opaque bytes: Easel moves a
// profile from one container to another when it re-encodes a picture
// without changing its numbers, and never reads the profile itself. ok
// is false when there is none, or it cannot be read whole.
func EmbeddedProfile(data []byte) (icc []byte, name string, ok bool) {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return pngProfile(data[8:])
	case bytes.HasPrefix(data, []byte{0xff, 0xd8}):
		icc, ok = jpegProfile(data[2:])
		return icc, "", ok
	}
	return nil, "", false
}

func pngProfile(b []byte) ([]byte, string, bool) {
	for len(b) >= 12 {
		n := int(binary.BigEndian.Uint32(b[:4]))
		kind := string(b[4:8])
		if n < 0 || n > len(b)-12 || kind == "IDAT" || kind == "IEND" {
			break
		}
		if kind == "iCCP" {
			name, rest, found := bytes.Cut(b[8:8+n], []byte{0})
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
		b = b[12+n:]
	}
	return nil, "", false
}

// jpegICCHeader starts each APP2 segment of an ICC profile, followed by
// the segment's number (from 1) and their count.
const jpegICCHeader = "ICC_PROFILE\x00"

func jpegProfile(b []byte) ([]byte, bool) {
	type part struct {
		seq  int
		data []byte
	}
	var parts []part
	count := 0
	for len(b) >= 4 && b[0] == 0xff {
		marker := b[1]
		if marker == 0xda || marker == 0xd9 {
			break
		}
		n := int(binary.BigEndian.Uint16(b[2:4]))
		if n < 2 || n+2 > len(b) {
			return nil, false
		}
		seg := b[4 : 2+n]
		if marker == 0xe2 && len(seg) >= len(jpegICCHeader)+2 && bytes.HasPrefix(seg, []byte(jpegICCHeader)) {
			h := len(jpegICCHeader)
			parts = append(parts, part{seq: int(seg[h]), data: seg[h+2:]})
			count = int(seg[h+1])
		}
		b = b[2+n:]
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
// profile) with icc embedded as its colour profile, under name in a PNG.
func WithProfile(data, icc []byte, name string) ([]byte, error) {
	if len(icc) == 0 || len(icc) > maxProfile {
		return nil, errors.New("imageio: no colour profile to embed")
	}
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) && len(data) >= 33 && string(data[12:16]) == "IHDR":
		if name == "" || len(name) > 79 {
			name = "ICC profile"
		}
		var z bytes.Buffer
		zw := zlib.NewWriter(&z)
		_, _ = zw.Write(icc) // a bytes.Buffer takes every write
		_ = zw.Close()
		body := append(append([]byte(name), 0, 0), z.Bytes()...)
		var chunk bytes.Buffer
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(body)))
		chunk.Write(n[:])
		chunk.WriteString("iCCP")
		chunk.Write(body)
		binary.BigEndian.PutUint32(n[:], crc32.Update(crc32.ChecksumIEEE([]byte("iCCP")), crc32.IEEETable, body))
		chunk.Write(n[:])
		// After IHDR (8 bytes of signature, then its 25), before
		// anything the profile must precede.
		out := append(append(append([]byte{}, data[:33]...), chunk.Bytes()...), data[33:]...)
		return out, nil
	case bytes.HasPrefix(data, []byte{0xff, 0xd8}):
		const most = 65535 - 2 - len(jpegICCHeader) - 2
		count := (len(icc) + most - 1) / most
		if count > 255 {
			return nil, errors.New("imageio: the colour profile is too large for a JPEG")
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
		return append(append([]byte{0xff, 0xd8}, segs.Bytes()...), data[2:]...), nil
	}
	return nil, errors.New("imageio: a colour profile is carried into PNG and JPEG only")
}
