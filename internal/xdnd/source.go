// Package xdnd starts drags that leave Easel's window on X11: the sending
// side of the X drag-and-drop protocol (XDND 5, freedesktop.org), which
// Fyne does not offer. A designer drags images from the gallery into a
// file manager, a browser's upload field or another editor; the target
// asks for the files as a text/uri-list, the way every X toolkit takes
// files.
//
// The drag runs on its own X connection, so nothing of the window's
// toolkit is touched: the window keeps its pointer grab and keeps telling
// the caller that the pointer moved and when the button came up; the
// Source asks the server where the pointer is, finds the XDND-aware window
// under it (never the caller's own window), and speaks the protocol with
// it. It knows nothing of Fyne; ui/dragout feeds it.
package xdnd

import (
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// version is the highest protocol version spoken; targets of version 3
// and 4 are spoken to in theirs.
const version = 5

// MaxFiles bounds one drag: the list goes in a single X request, whose
// size the server limits (256 KiB without BIG-REQUESTS).
const MaxFiles = 500

// finishWait is how long a target may take, after the drop, to fetch the
// files and say it is done; statusWait how long the button may wait for
// the target's answer to the last move.
const (
	finishWait = 30 * time.Second
	statusWait = 2 * time.Second
)

// Outcome is how a drag ended: whether a window took the files.
type Outcome struct {
	Dropped bool
	// Target is the window that was dropped on or refused (0: none).
	Target uint32
}

// Source is one drag of files: Start it when the drag begins, tell it
// each move, then Drop or Cancel; Done reports the outcome once.
type Source struct {
	conn            *xgb.Conn
	root, win, self xproto.Window
	a               atoms
	uris            []byte
	stamp           xproto.Timestamp

	poke   chan struct{}
	drop   chan struct{}
	cancel chan struct{}
	done   chan Outcome

	// What the loop knows of the window under the pointer.
	target, dest xproto.Window
	ver          uint32
	waiting      bool // a position was sent and not yet answered
	pending      bool // the pointer moved while waiting
	accepted     bool // the target's last answer took the drop
	dropping     bool // the button came up
	dropped      bool // XdndDrop was sent
	x, y         int16
	// escape is the Escape key's code, whose press (the keyboard held
	// for the drag) ends it.
	escape xproto.Keycode
}

type atoms struct {
	aware, proxy, enter, position, status, leave, drop, finished,
	selection, copy, uriList, targets, stampProp xproto.Atom
}

// Start begins a drag of the files at paths. self is the caller's own
// window, never a target. It fails when there is no X display.
func Start(paths []string, self uint32) (*Source, error) {
	if len(paths) == 0 {
		return nil, errors.New("xdnd: no files to drag")
	}
	if len(paths) > MaxFiles {
		return nil, fmt.Errorf("xdnd: %d files is more than one drag carries (%d)", len(paths), MaxFiles)
	}
	conn, err := xgb.NewConn()
	if err != nil {
		return nil, fmt.Errorf("xdnd: no X display: %w", err)
	}
	s := &Source{conn: conn, self: xproto.Window(self), uris: URIList(paths),
		poke: make(chan struct{}, 1), drop: make(chan struct{}), cancel: make(chan struct{}),
		done: make(chan Outcome, 1)}
	if err := s.setUp(); err != nil {
		conn.Close()
		return nil, err
	}
	events := make(chan xgb.Event, 16)
	quit := make(chan struct{})
	go s.read(events, quit)
	go s.run(events, quit)
	return s, nil
}

// URIList is the files as a text/uri-list (RFC 2483): file URIs, one per
// line, each ended by CR LF.
func URIList(paths []string) []byte {
	var b []byte
	for _, p := range paths {
		b = append(b, (&url.URL{Scheme: "file", Path: p}).String()...)
		b = append(b, '\r', '\n')
	}
	return b
}

// Move says the pointer moved; the Source looks where it is now. It never
// blocks: moves that come faster than the target answers are merged.
func (s *Source) Move() {
	select {
	case s.poke <- struct{}{}:
	default:
	}
}

// Drop says the button came up: the files go to the window under the
// pointer if it took them. Call it once, or Cancel instead.
func (s *Source) Drop() { close(s.drop) }

// Cancel ends the drag without dropping (Esc, or the drag turned back).
func (s *Source) Cancel() { close(s.cancel) }

// Done delivers the outcome once the target is finished with the files.
func (s *Source) Done() <-chan Outcome { return s.done }

func (s *Source) setUp() error {
	c := s.conn
	s.root = xproto.Setup(c).DefaultScreen(c).Root
	names := []struct {
		to   *xproto.Atom
		name string
	}{
		{&s.a.aware, "XdndAware"}, {&s.a.proxy, "XdndProxy"}, {&s.a.enter, "XdndEnter"},
		{&s.a.position, "XdndPosition"}, {&s.a.status, "XdndStatus"}, {&s.a.leave, "XdndLeave"},
		{&s.a.drop, "XdndDrop"}, {&s.a.finished, "XdndFinished"}, {&s.a.selection, "XdndSelection"},
		{&s.a.copy, "XdndActionCopy"}, {&s.a.uriList, "text/uri-list"}, {&s.a.targets, "TARGETS"},
		{&s.a.stampProp, "EASEL_XDND_TIME"},
	}
	for _, n := range names {
		r, err := xproto.InternAtom(c, false, uint16(len(n.name)), n.name).Reply()
		if err != nil {
			return fmt.Errorf("xdnd: atom %s: %w", n.name, err)
		}
		*n.to = r.Atom
	}
	win, err := xproto.NewWindowId(c)
	if err != nil {
		return fmt.Errorf("xdnd: window id: %w", err)
	}
	s.win = win
	// An input-only window, never mapped: it owns the selection and
	// receives the target's answers.
	err = xproto.CreateWindowChecked(c, 0, win, s.root, -1, -1, 1, 1, 0, xproto.WindowClassInputOnly, 0,
		xproto.CwEventMask, []uint32{xproto.EventMaskPropertyChange}).Check()
	if err != nil {
		return fmt.Errorf("xdnd: window: %w", err)
	}
	if s.stamp, err = s.serverTime(); err != nil {
		return err
	}
	if err := xproto.SetSelectionOwnerChecked(c, win, s.a.selection, s.stamp).Check(); err != nil {
		return fmt.Errorf("xdnd: selection: %w", err)
	}
	s.grabEscape()
	return nil
}

// escapeKeysym is the Escape key's keysym.
const escapeKeysym = 0xff1b

// grabEscape takes the keyboard for the drag, as GTK's and Qt's drag
// sources do, so that Esc cancels it wherever the pointer is (the window
// under it may have taken the keyboard's focus). The grab ends with the
// connection. Without it (another client holds the keyboard) the drag
// still runs; Esc is then the window's.
func (s *Source) grabEscape() {
	setup := xproto.Setup(s.conn)
	first := setup.MinKeycode
	m, err := xproto.GetKeyboardMapping(s.conn, first, byte(setup.MaxKeycode-first+1)).Reply()
	if err != nil || m.KeysymsPerKeycode == 0 {
		return
	}
	per := int(m.KeysymsPerKeycode)
	for i, sym := range m.Keysyms {
		if sym == escapeKeysym {
			s.escape = xproto.Keycode(int(first) + i/per)
			break
		}
	}
	// Best effort: a refused grab leaves Esc to the window.
	_, _ = xproto.GrabKeyboard(s.conn, false, s.root, s.stamp, xproto.GrabModeAsync, xproto.GrabModeAsync).Reply()
}

// serverTime is a timestamp from the server (an empty append to a
// property of our window, whose notice carries the time): the selection
// is owned from it, and the target fetches the files with it.
func (s *Source) serverTime() (xproto.Timestamp, error) {
	xproto.ChangeProperty(s.conn, xproto.PropModeAppend, s.win, s.a.stampProp, xproto.AtomString, 8, 0, nil)
	for {
		ev, err := s.conn.WaitForEvent()
		if ev == nil && err == nil {
			return 0, errors.New("xdnd: the X connection closed")
		}
		if p, ok := ev.(xproto.PropertyNotifyEvent); ok && p.Window == s.win {
			return p.Time, nil
		}
	}
}

// read hands the connection's events to the loop until the connection
// closes or the loop quits.
func (s *Source) read(events chan<- xgb.Event, quit <-chan struct{}) {
	defer close(events)
	for {
		ev, err := s.conn.WaitForEvent()
		if ev == nil && err == nil {
			return
		}
		if ev == nil {
			continue
		}
		select {
		case events <- ev:
		case <-quit:
			return
		}
	}
}

// run is the drag: one goroutine owns its state.
func (s *Source) run(events <-chan xgb.Event, quit chan struct{}) {
	var timer *time.Timer
	var timeout <-chan time.Time
	wait := func(d time.Duration) {
		if timer != nil {
			timer.Stop()
		}
		timer = time.NewTimer(d)
		timeout = timer.C
	}
	finish := func(o Outcome) {
		if timer != nil {
			timer.Stop()
		}
		close(quit)
		xproto.DestroyWindow(s.conn, s.win)
		s.conn.Close()
		s.done <- o
	}
	drop, cancel := s.drop, s.cancel
	for {
		select {
		case <-s.poke:
			if !s.dropping {
				s.moved()
			}
		case <-cancel:
			s.leave()
			finish(Outcome{})
			return
		case <-drop:
			drop, cancel = nil, nil
			s.dropping = true
			if s.waiting {
				wait(statusWait)
				continue
			}
			if o, over := s.release(); over {
				finish(o)
				return
			}
			wait(finishWait)
		case <-timeout:
			// The target never answered: it has what it has.
			if s.dropping && !s.dropped {
				s.waiting = false
				if o, over := s.release(); over {
					finish(o)
					return
				}
				wait(finishWait)
				continue
			}
			finish(Outcome{Target: uint32(s.target)})
			return
		case ev, ok := <-events:
			if !ok {
				finish(Outcome{Target: uint32(s.target)})
				return
			}
			if o, over := s.handle(ev); over {
				finish(o)
				return
			}
		}
	}
}

// moved finds the window under the pointer and tells it (and the one
// left) so.
func (s *Source) moved() {
	p, err := xproto.QueryPointer(s.conn, s.root).Reply()
	if err != nil {
		return
	}
	s.x, s.y = p.RootX, p.RootY
	target, dest, ver := s.under(s.x, s.y)
	if target != s.target {
		s.leave()
		s.target, s.dest, s.ver = target, dest, ver
		if target != 0 {
			s.send(s.a.enter, uint32(s.win), min(ver, version)<<24, uint32(s.a.uriList), 0, 0)
		}
	}
	if s.target == 0 {
		return
	}
	if s.waiting {
		s.pending = true
		return
	}
	s.position()
}

func (s *Source) position() {
	s.waiting, s.pending = true, false
	s.send(s.a.position, uint32(s.win), 0, uint32(uint16(s.x))<<16|uint32(uint16(s.y)), uint32(s.stamp), uint32(s.a.copy))
}

// leave tells the window under the pointer that the drag left it.
func (s *Source) leave() {
	if s.target != 0 {
		s.send(s.a.leave, uint32(s.win), 0, 0, 0, 0)
	}
	s.target, s.dest, s.waiting, s.pending, s.accepted = 0, 0, false, false, false
}

// release is the button coming up: a drop if the target took it, else
// the drag is over with nothing dropped.
func (s *Source) release() (Outcome, bool) {
	if s.target != 0 && s.accepted {
		s.dropped = true
		s.send(s.a.drop, uint32(s.win), 0, uint32(s.stamp), 0, 0)
		return Outcome{}, false
	}
	t := s.target
	s.leave()
	return Outcome{Target: uint32(t)}, true
}

// handle is one event from the server: the target's answers, and its
// requests for the files.
func (s *Source) handle(ev xgb.Event) (Outcome, bool) {
	switch e := ev.(type) {
	case xproto.ClientMessageEvent:
		d := e.Data.Data32
		if len(d) < 5 || xproto.Window(d[0]) != s.target || s.target == 0 {
			return Outcome{}, false
		}
		switch e.Type {
		case s.a.status:
			s.waiting = false
			s.accepted = d[1]&1 == 1
			switch {
			case s.dropping && !s.dropped:
				return s.release()
			case s.pending && !s.dropping:
				s.position()
			}
		case s.a.finished:
			if s.dropped {
				// Before version 5 Finished says nothing of success.
				ok := s.ver < 5 || d[1]&1 == 1
				return Outcome{Dropped: ok, Target: uint32(s.target)}, true
			}
		}
	case xproto.SelectionRequestEvent:
		s.answer(e)
	case xproto.KeyPressEvent:
		if e.Detail == s.escape && s.escape != 0 && !s.dropped {
			t := s.target
			s.leave()
			return Outcome{Target: uint32(t)}, true
		}
	}
	return Outcome{}, false
}

// answer gives the files (or the list of what is offered) to a window
// that asked for the selection.
func (s *Source) answer(e xproto.SelectionRequestEvent) {
	prop := e.Property
	if prop == 0 {
		prop = e.Target // an obsolete client
	}
	n := xproto.SelectionNotifyEvent{Time: e.Time, Requestor: e.Requestor, Selection: e.Selection, Target: e.Target, Property: prop}
	switch {
	case e.Selection != s.a.selection:
		n.Property = 0
	case e.Target == s.a.uriList:
		xproto.ChangeProperty(s.conn, xproto.PropModeReplace, e.Requestor, prop, s.a.uriList, 8, uint32(len(s.uris)), s.uris)
	case e.Target == s.a.targets:
		list := make([]byte, 8)
		xgb.Put32(list, uint32(s.a.targets))
		xgb.Put32(list[4:], uint32(s.a.uriList))
		xproto.ChangeProperty(s.conn, xproto.PropModeReplace, e.Requestor, prop, xproto.AtomAtom, 32, 2, list)
	default:
		n.Property = 0
	}
	xproto.SendEvent(s.conn, false, e.Requestor, 0, string(n.Bytes()))
}

// under is the XDND-aware window at root position (x, y): the deepest
// window there that carries XdndAware, with where its messages go (its
// proxy, if it names one) and its version. The caller's own window is
// never a target.
func (s *Source) under(x, y int16) (target, dest xproto.Window, ver uint32) {
	w := s.root
	for depth := 0; depth < 32; depth++ {
		r, err := xproto.TranslateCoordinates(s.conn, s.root, w, x, y).Reply()
		if err != nil || r.Child == 0 {
			return 0, 0, 0
		}
		w = r.Child
		if w == s.self || w == s.win {
			return 0, 0, 0
		}
		if v, ok := s.awareness(w); ok {
			return w, s.proxyOf(w), v
		}
	}
	return 0, 0, 0
}

// awareness is the XDND version window w speaks, if 3 or more.
func (s *Source) awareness(w xproto.Window) (uint32, bool) {
	r, err := xproto.GetProperty(s.conn, false, w, s.a.aware, xproto.GetPropertyTypeAny, 0, 1).Reply()
	if err != nil || r.Format != 32 || len(r.Value) < 4 {
		return 0, false
	}
	v := xgb.Get32(r.Value)
	return v, v >= 3
}

// proxyOf is where w's messages go: the window its XdndProxy names, or w.
func (s *Source) proxyOf(w xproto.Window) xproto.Window {
	r, err := xproto.GetProperty(s.conn, false, w, s.a.proxy, xproto.AtomWindow, 0, 1).Reply()
	if err != nil || r.Format != 32 || len(r.Value) < 4 {
		return w
	}
	return xproto.Window(xgb.Get32(r.Value))
}

// send is a protocol message to the target (through its proxy).
func (s *Source) send(kind xproto.Atom, data ...uint32) {
	ev := xproto.ClientMessageEvent{Format: 32, Window: s.target, Type: kind,
		Data: xproto.ClientMessageDataUnionData32New(data)}
	xproto.SendEvent(s.conn, false, s.dest, 0, string(ev.Bytes()))
}
