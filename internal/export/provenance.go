package export

import (
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"fmt"

	"easel/internal/c2pa"
	"easel/internal/framing"
	"easel/internal/imageio"
	"easel/internal/library"
)

// The IPTC digital source types Easel declares (IPTC NewsCodes,
// digitalsourcetype), which publishers' and forensic tools read.
const (
	madeByModel = "http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia"
	composite   = "http://cv.iptc.org/newscodes/digitalsourcetype/compositeWithTrainedAlgorithmicMedia"
)

// SourceType is the IPTC digital source type of an item: what a model
// made, or a composite Easel made of a model's result and a picture (a
// kept copy, an outpaint, a cut-out); "" for a picture Easel cannot
// vouch for (an import, a recovered file).
func SourceType(it library.Item) string {
	switch it.Kind {
	case "kept", "outpaint", "cutout":
		return composite
	case "generate", "edit", "variation", "batch":
		return madeByModel
	}
	return ""
}

// xmpPacket is an XMP packet declaring source (IPTC's
// Iptc4xmpExt:DigitalSourceType) and the prompt as dc:description.
func xmpPacket(source, prompt string) []byte {
	var esc bytes.Buffer
	_ = xml.EscapeText(&esc, []byte(prompt)) // a bytes.Buffer takes every write
	return fmt.Appendf(nil, `<?xpacket begin="%s" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"
    xmlns:dc="http://purl.org/dc/elements/1.1/">
   <Iptc4xmpExt:DigitalSourceType>%s</Iptc4xmpExt:DigitalSourceType>
   <dc:description><rdf:Alt><rdf:li xml:lang="x-default">%s</rdf:li></rdf:Alt></dc:description>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="r"?>`, "\uFEFF", source, esc.String())
}

// withXMP is data (a PNG or JPEG Easel wrote, never a signed original)
// with packet in it where readers look: a PNG's iTXt chunk keyed
// XML:com.adobe.xmp, a JPEG's APP1 segment after its start; data itself
// for another format.
func withXMP(data, packet []byte) []byte {
	switch framing.Kind(data) {
	case framing.PNG:
		// keyword, 0, no compression, method 0, no language, no
		// translated keyword, then the text.
		chunk := append([]byte("XML:com.adobe.xmp\x00\x00\x00\x00\x00"), packet...)
		if out, ok := framing.AfterHeader(data, framing.Chunk("iTXt", chunk)); ok {
			return out
		}
	case framing.JPEG:
		body := append([]byte("http://ns.adobe.com/xap/1.0/\x00"), packet...)
		if len(body)+2 > 0xffff {
			return data
		}
		seg := append(binary.BigEndian.AppendUint16([]byte{0xff, 0xe1}, uint16(len(body)+2)), body...)
		at := 2
		if len(data) >= 6 && data[2] == 0xff && data[3] == 0xe0 {
			at = min(len(data), 4+int(binary.BigEndian.Uint16(data[4:6]))) // after JFIF's APP0, which comes first
		}
		return append(append(append([]byte{}, data[:at]...), seg...), data[at:]...)
	}
	return data
}

// ingredientOf is a composite's ingredient (ingredient), from its first
// parent's file; nil for anything else, or when the parent is gone.
func ingredientOf(it library.Item, opt Options) map[string]any {
	if SourceType(it) != composite || len(it.Parents) == 0 || opt.PathOfItem == nil {
		return nil
	}
	if path := opt.PathOfItem(it.Parents[0]); path != "" {
		return ingredient(it.Parents[0], path)
	}
	return nil
}

// ingredient describes the Content Credentials of the picture a
// composite was made from (the first parent, at path), for its recipe:
// the composite is a new work and does not carry them, but names them.
func ingredient(parent int64, path string) map[string]any {
	head, err := imageio.FileHead(path)
	if err != nil {
		return nil
	}
	c, ok := c2pa.Read(head)
	if !ok {
		return nil
	}
	check := map[c2pa.Check]string{c2pa.Valid: "the signature matches its certificate", c2pa.Invalid: "the signature does not match",
		c2pa.Claimed: "the signature matches a certificate Easel cannot verify", c2pa.Unchecked: "present, not verified"}[c.Check]
	return map[string]any{"gallery_item": parent, "relationship": "parentOf",
		"content_credentials": map[string]any{"signer": c.Signer, "generator": c.Generator, "signature": check}}
}
