//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"image"
	"sync"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/damage"
	"github.com/jezek/xgb/xproto"
)

// display is one X11 connection shared by the tests for reading pixels
// and sending messages: a round trip each, not a process start. What a
// launch waits for (its window, its frames) arrives on a connection of
// its own (launchEvents).
var display struct {
	once sync.Once
	conn *xgb.Conn
	err  error
}

func x11() (*xgb.Conn, error) {
	display.once.Do(func() { display.conn, display.err = xgb.NewConn() })
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

// launchEvents is an X11 connection of one launch's own, open from before
// the program starts: it hears the program's window being mapped and then
// drawn to as X events, read by a goroutine blocked on the socket, so the
// harness neither polls the server nor wakes up while the program starts
// (on two cores, a poll every few milliseconds competes with the very
// start-up the bench measures).
type launchEvents struct {
	c       *xgb.Conn
	root    xproto.Window
	pidAtom xproto.Atom
	ch      chan xgb.Event
	done    chan struct{}
}

// listen opens the connection and asks for the root's children being
// mapped (Xvfb runs no window manager, so top-level windows are those).
func listen() (*launchEvents, error) {
	c, err := xgb.NewConn()
	if err != nil {
		return nil, err
	}
	e := &launchEvents{c: c, root: xproto.Setup(c).DefaultScreen(c).Root,
		ch: make(chan xgb.Event, 64), done: make(chan struct{})}
	if err := e.init(); err != nil {
		c.Close()
		return nil, err
	}
	go func() {
		for {
			ev, xerr := c.WaitForEvent()
			if ev == nil && xerr == nil {
				return // closed
			}
			if ev == nil {
				continue // an X error of an unchecked request
			}
			select {
			case e.ch <- ev:
			case <-e.done:
				return
			}
		}
	}()
	return e, nil
}

func (e *launchEvents) init() error {
	var err error
	if e.pidAtom, err = atom(e.c, "_NET_WM_PID"); err != nil {
		return err
	}
	if err := damage.Init(e.c); err != nil {
		return err
	}
	if _, err := damage.QueryVersion(e.c, 1, 1).Reply(); err != nil {
		return err
	}
	return xproto.ChangeWindowAttributesChecked(e.c, e.root, xproto.CwEventMask,
		[]uint32{xproto.EventMaskSubstructureNotify}).Check()
}

// next returns the next event, or an error when ctx ends or the program
// exits first.
func (e *launchEvents) next(ctx context.Context, exited <-chan error) (xgb.Event, error) {
	select {
	case ev := <-e.ch:
		return ev, nil
	case err := <-exited:
		return nil, fmt.Errorf("the program exited (%v)", err)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// mapped waits for a top-level window of process pid (GLFW sets
// _NET_WM_PID before it maps a window) to be mapped, and stops listening
// for other windows.
func (e *launchEvents) mapped(ctx context.Context, pid int, exited <-chan error) (xproto.Window, error) {
	for {
		ev, err := e.next(ctx, exited)
		if err != nil {
			return 0, err
		}
		m, ok := ev.(xproto.MapNotifyEvent)
		if !ok || m.Event != e.root {
			continue
		}
		prop, err := xproto.GetProperty(e.c, false, m.Window, e.pidAtom, xproto.AtomCardinal, 0, 1).Reply()
		if err != nil || prop.ValueLen != 1 || int(xgb.Get32(prop.Value)) != pid {
			continue
		}
		xproto.ChangeWindowAttributes(e.c, e.root, xproto.CwEventMask, []uint32{0})
		return m.Window, nil
	}
}

// watchDamage starts reporting each time window w is drawn to, from an
// empty region: NonEmpty reports only when the region goes from empty to
// not, and a region left non-empty would never report. The caller looks at
// the pixels after this, so nothing drawn before is missed.
func (e *launchEvents) watchDamage(w xproto.Window) (damage.Damage, error) {
	id, err := damage.NewDamageId(e.c)
	if err != nil {
		return 0, err
	}
	if err := damage.CreateChecked(e.c, id, xproto.Drawable(w), damage.ReportLevelNonEmpty).Check(); err != nil {
		return 0, err
	}
	return id, damage.SubtractChecked(e.c, id, 0, 0).Check()
}

// drawn waits until the window of damage id has been drawn to since the
// last call.
func (e *launchEvents) drawn(ctx context.Context, id damage.Damage, exited <-chan error) error {
	for {
		ev, err := e.next(ctx, exited)
		if err != nil {
			return err
		}
		if n, ok := ev.(damage.NotifyEvent); ok && n.Damage == id {
			// Re-arm: NonEmpty reports again only once the damage is cleared.
			damage.Subtract(e.c, id, 0, 0)
			return nil
		}
	}
}

func (e *launchEvents) close() {
	close(e.done)
	e.c.Close()
}

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
