package colour

import (
	"encoding/binary"

	"easel/internal/catalogue"
)

// The ICC library Easel uses (kovidgoyal/imaging's prism/meta/icc)
// allocates what a profile's header and tags claim before it reads them:
// a tag count of 2^32−1 asks for a 51 GB table, a tag whose offset and
// size wrap past 2^32 for 4 GB, a curve of 2^32−1 points for 8 GB. Go
// answers with a fatal out-of-memory that no recover catches, so a
// 500-byte profile embedded in a PNG ended the process (and, adopted into
// the gallery, every start after it). check walks the same structure
// first and refuses, with a reason, any size the bytes present do not
// hold, so the library is only ever handed a profile whose every
// allocation is bounded by the profile's own length.

// Profile limits beyond what the bytes already bound: a real profile has
// a few dozen tags and CLUTs of 33 points or fewer a side; the ICC
// format allows up to 15 channels, Easel converts from RGB only.
const (
	maxTags     = 1024
	maxChannels = 4
	headerLen   = 128
)

// ProfileError is why a profile was refused before it was parsed: what
// it claims that its bytes cannot hold.
type ProfileError struct{ Reason string }

func (e *ProfileError) Error() string { return "colour: broken ICC profile: " + e.Reason }

// refuse is a ProfileError; its reason, read by a person in `easel info`
// and the details pane, comes from the catalogue.
func refuse(reason string) error {
	return &ProfileError{Reason: reason}
}

// check is nil when every size p states fits in p: the header, the tag
// table, each tag's place, and inside the tags the library reads
// (curves, LUTs and the modular A-to-B/B-to-A tags) every count of
// points, entries and grid cells.
func check(p []byte) error {
	if len(p) < headerLen+4 {
		return refuse(catalogue.F("%d bytes, shorter than a header", len(p)))
	}
	if string(p[36:40]) != "acsp" {
		return refuse(catalogue.T("no ICC signature"))
	}
	if size := binary.BigEndian.Uint32(p[0:4]); uint64(size) > uint64(len(p)) {
		return refuse(catalogue.F("says it is %d bytes, %d are present", size, len(p)))
	}
	count := uint64(binary.BigEndian.Uint32(p[headerLen:]))
	if count > maxTags {
		return refuse(catalogue.F("%d tags", count))
	}
	table := uint64(headerLen+4) + count*12
	if table > uint64(len(p)) {
		return refuse(catalogue.F("a table of %d tags in %d bytes", count, len(p)))
	}
	for i := range count {
		e := p[headerLen+4+12*i:]
		sig := string(e[0:4])
		off, size := uint64(binary.BigEndian.Uint32(e[4:8])), uint64(binary.BigEndian.Uint32(e[8:12]))
		if off < table || off+size > uint64(len(p)) {
			return refuse(catalogue.F("tag %q at %d, %d bytes long, outside the profile's %d bytes", sig, off, size, len(p)))
		}
		if err := checkType(sig, p[off:off+size]); err != nil {
			return err
		}
		if err := checkTag(p[off : off+size]); err != nil {
			return refuse(catalogue.F("tag %q: %s", sig, err.(*ProfileError).Reason))
		}
	}
	return nil
}

// types are the tag types the library takes each tag it reads to be,
// without looking (ICC.1 9.2): another type in its place panics it.
var types = map[string][]string{
	"rXYZ": {"XYZ "}, "gXYZ": {"XYZ "}, "bXYZ": {"XYZ "}, "wtpt": {"XYZ "}, "bkpt": {"XYZ "}, "lumi": {"XYZ "},
	"rTRC": {"curv", "para"}, "gTRC": {"curv", "para"}, "bTRC": {"curv", "para"}, "kTRC": {"curv", "para"},
	"A2B0": luts, "A2B1": luts, "A2B2": luts, "B2A0": luts, "B2A1": luts, "B2A2": luts,
	"chad": {"sf32"},
	"desc": {"desc", "mluc"}, "cprt": {"text", "mluc", "desc"},
}

var luts = []string{"mft1", "mft2", "mAB ", "mBA "}

// checkType refuses a tag the library would take for another type than
// it holds.
func checkType(sig string, t []byte) error {
	want, ok := types[sig]
	if !ok {
		return nil
	}
	if len(t) < 8 {
		return refuse(catalogue.F("tag %q is too short", sig))
	}
	for _, w := range want {
		if string(t[0:4]) == w {
			return nil
		}
	}
	return refuse(catalogue.F("tag %q holds a %q", sig, t[0:4]))
}

// checkTag checks the tag types whose counts the library allocates from.
func checkTag(t []byte) error {
	if len(t) < 8 {
		return nil // the library refuses what it cannot read, without allocating
	}
	switch string(t[0:4]) {
	case "curv":
		_, err := curveLen(t)
		return err
	case "para":
		_, err := paraLen(t)
		return err
	case "mft1":
		return checkMFT(t, 1)
	case "mft2":
		return checkMFT(t, 2)
	case "mAB ", "mBA ":
		return checkModular(t)
	case "mluc":
		if len(t) < 16 {
			return refuse(catalogue.T("a text table shorter than its header"))
		}
		n, rec := uint64(binary.BigEndian.Uint32(t[8:12])), uint64(binary.BigEndian.Uint32(t[12:16]))
		if rec != 12 || 16+n*rec > uint64(len(t)) {
			return refuse(catalogue.F("%d texts in %d bytes", n, len(t)))
		}
	}
	return nil
}

// curveLen is how many bytes the curv at the start of t takes, padded to
// four as curves in a modular tag are.
func curveLen(t []byte) (int, error) {
	if len(t) < 12 {
		return 0, refuse(catalogue.T("a curve shorter than its header"))
	}
	n := uint64(binary.BigEndian.Uint32(t[8:12]))
	if 12+2*n > uint64(len(t)) {
		return 0, refuse(catalogue.F("a curve of %d points in %d bytes", n, len(t)))
	}
	return int(12+2*n+3) &^ 3, nil
}

// paraLen is how many bytes the para at the start of t takes: the
// parameters of its function type (ICC.1 10.18).
func paraLen(t []byte) (int, error) {
	if len(t) < 12 {
		return 0, refuse(catalogue.T("a parametric curve shorter than its header"))
	}
	kind := int(binary.BigEndian.Uint16(t[8:10]))
	params, known := map[int]int{0: 1, 1: 3, 2: 4, 3: 5, 4: 7}[kind]
	if !known {
		return 0, refuse(catalogue.F("a parametric curve of unknown type %d", kind))
	}
	n := 12 + 4*params
	if n > len(t) {
		return 0, refuse(catalogue.F("a parametric curve of type %d in %d bytes", kind, len(t)))
	}
	return n, nil
}

// gridCells is the number of values a CLUT of these grid points and
// outputs holds, or an error when it is more than limit (the bytes
// there are, divided by the bytes per value).
func gridCells(points []byte, outputs int, limit uint64) (uint64, error) {
	cells := uint64(outputs)
	for _, g := range points {
		if g < 2 {
			return 0, refuse(catalogue.F("a colour table with %d grid points", g))
		}
		cells *= uint64(g)
		if cells > limit {
			return 0, refuse(catalogue.T("a colour table larger than its bytes"))
		}
	}
	return cells, nil
}

// checkMFT checks an lut8 or lut16 tag (ICC.1 10.10, 10.11): its input
// tables, CLUT and output tables, all in the tag.
func checkMFT(t []byte, width int) error {
	if len(t) < 48+4 {
		return refuse(catalogue.T("a lookup table shorter than its header"))
	}
	in, out, grid := int(t[8]), int(t[9]), t[10]
	if in < 1 || in > maxChannels || out < 1 || out > maxChannels {
		return refuse(catalogue.F("a lookup table of %d inputs and %d outputs", in, out))
	}
	inEntries, outEntries, body := 256, 256, 48
	if width == 2 {
		inEntries, outEntries, body = int(binary.BigEndian.Uint16(t[48:50])), int(binary.BigEndian.Uint16(t[50:52])), 52
	}
	points := make([]byte, in)
	for i := range points {
		points[i] = grid
	}
	room := uint64(len(t) - body)
	cells, err := gridCells(points, out, room/uint64(width))
	if err != nil {
		return err
	}
	need := uint64(width) * (uint64(in*inEntries) + cells + uint64(out*outEntries))
	if need > room {
		return refuse(catalogue.F("a lookup table needing %d bytes in %d", need, room))
	}
	return nil
}

// checkModular checks an mAB or mBA tag (ICC.1 10.12, 10.13): each of
// its curve sets, its CLUT and its matrix lies inside the tag, and every
// count inside them fits.
func checkModular(t []byte) error {
	if len(t) < 32 {
		return refuse(catalogue.T("a modular table shorter than its header"))
	}
	in, out := int(t[8]), int(t[9])
	if in < 1 || in > maxChannels || out < 1 || out > maxChannels {
		return refuse(catalogue.F("a modular table of %d inputs and %d outputs", in, out))
	}
	// The offsets of B, matrix, M, CLUT and A, at 12, 16, 20, 24 and 28;
	// 0 for none.
	at := func(i int) uint64 { return uint64(binary.BigEndian.Uint32(t[12+4*i:])) }
	pcs, device := out, in
	if string(t[0:4]) == "mBA " {
		pcs, device = in, out
	}
	for _, c := range [...]struct{ slot, n int }{{0, pcs}, {2, pcs}, {4, device}} {
		if off := at(c.slot); off != 0 {
			if err := modularCurves(t, off, c.n); err != nil {
				return err
			}
		}
	}
	if off := at(1); off != 0 && off+48 > uint64(len(t)) {
		return refuse(catalogue.T("a matrix outside the modular table"))
	}
	if off := at(3); off != 0 {
		return modularCLUT(t, off, in, out)
	}
	return nil
}

// modularCurves checks the n curves at off in a modular tag t.
func modularCurves(t []byte, off uint64, n int) error {
	for range n {
		if off+12 > uint64(len(t)) {
			return refuse(catalogue.T("curves outside the modular table"))
		}
		var step int
		var err error
		switch string(t[off : off+4]) {
		case "curv":
			step, err = curveLen(t[off:])
		case "para":
			step, err = paraLen(t[off:])
		default:
			return refuse(catalogue.T("a curve of unknown type in the modular table"))
		}
		if err != nil {
			return err
		}
		off += uint64((step + 3) &^ 3)
	}
	return nil
}

// modularCLUT checks the CLUT at off in a modular tag t of in inputs
// and out outputs: its grid, its value width and its values' bytes.
func modularCLUT(t []byte, off uint64, in, out int) error {
	if off+20 > uint64(len(t)) {
		return refuse(catalogue.T("a colour table outside the modular table"))
	}
	width := uint64(t[off+16])
	if width != 1 && width != 2 {
		return refuse(catalogue.F("a colour table of %d bytes a value", width))
	}
	room := uint64(len(t)) - off - 20
	cells, err := gridCells(t[off:off+uint64(in)], out, room/width)
	if err != nil {
		return err
	}
	if cells*width > room {
		return refuse(catalogue.F("a colour table needing %d bytes in %d", cells*width, room))
	}
	return nil
}
