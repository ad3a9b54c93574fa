//go:build !windows

// Not under Wine: its prefix has no CJK font (a Windows machine has
// Microsoft YaHei, which fontscan finds in the same way).

package labelfont

import (
	"image"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

func inked(face font.Face, text string) int {
	img := image.NewGray(image.Rect(0, 0, 300, 24))
	d := font.Drawer{Dst: img, Src: image.White, Face: face, Dot: fixed.P(2, 17)}
	d.DrawString(text)
	n := 0
	for _, v := range img.Pix {
		if v > 0x40 {
			n++
		}
	}
	return n
}

// ASCII keeps Go's bitmap face; Chinese gets a system font that draws it
// (make test installs Noto CJK where no CJK font is found).
func TestChineseLabelsAreDrawn(t *testing.T) {
	if f, ok := Face("a kite, 1024x1024", 12); !ok || f != basicfont.Face7x13 {
		t.Errorf("ASCII: %v %v, want the bitmap face", f, ok)
	}
	f, ok := Face("天空中的风筝", 12)
	if !ok {
		t.Fatal("no system font draws Chinese: is a CJK font installed (make deps-fonts)?")
	}
	if n := inked(f, "天空中的风筝"); n < 60 {
		t.Errorf("the Chinese label inked %d pixels", n)
	}
	if n := inked(basicfont.Face7x13, "天空"); n > 60 {
		t.Logf("(the bitmap face draws %d pixels of boxes for it)", n)
	}
}
