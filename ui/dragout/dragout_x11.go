//go:build (linux || freebsd || netbsd || openbsd) && !wayland

package dragout

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver"

	"easel/internal/xdnd"
)

// platformDrag on X11 is an XDND source on a connection of its own; the
// window's own X window is never a target.
type platformDrag struct{ s *xdnd.Source }

func start(w fyne.Window, paths []string, done chan<- bool) (platformDrag, error) {
	var self uint32
	x11 := false
	if nw, ok := w.(driver.NativeWindow); ok {
		nw.RunNative(func(ctx any) {
			if c, ok := ctx.(driver.X11WindowContext); ok {
				self, x11 = uint32(c.WindowHandle), true
			}
		})
	}
	if !x11 {
		return platformDrag{}, ErrUnsupported
	}
	s, err := xdnd.Start(paths, self)
	if err != nil {
		return platformDrag{}, err
	}
	go func() { done <- (<-s.Done()).Dropped }()
	return platformDrag{s}, nil
}

func (p platformDrag) moved()    { p.s.Move() }
func (p platformDrag) released() { p.s.Drop() }
func (p platformDrag) cancel()   { p.s.Cancel() }
