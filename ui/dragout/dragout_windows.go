//go:build windows

package dragout

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver"
	"golang.org/x/sys/windows"

	"easel/internal/oledrag"
)

// platformDrag on Windows: OLE's DoDragDrop runs the whole drag in its
// own loop, on the UI thread, from the moment the drag starts: it follows
// the pointer and drops on release by itself, so the moves and the
// release Fyne reports afterwards have nothing left to do.
type platformDrag struct{}

var (
	user32          = windows.NewLazySystemDLL("user32.dll")
	procPostMessage = user32.NewProc("PostMessageW")
)

const wmLButtonUp = 0x0202

func start(w fyne.Window, paths []string, done chan<- bool) (platformDrag, error) {
	var hwnd uintptr
	if nw, ok := w.(driver.NativeWindow); ok {
		nw.RunNative(func(ctx any) {
			if c, ok := ctx.(driver.WindowsWindowContext); ok {
				hwnd = c.HWND
			}
		})
	}
	dropped, err := oledrag.Do(paths)
	if hwnd != 0 {
		// OLE's loop took the button's release, so the window never saw
		// it: give it one, or Fyne would go on dragging with the button up.
		procPostMessage.Call(hwnd, wmLButtonUp, 0, 0)
	}
	if err != nil {
		return platformDrag{}, err
	}
	done <- dropped
	return platformDrag{}, nil
}

func (platformDrag) moved()    {}
func (platformDrag) released() {}
func (platformDrag) cancel()   {}
