//go:build windows && wingui

// This test needs a display: make e2e-windows runs it under Wine on
// Xvfb. It puts a window of its own on the screen, registered as an OLE
// drop target the way Explorer's and a browser's are, points at it, and
// drags: the target reads the files from the data object as CF_HDROP.

package oledrag

import (
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"

	"easel/internal/testsupport/oletarget"
)

var (
	user32              = windows.NewLazySystemDLL("user32.dll")
	procSetCursorPos    = user32.NewProc("SetCursorPos")
	procWindowFromPoint = user32.NewProc("WindowFromPoint")
	procPeekMessageW    = user32.NewProc("PeekMessageW")
	procDispatchMessage = user32.NewProc("DispatchMessageW")
)

// waitUnder pumps the thread's messages until hwnd is the window at
// (x, y) on the screen: Wine shows a new window on the X display a
// moment after it is made, and a drag before that finds nothing there.
func waitUnder(t *testing.T, hwnd uintptr, x, y int32) {
	t.Helper()
	var msg [48]byte
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		for range 100 {
			r, _, _ := procPeekMessageW.Call(uintptr(unsafe.Pointer(&msg[0])), 0, 0, 0, 1 /* PM_REMOVE */)
			if r == 0 {
				break
			}
			procDispatchMessage.Call(uintptr(unsafe.Pointer(&msg[0])))
		}
		procSetCursorPos.Call(uintptr(x), uintptr(y))
		// POINT by value: x in the low half, y in the high.
		if w, _, _ := procWindowFromPoint.Call(uintptr(uint32(x)) | uintptr(uint32(y))<<32); w == hwnd {
			return
		}
	}
	t.Fatalf("the drop target's window never showed at (%d,%d)", x, y)
}

// lockThread keeps the test on one OS thread: OLE and a window belong to
// the thread that made them, and a drag run from another thread than its
// target's waits for that thread, which nobody pumps, forever. (The
// window's callbacks run on Fyne's main thread, locked, in the app.)
func lockThread(t *testing.T) {
	runtime.LockOSThread()
	t.Cleanup(runtime.UnlockOSThread)
}

func TestDropGivesTheFilesAsCFHDROP(t *testing.T) {
	lockThread(t)
	entered := false
	var files []string
	hwnd, err := oletarget.Window("target", 100, 100, 300, 300, func() { entered = true }, func(f []string) { files = f })
	if err != nil {
		t.Fatal(err)
	}
	waitUnder(t, hwnd, 250, 250)

	// The button comes up once the target has seen the drag come in; the
	// pointer is nudged meanwhile, as a hand does.
	asked := 0
	decide := func(esc bool, _ uint32) uintptr {
		asked++
		procSetCursorPos.Call(uintptr(250+asked%2), 250)
		if entered || asked > 600 {
			return dragdropSDrop
		}
		return sOK
	}
	paths := []string{`C:\pictures\sky one.png`, `C:\pictures\天空.png`}
	dropped, err := drag(paths, decide)
	if err != nil {
		t.Fatal(err)
	}
	if !dropped || !entered {
		t.Fatalf("dropped %v, target entered %v (asked %d times)", dropped, entered, asked)
	}
	if !slices.Equal(files, paths) {
		t.Errorf("the target read %q, want %q", files, paths)
	}
}

func TestOnlyFullPathsAreDragged(t *testing.T) {
	if _, err := Do([]string{filepath.Join("relative", "a.png")}); err == nil {
		t.Error("a relative path was dragged")
	}
	if _, err := Do(nil); err == nil {
		t.Error("nothing was dragged")
	}
}

func TestEscCancelsTheDrag(t *testing.T) {
	lockThread(t)
	dropped, err := drag([]string{`C:\pictures\sky.png`}, func(bool, uint32) uintptr { return byButton(true, mkLButton) })
	if err != nil || dropped {
		t.Fatalf("Esc: dropped %v, error %v; want a cancelled drag", dropped, err)
	}
}
