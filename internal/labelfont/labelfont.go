// Package labelfont gives a face to draw a short label into an image (a
// contact sheet's prompts and values) in the script it is written in. Go
// ships a bitmap face with Latin letters only, so a Chinese prompt drew
// as boxes; the system's fonts have the glyphs (Noto CJK on Linux, Yahei
// on Windows, PingFang on macOS). go-text's fontscan, which Fyne uses to
// fall back to them in the window, finds the font that covers a rune;
// x/image's opentype loads it. It knows nothing of Fyne.
package labelfont

import (
	"io"
	"log"
	"os"
	"sync"

	"github.com/go-text/typesetting/fontscan"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
)

var (
	scan  sync.Once
	fonts *fontscan.FontMap
	// mu guards fonts (not safe for concurrent use) and parsed, the
	// font files read so far.
	mu     sync.Mutex
	parsed = map[fontscan.Location]*opentype.Font{}
	// goFont parses Go Regular once, into goParsed.
	goFont   sync.Once
	goParsed *opentype.Font
)

// Face is a face of about size points that has text's glyphs: for
// ASCII, Go's own bitmap face at its 13 pixels, Go Regular above them (a
// mark's note on a 1024-pixel picture is 40 pixels tall: the bitmap face
// left it 13, in a crude fixed width); else the system font that covers
// the first rune outside ASCII. It says false when the system has none;
// the caller draws in the bitmap face, as before.
func Face(text string, size float64) (font.Face, bool) {
	r, ok := firstWide(text)
	if !ok && size <= 13 {
		return basicfont.Face7x13, true
	}
	if !ok {
		return goRegular(size)
	}
	scan.Do(func() {
		fm := fontscan.NewFontMap(log.New(io.Discard, "", 0))
		// The index of the system's fonts is cached where fontscan keeps
		// it for Fyne (the user's cache folder), so the scan is once.
		if err := fm.UseSystemFonts(""); err == nil {
			fonts = fm
		}
	})
	if fonts == nil {
		return nil, false
	}
	mu.Lock()
	defer mu.Unlock()
	fonts.SetQuery(fontscan.Query{Families: []string{fontscan.SansSerif}})
	face := fonts.ResolveFace(r)
	if face == nil {
		return nil, false
	}
	loc := fonts.FontLocation(face.Font)
	f, ok := parsed[loc]
	if !ok {
		f = load(loc)
		parsed[loc] = f
	}
	if f == nil {
		return nil, false
	}
	out, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	return out, err == nil
}

// goRegular is Go Regular at size, for ASCII: bundled, so a label reads
// alike on every system.
func goRegular(size float64) (font.Face, bool) {
	goFont.Do(func() { goParsed, _ = opentype.Parse(goregular.TTF) })
	if goParsed == nil {
		return nil, false
	}
	f, err := opentype.NewFace(goParsed, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	return f, err == nil
}

// load parses the font at loc (nil if it cannot be read).
func load(loc fontscan.Location) *opentype.Font {
	data, err := os.ReadFile(loc.File)
	if err != nil {
		return nil
	}
	c, err := opentype.ParseCollection(data)
	if err != nil {
		return nil
	}
	f, err := c.Font(int(loc.Index))
	if err != nil {
		return nil
	}
	return f
}

// firstWide is text's first rune outside ASCII.
func firstWide(text string) (rune, bool) {
	for _, r := range text {
		if r > 0x7e {
			return r, true
		}
	}
	return 0, false
}

// Fit cuts text until it is at most width pixels wide in face, marking a
// cut with "~".
func Fit(face font.Face, text string, width int) string {
	if font.MeasureString(face, text).Ceil() <= width {
		return text
	}
	r := []rune(text)
	for n := len(r) - 1; n > 0; n-- {
		s := string(r[:n]) + "~"
		if font.MeasureString(face, s).Ceil() <= width {
			return s
		}
	}
	return ""
}
