//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"image"
	"sync"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/damage"
	"github.com/jezek/xgb/xproto"
)

// display is one X11 connection shared by the tests: finding a window and
// reading its pixels over it costs a round trip, not a process start, and
// the DAMAGE extension says when a window has drawn, so the start-up bench
// looks at the pixels only then and takes no CPU from the program it
// measures while it waits.
var display struct {
	once sync.Once
	conn *xgb.Conn
	err  error
	// pidAtom is _NET_WM_PID, which GLFW sets on every window it opens.
	pidAtom xproto.Atom
}

func x11() (*xgb.Conn, error) {
	display.once.Do(func() {
		display.conn, display.err = xgb.NewConn()
		if display.err != nil {
			return
		}
		if display.pidAtom, display.err = atom(display.conn, "_NET_WM_PID"); display.err != nil {
			return
		}
		if display.err = damage.Init(display.conn); display.err != nil {
			return
		}
		_, display.err = damage.QueryVersion(display.conn, 1, 1).Reply()
	})
	return display.conn, display.err
}

// atom is the X server's number for an atom's name.
func atom(c *xgb.Conn, name string) (xproto.Atom, error) {
	r, err := xproto.InternAtom(c, false, uint16(len(name)), name).Reply()
	if err != nil {
		return 0, err
	}
	return r.Atom, nil
}

// mappedWindowOf returns the top-level window of process pid that is
// mapped, or 0 when it has none yet. Xvfb runs no window manager, so the
// program's windows are children of the root.
func mappedWindowOf(pid int) (xproto.Window, error) {
	c, err := x11()
	if err != nil {
		return 0, err
	}
	tree, err := xproto.QueryTree(c, xproto.Setup(c).DefaultScreen(c).Root).Reply()
	if err != nil {
		return 0, err
	}
	var found xproto.Window
	for _, w := range tree.Children {
		prop, err := xproto.GetProperty(c, false, w, display.pidAtom, xproto.AtomCardinal, 0, 1).Reply()
		if err != nil || prop.ValueLen != 1 || int(xgb.Get32(prop.Value)) != pid {
			continue
		}
		attrs, err := xproto.GetWindowAttributes(c, w).Reply()
		if err == nil && attrs.MapState == xproto.MapStateViewable {
			found = w // the last is the newest, as with xdotool search
		}
	}
	return found, nil
}

// grab reads the pixels of window w as they are on the screen. They are
// read from the root window: Xvfb keeps no backing store, and GetImage on
// a window that reaches past the screen's edge fails.
func grab(w xproto.Window) (*image.RGBA, error) { return grabRows(w, 1<<15) }

// grabRows is grab of the top rows of the window only.
func grabRows(w xproto.Window, rows int) (*image.RGBA, error) {
	c, err := x11()
	if err != nil {
		return nil, err
	}
	screen := xproto.Setup(c).DefaultScreen(c)
	if screen.RootDepth != 24 && screen.RootDepth != 32 {
		return nil, fmt.Errorf("screen depth %d: want a 24-bit TrueColor screen", screen.RootDepth)
	}
	geo, err := xproto.GetGeometry(c, xproto.Drawable(w)).Reply()
	if err != nil {
		return nil, err
	}
	at, err := xproto.TranslateCoordinates(c, w, screen.Root, 0, 0).Reply()
	if err != nil {
		return nil, err
	}
	area := image.Rect(int(at.DstX), int(at.DstY), int(at.DstX)+int(geo.Width), int(at.DstY)+min(rows, int(geo.Height))).
		Intersect(image.Rect(0, 0, int(screen.WidthInPixels), int(screen.HeightInPixels)))
	if area.Empty() {
		return nil, fmt.Errorf("window %d is off the screen", w)
	}
	width := area.Dx()
	img := image.NewRGBA(image.Rect(0, 0, width, area.Dy()))
	// A request may carry at most 16 MiB; read in bands of rows.
	band := max(1, (4<<20)/(4*width))
	for y := 0; y < area.Dy(); y += band {
		h := min(band, area.Dy()-y)
		r, err := xproto.GetImage(c, xproto.ImageFormatZPixmap, xproto.Drawable(screen.Root),
			int16(area.Min.X), int16(area.Min.Y+y), uint16(width), uint16(h), 0xffffffff).Reply()
		if err != nil {
			return nil, err
		}
		if len(r.Data) < 4*width*h {
			return nil, fmt.Errorf("short image: %d bytes for %dx%d", len(r.Data), width, h)
		}
		// ZPixmap at depth 24 is 32 bits a pixel, little-endian BGRX, rows
		// as tightly packed as the image's.
		dst, src := img.Pix[4*width*y:4*width*(y+h)], r.Data[:4*width*h]
		for i := 0; i < len(dst); i += 4 {
			dst[i], dst[i+1], dst[i+2], dst[i+3] = src[i+2], src[i+1], src[i], 0xff
		}
	}
	return img, nil
}

// hasDrawn reports whether img shows drawn widgets: a window that has
// only been cleared has one or two colours.
func hasDrawn(img *image.RGBA) bool {
	var seen [3][3]byte
	n := 0
	for i := 0; i+3 < len(img.Pix); i += 4 {
		c := [3]byte{img.Pix[i], img.Pix[i+1], img.Pix[i+2]}
		if n > 0 && c == seen[0] || n > 1 && c == seen[1] {
			continue
		}
		seen[n] = c
		if n++; n == 3 {
			return true
		}
	}
	return false
}

// damageWatch reports each time window w is drawn to.
type damageWatch struct {
	c  *xgb.Conn
	id damage.Damage
}

func watchDamage(w xproto.Window) (*damageWatch, error) {
	c, err := x11()
	if err != nil {
		return nil, err
	}
	id, err := damage.NewDamageId(c)
	if err != nil {
		return nil, err
	}
	if err := damage.CreateChecked(c, id, xproto.Drawable(w), damage.ReportLevelNonEmpty).Check(); err != nil {
		return nil, err
	}
	// Start from an empty region: NonEmpty reports only when the region
	// goes from empty to not, and a region left non-empty would never
	// report. The caller looks at the pixels after this, so nothing drawn
	// before is missed.
	if err := damage.SubtractChecked(c, id, 0, 0).Check(); err != nil {
		return nil, err
	}
	return &damageWatch{c: c, id: id}, nil
}

// next waits until the window has been drawn to since the last call.
func (d *damageWatch) next(ctx context.Context) error {
	for {
		ev, xerr := d.c.PollForEvent()
		switch {
		case xerr != nil:
			return xerr
		case ev == nil:
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Millisecond):
			}
		default:
			if n, ok := ev.(damage.NotifyEvent); ok && n.Damage == d.id {
				// Re-arm: NonEmpty reports again only once the damage is cleared.
				damage.Subtract(d.c, d.id, 0, 0)
				return nil
			}
		}
	}
}

func (d *damageWatch) close() { damage.Destroy(d.c, d.id) }

// closeWindow asks window w to close as a window manager does when its
// close button is clicked: a WM_DELETE_WINDOW message (ICCCM), which the
// program may answer as it likes.
func closeWindow(w xproto.Window) error {
	c, err := x11()
	if err != nil {
		return err
	}
	protocols, err := atom(c, "WM_PROTOCOLS")
	if err != nil {
		return err
	}
	del, err := atom(c, "WM_DELETE_WINDOW")
	if err != nil {
		return err
	}
	ev := xproto.ClientMessageEvent{Format: 32, Window: w, Type: protocols,
		Data: xproto.ClientMessageDataUnionData32New([]uint32{uint32(del), uint32(xproto.TimeCurrentTime), 0, 0, 0})}
	return xproto.SendEventChecked(c, false, w, xproto.EventMaskNoEvent, string(ev.Bytes())).Check()
}
