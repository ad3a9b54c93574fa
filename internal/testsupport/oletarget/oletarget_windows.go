package oletarget

import (
	"errors"
	"fmt"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

var (
	user32               = windows.NewLazySystemDLL("user32.dll")
	procRegisterClassExW = user32.NewProc("RegisterClassExW")
	procCreateWindowExW  = user32.NewProc("CreateWindowExW")
	procDefWindowProcW   = user32.NewProc("DefWindowProcW")
	procGetMessageW      = user32.NewProc("GetMessageW")
	procDispatchMessageW = user32.NewProc("DispatchMessageW")
	ole32                = windows.NewLazySystemDLL("ole32.dll")
	procOleInitialize    = ole32.NewProc("OleInitialize")
	procRegisterDragDrop = ole32.NewProc("RegisterDragDrop")
	procReleaseStgMedium = ole32.NewProc("ReleaseStgMedium")
	shell32              = windows.NewLazySystemDLL("shell32.dll")
	procDragQueryFileW   = shell32.NewProc("DragQueryFileW")
)

var (
	iidIUnknown    = windows.GUID{Data4: [8]byte{0xC0, 0, 0, 0, 0, 0, 0, 0x46}}
	iidIDropTarget = windows.GUID{Data1: 0x00000122, Data4: [8]byte{0xC0, 0, 0, 0, 0, 0, 0, 0x46}}
)

const (
	sOK, sFalse    = 0, 1
	eNoInterface   = 0x80004002
	dropEffectCopy = 1
)

// target is the drop target: its first word is its table of methods.
type target struct {
	vtbl    *uintptr
	entered func()
	drop    func([]string)
}

// foreign is a COM object another component made (the dragged data).
type foreign struct{ vtbl *[12]uintptr }

type formatEtc struct {
	format uint16
	_      [6]byte
	target uintptr
	aspect uint32
	index  int32
	tymed  uint32
	_      uint32
}

type stgMedium struct {
	tymed   uint32
	_       uint32
	hGlobal uintptr
	release uintptr
}

var (
	tableOnce sync.Once
	table     [7]uintptr
	// targets keeps every target alive: COM holds them by address.
	targets []*target
)

func queryInterface(this *target, iid *windows.GUID, out *uintptr) uintptr {
	if *iid == iidIUnknown || *iid == iidIDropTarget {
		*out = uintptr(unsafe.Pointer(this))
		return sOK
	}
	*out = 0
	return eNoInterface
}

func addRef(*target) uintptr  { return 2 }
func release(*target) uintptr { return 1 }

func dragEnter(this *target, _ *foreign, _, _ uintptr, effect *uint32) uintptr {
	if this.entered != nil {
		this.entered()
	}
	*effect = dropEffectCopy
	return sOK
}

func dragOver(_ *target, _, _ uintptr, effect *uint32) uintptr {
	*effect = dropEffectCopy
	return sOK
}

func dragLeave(*target) uintptr { return sOK }

// drop reads the files as any Windows app does: GetData for CF_HDROP,
// then DragQueryFile for each name.
func drop(this *target, data *foreign, _, _ uintptr, effect *uint32) uintptr {
	f := formatEtc{format: 15, aspect: 1, index: -1, tymed: 1}
	var m stgMedium
	hr, _, _ := syscall.SyscallN(data.vtbl[3], uintptr(unsafe.Pointer(data)), uintptr(unsafe.Pointer(&f)), uintptr(unsafe.Pointer(&m)))
	if hr != sOK {
		return hr
	}
	var files []string
	n, _, _ := procDragQueryFileW.Call(m.hGlobal, 0xFFFFFFFF, 0, 0)
	for i := uintptr(0); i < n; i++ {
		buf := make([]uint16, 1024)
		l, _, _ := procDragQueryFileW.Call(m.hGlobal, i, uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
		files = append(files, windows.UTF16ToString(buf[:l]))
	}
	procReleaseStgMedium.Call(uintptr(unsafe.Pointer(&m)))
	*effect = dropEffectCopy
	this.drop(files)
	return sOK
}

// Window opens a window titled title at (x, y), w by h, that takes
// dropped files: entered (may be nil) hears a drag come in, drop the
// files dropped. Call it on the thread that pumps the window's messages.
func Window(title string, x, y, w, h int, entered func(), onDrop func([]string)) (uintptr, error) {
	if hr, _, _ := procOleInitialize.Call(0); hr != sOK && hr != sFalse {
		return 0, fmt.Errorf("OleInitialize: %#x", hr)
	}
	tableOnce.Do(func() {
		for i, f := range []any{queryInterface, addRef, release, dragEnter, dragOver, dragLeave, drop} {
			table[i] = syscall.NewCallback(f)
		}
	})
	class, _ := windows.UTF16PtrFromString("EaselTestDropTarget")
	type wndClassEx struct {
		size, style                        uint32
		proc                               uintptr
		clsExtra, wndExtra                 int32
		instance, icon, cursor, background uintptr
		menuName, className                *uint16
		iconSm                             uintptr
	}
	wc := wndClassEx{proc: procDefWindowProcW.Addr(), className: class, background: 6 /* COLOR_WINDOW+1 */}
	wc.size = uint32(unsafe.Sizeof(wc))
	procRegisterClassExW.Call(uintptr(unsafe.Pointer(&wc))) // a second window finds it registered
	name, _ := windows.UTF16PtrFromString(title)
	const wsPopup, wsVisible = 0x80000000, 0x10000000
	hwnd, _, err := procCreateWindowExW.Call(0, uintptr(unsafe.Pointer(class)), uintptr(unsafe.Pointer(name)),
		wsPopup|wsVisible, uintptr(x), uintptr(y), uintptr(w), uintptr(h), 0, 0, 0, 0)
	if hwnd == 0 {
		return 0, fmt.Errorf("CreateWindowEx: %w", err)
	}
	t := &target{vtbl: &table[0], entered: entered, drop: onDrop}
	targets = append(targets, t)
	if hr, _, _ := procRegisterDragDrop.Call(hwnd, uintptr(unsafe.Pointer(t))); hr != sOK {
		return 0, fmt.Errorf("RegisterDragDrop: %#x", hr)
	}
	return hwnd, nil
}

// Loop pumps the thread's window messages until the process ends.
func Loop() error {
	var msg [48]byte
	for {
		r, _, err := procGetMessageW.Call(uintptr(unsafe.Pointer(&msg[0])), 0, 0, 0)
		if int32(r) == -1 {
			return err
		}
		if r == 0 {
			return errors.New("the message loop was told to quit")
		}
		procDispatchMessageW.Call(uintptr(unsafe.Pointer(&msg[0])))
	}
}
