//go:build !(linux || freebsd || netbsd || openbsd || windows) || (wayland && !windows)

package dragout

import "fyne.io/fyne/v2"

// platformDrag where Easel has no drag source yet (macOS needs an
// NSDraggingSource, Wayland a wl_data_source): Start says so, and the
// gallery offers Copy image and Export instead.
type platformDrag struct{}

func start(fyne.Window, []string, chan<- bool) (platformDrag, error) {
	return platformDrag{}, ErrUnsupported
}

func (platformDrag) moved()    {}
func (platformDrag) released() {}
func (platformDrag) cancel()   {}
