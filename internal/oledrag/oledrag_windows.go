package oledrag

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"syscall"
	"unicode/utf16"
	"unsafe"

	"golang.org/x/sys/windows"
)

var (
	ole32                 = windows.NewLazySystemDLL("ole32.dll")
	procOleInitialize     = ole32.NewProc("OleInitialize")
	procDoDragDrop        = ole32.NewProc("DoDragDrop")
	shell32               = windows.NewLazySystemDLL("shell32.dll")
	procSHCreateStdEnumFE = shell32.NewProc("SHCreateStdEnumFmtEtc")
	kernel32              = windows.NewLazySystemDLL("kernel32.dll")
	procGlobalAlloc       = kernel32.NewProc("GlobalAlloc")
	procGlobalLock        = kernel32.NewProc("GlobalLock")
	procGlobalUnlock      = kernel32.NewProc("GlobalUnlock")
	procRtlMoveMemory     = kernel32.NewProc("RtlMoveMemory")
)

// The COM and OLE numbers used here (winerror.h, oleidl.h, winuser.h).
const (
	sOK                     = 0
	sFalse                  = 1
	eNotImpl                = 0x80004001
	eNoInterface            = 0x80004002
	eUnexpected             = 0x8000FFFF
	dvEFormatEtc            = 0x80040064
	oleEAdviseNotSupported  = 0x80040003
	dataSSameFormatEtc      = 0x00040130
	dragdropSDrop           = 0x00040100
	dragdropSCancel         = 0x00040101
	dragdropSUseDefaultCurs = 0x00040102
	rpcEChangedMode         = 0x80010106

	cfHDrop         = 15
	tymedHGlobal    = 1
	dvAspectContent = 1
	dataDirGet      = 1
	dropEffectCopy  = 1
	mkLButton       = 1
	gmemMoveable    = 0x0002
	gmemZeroInit    = 0x0040
)

var (
	iidIUnknown    = windows.GUID{Data1: 0x00000000, Data4: [8]byte{0xC0, 0, 0, 0, 0, 0, 0, 0x46}}
	iidIDataObject = windows.GUID{Data1: 0x0000010e, Data4: [8]byte{0xC0, 0, 0, 0, 0, 0, 0, 0x46}}
	iidIDropSource = windows.GUID{Data1: 0x00000121, Data4: [8]byte{0xC0, 0, 0, 0, 0, 0, 0, 0x46}}
)

// formatEtc is OLE's FORMATETC: which kind of data, in which medium.
type formatEtc struct {
	Format uint16
	_      [6]byte
	Target uintptr
	Aspect uint32
	Index  int32
	Tymed  uint32
	_      uint32
}

// stgMedium is OLE's STGMEDIUM with an HGLOBAL: where the data is.
type stgMedium struct {
	Tymed   uint32
	_       uint32
	HGlobal uintptr
	Release uintptr
}

// object is a COM object written in Go: its first word is the table of
// its methods, which is all COM reads of it. Objects are kept in live
// until their count of references falls to zero, so that the collector
// never frees one a target still holds; Go never moves them.
type object struct {
	vtbl *uintptr
	refs int32
	iid  *windows.GUID
	// For the data object: the CF_HDROP block it hands out.
	dropFiles []byte
	// For the drop source: whether the drag ends, from the Esc key and
	// the buttons (a test replaces it).
	decide func(esc bool, keys uint32) uintptr
}

var (
	liveMu sync.Mutex
	live   = map[*object]bool{}
)

func keep(o *object) *object {
	liveMu.Lock()
	live[o] = true
	liveMu.Unlock()
	return o
}

// Common IUnknown methods, shared by both objects.
func queryInterface(this *object, iid *windows.GUID, out *uintptr) uintptr {
	if *iid == iidIUnknown || *iid == *this.iid {
		addRef(this)
		*out = uintptr(unsafe.Pointer(this))
		return sOK
	}
	*out = 0
	return eNoInterface
}

func addRef(this *object) uintptr {
	liveMu.Lock()
	defer liveMu.Unlock()
	this.refs++
	return uintptr(this.refs)
}

func release(this *object) uintptr {
	liveMu.Lock()
	defer liveMu.Unlock()
	this.refs--
	if this.refs <= 0 {
		delete(live, this)
		return 0
	}
	return uintptr(this.refs)
}

// The data object's methods (IDataObject).
func getData(this *object, f *formatEtc, m *stgMedium) uintptr {
	if f.Format != cfHDrop || f.Tymed&tymedHGlobal == 0 || f.Aspect != dvAspectContent {
		return dvEFormatEtc
	}
	h, err := globalCopy(this.dropFiles)
	if err != nil {
		return eUnexpected
	}
	*m = stgMedium{Tymed: tymedHGlobal, HGlobal: h}
	return sOK
}

func getDataHere(*object, *formatEtc, *stgMedium) uintptr { return eNotImpl }

func queryGetData(_ *object, f *formatEtc) uintptr {
	if f.Format != cfHDrop || f.Tymed&tymedHGlobal == 0 || f.Aspect != dvAspectContent {
		return dvEFormatEtc
	}
	return sOK
}

func getCanonicalFormatEtc(_ *object, _ *formatEtc, out *formatEtc) uintptr {
	out.Target = 0
	return dataSSameFormatEtc
}

func setData(*object, *formatEtc, *stgMedium, uintptr) uintptr { return eNotImpl }

func enumFormatEtc(_ *object, direction uintptr, out *uintptr) uintptr {
	if direction != dataDirGet {
		*out = 0
		return eNotImpl
	}
	hr, _, _ := procSHCreateStdEnumFE.Call(1, uintptr(unsafe.Pointer(&hDropFormat)), uintptr(unsafe.Pointer(out)))
	return hr
}

func dAdvise(*object, *formatEtc, uintptr, uintptr, *uint32) uintptr { return oleEAdviseNotSupported }
func dUnadvise(*object, uintptr) uintptr                             { return oleEAdviseNotSupported }
func enumDAdvise(*object, *uintptr) uintptr                          { return oleEAdviseNotSupported }

// The drop source's methods (IDropSource).
func queryContinueDrag(this *object, esc uintptr, keys uintptr) uintptr {
	return this.decide(esc != 0, uint32(keys))
}

func giveFeedback(*object, uintptr) uintptr { return dragdropSUseDefaultCurs }

// byButton is how a person's drag ends: Esc cancels, the left button
// coming up drops.
func byButton(esc bool, keys uint32) uintptr {
	switch {
	case esc:
		return dragdropSCancel
	case keys&mkLButton == 0:
		return dragdropSDrop
	}
	return sOK
}

var hDropFormat = formatEtc{Format: cfHDrop, Aspect: dvAspectContent, Index: -1, Tymed: tymedHGlobal}

// The tables of methods, made once: a process has a bounded number of
// syscall callbacks.
var (
	tablesOnce      sync.Once
	dataObjectTable [12]uintptr
	dropSourceTable [5]uintptr
)

func tables() {
	tablesOnce.Do(func() {
		unknown := []uintptr{syscall.NewCallback(queryInterface), syscall.NewCallback(addRef), syscall.NewCallback(release)}
		copy(dataObjectTable[:], unknown)
		copy(dataObjectTable[3:], []uintptr{
			syscall.NewCallback(getData), syscall.NewCallback(getDataHere), syscall.NewCallback(queryGetData),
			syscall.NewCallback(getCanonicalFormatEtc), syscall.NewCallback(setData), syscall.NewCallback(enumFormatEtc),
			syscall.NewCallback(dAdvise), syscall.NewCallback(dUnadvise), syscall.NewCallback(enumDAdvise),
		})
		copy(dropSourceTable[:], unknown)
		copy(dropSourceTable[3:], []uintptr{syscall.NewCallback(queryContinueDrag), syscall.NewCallback(giveFeedback)})
	})
}

// DropFiles is the CF_HDROP block for paths: a DROPFILES header (the
// list starts 20 bytes in, and is wide) and each path in UTF-16, ended by
// a NUL, the list by another.
func DropFiles(paths []string) []byte {
	b := make([]byte, 20, 20+64*len(paths))
	b[0] = 20 // pFiles
	b[16] = 1 // fWide
	for _, p := range paths {
		for _, u := range utf16.Encode([]rune(p)) {
			b = append(b, byte(u), byte(u>>8))
		}
		b = append(b, 0, 0)
	}
	return append(b, 0, 0)
}

// globalCopy is data in a movable global block, which the target frees.
func globalCopy(data []byte) (uintptr, error) {
	h, _, err := procGlobalAlloc.Call(gmemMoveable|gmemZeroInit, uintptr(len(data)))
	if h == 0 {
		return 0, err
	}
	p, _, err := procGlobalLock.Call(h)
	if p == 0 {
		return 0, err
	}
	procRtlMoveMemory.Call(p, uintptr(unsafe.Pointer(&data[0])), uintptr(len(data)))
	procGlobalUnlock.Call(h)
	return h, nil
}

// Do drags the files at paths until the left button comes up (a drop on
// the window under the pointer) or Esc is pressed. It runs OLE's modal
// loop on the calling thread, which must be the thread of the window the
// drag started in, and reports whether a target took the files.
func Do(paths []string) (bool, error) {
	return drag(paths, byButton)
}

func drag(paths []string, decide func(bool, uint32) uintptr) (bool, error) {
	if len(paths) == 0 {
		return false, errors.New("oledrag: no files to drag")
	}
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			return false, fmt.Errorf("oledrag: %q is not a full path", p)
		}
	}
	hr, _, _ := procOleInitialize.Call(0)
	if hr == rpcEChangedMode {
		return false, errors.New("oledrag: this thread runs COM multithreaded, where OLE cannot drag")
	} else if hr != sOK && hr != sFalse {
		return false, fmt.Errorf("oledrag: OleInitialize: %#x", hr)
	}
	tables()
	data := keep(&object{vtbl: &dataObjectTable[0], refs: 1, iid: &iidIDataObject, dropFiles: DropFiles(paths)})
	source := keep(&object{vtbl: &dropSourceTable[0], refs: 1, iid: &iidIDropSource, decide: decide})
	var effect uint32
	hr, _, _ = procDoDragDrop.Call(uintptr(unsafe.Pointer(data)), uintptr(unsafe.Pointer(source)), dropEffectCopy, uintptr(unsafe.Pointer(&effect)))
	release(data)
	release(source)
	switch hr {
	case dragdropSDrop:
		return effect&dropEffectCopy != 0, nil
	case dragdropSCancel:
		return false, nil
	}
	return false, fmt.Errorf("oledrag: DoDragDrop: %#x", hr)
}
