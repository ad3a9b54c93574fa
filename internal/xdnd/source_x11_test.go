//go:build x11

// These tests need an X display (make e2e runs them under Xvfb): each
// puts a target window of its own on the screen, speaking the receiving
// side of XDND as a toolkit does, warps the pointer onto it and drags.

package xdnd

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"
)

// TestMain holds a connection to the display for the whole run: an X
// server resets when its last client leaves, and the next test's
// connection would meet the reset.
func TestMain(m *testing.M) {
	conn, err := xgb.NewConn()
	if err != nil {
		fmt.Fprintln(os.Stderr, "xdnd's tests need an X display:", err)
		os.Exit(1)
	}
	code := m.Run()
	conn.Close()
	os.Exit(code)
}

// target is a window that takes drops, as GTK's and Qt's do: it answers
// each position (accepting or not), fetches the files on a drop and says
// it is finished.
type target struct {
	t      *testing.T
	conn   *xgb.Conn
	win    xproto.Window
	accept bool
	got    chan string // the uri-list fetched
	seen   chan string // the protocol messages in order
	a      map[string]xproto.Atom
	quit   chan struct{} // closed at the end of the test
}

func newTarget(t *testing.T, x, y int16, accept bool) *target {
	t.Helper()
	conn, err := xgb.NewConn()
	if err != nil {
		t.Fatalf("no X display: %v", err)
	}
	tg := &target{t: t, conn: conn, accept: accept, got: make(chan string, 1), seen: make(chan string, 64),
		a: map[string]xproto.Atom{}, quit: make(chan struct{})}
	for _, n := range []string{"XdndAware", "XdndEnter", "XdndPosition", "XdndStatus", "XdndLeave",
		"XdndDrop", "XdndFinished", "XdndSelection", "XdndActionCopy", "text/uri-list", "GOT"} {
		r, err := xproto.InternAtom(conn, false, uint16(len(n)), n).Reply()
		if err != nil {
			t.Fatal(err)
		}
		tg.a[n] = r.Atom
	}
	root := xproto.Setup(conn).DefaultScreen(conn).Root
	tg.win, _ = xproto.NewWindowId(conn)
	xproto.CreateWindow(conn, 0, tg.win, root, x, y, 200, 200, 0, xproto.WindowClassInputOutput, 0, 0, nil)
	v := make([]byte, 4)
	xgb.Put32(v, 5)
	xproto.ChangeProperty(conn, xproto.PropModeReplace, tg.win, tg.a["XdndAware"], xproto.AtomAtom, 32, 1, v)
	xproto.MapWindow(conn, tg.win)
	if _, err := xproto.GetGeometry(conn, xproto.Drawable(tg.win)).Reply(); err != nil { // the map is done
		t.Fatal(err)
	}
	go tg.serve()
	t.Cleanup(func() { close(tg.quit); conn.Close() })
	return tg
}

func (tg *target) name(a xproto.Atom) string {
	for n, v := range tg.a {
		if v == a {
			return n
		}
	}
	return "?"
}

func (tg *target) serve() {
	var source xproto.Window
	for {
		ev, err := tg.conn.WaitForEvent()
		if ev == nil && err == nil {
			return
		}
		switch e := ev.(type) {
		case xproto.ClientMessageEvent:
			d := e.Data.Data32
			tg.seen <- tg.name(e.Type)
			source = xproto.Window(d[0])
			switch e.Type {
			case tg.a["XdndEnter"]:
				if d[2] != uint32(tg.a["text/uri-list"]) {
					tg.t.Errorf("Enter offers %d, want text/uri-list", d[2])
				}
			case tg.a["XdndPosition"]:
				var flags uint32
				if tg.accept {
					flags = 1
				}
				tg.reply(source, "XdndStatus", uint32(tg.win), flags, 0, 0, uint32(tg.a["XdndActionCopy"]))
			case tg.a["XdndDrop"]:
				xproto.ConvertSelection(tg.conn, tg.win, tg.a["XdndSelection"], tg.a["text/uri-list"], tg.a["GOT"], xproto.Timestamp(d[2]))
			}
		case xproto.SelectionNotifyEvent:
			r, err := xproto.GetProperty(tg.conn, true, tg.win, tg.a["GOT"], xproto.GetPropertyTypeAny, 0, 1<<16).Reply()
			if err != nil || e.Property == 0 {
				tg.got <- ""
			} else {
				tg.got <- string(r.Value)
			}
			tg.reply(source, "XdndFinished", uint32(tg.win), 1, uint32(tg.a["XdndActionCopy"]), 0, 0)
		}
	}
}

func (tg *target) reply(to xproto.Window, kind string, data ...uint32) {
	ev := xproto.ClientMessageEvent{Format: 32, Window: to, Type: tg.a[kind], Data: xproto.ClientMessageDataUnionData32New(data)}
	xproto.SendEvent(tg.conn, false, to, 0, string(ev.Bytes()))
}

// pointTo warps the pointer to root position (x, y).
func pointTo(t *testing.T, x, y int16) {
	t.Helper()
	conn, err := xgb.NewConn()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	root := xproto.Setup(conn).DefaultScreen(conn).Root
	if err := xproto.WarpPointerChecked(conn, 0, root, 0, 0, 0, 0, x, y).Check(); err != nil {
		t.Fatal(err)
	}
}

func outcome(t *testing.T, s *Source) Outcome {
	t.Helper()
	select {
	case o := <-s.Done():
		return o
	case <-time.After(10 * time.Second):
		t.Fatal("the drag never ended")
	}
	return Outcome{}
}

// moveAndSettle moves, and waits for the target to have answered.
func moveAndSettle(s *Source) {
	for range 3 {
		s.Move()
		time.Sleep(50 * time.Millisecond)
	}
}

func messages(tg *target) string {
	var seen []string
	for {
		select {
		case m := <-tg.seen:
			seen = append(seen, m)
		case <-time.After(200 * time.Millisecond):
			return strings.Join(seen, " ")
		}
	}
}

func TestDropDeliversTheFilesAsURIs(t *testing.T) {
	tg := newTarget(t, 300, 300, true)
	pointTo(t, 10, 10) // over the root: no target yet
	s, err := Start([]string{"/tmp/a b.png", "/tmp/c.png"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	moveAndSettle(s)
	pointTo(t, 350, 350)
	moveAndSettle(s)
	s.Drop()
	o := outcome(t, s)
	if !o.Dropped || o.Target != uint32(tg.win) {
		t.Fatalf("outcome %+v, want dropped on %d", o, tg.win)
	}
	if got, want := <-tg.got, "file:///tmp/a%20b.png\r\nfile:///tmp/c.png\r\n"; got != want {
		t.Errorf("target got %q, want %q", got, want)
	}
	m := messages(tg)
	if !strings.HasPrefix(m, "XdndEnter XdndPosition") || !strings.HasSuffix(m, "XdndDrop") {
		t.Errorf("messages %q: want Enter, Position…, Drop", m)
	}
}

func TestRefusingTargetGetsLeaveNotDrop(t *testing.T) {
	tg := newTarget(t, 300, 300, false)
	pointTo(t, 350, 350)
	s, err := Start([]string{"/tmp/a.png"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	moveAndSettle(s)
	s.Drop()
	if o := outcome(t, s); o.Dropped || o.Target != uint32(tg.win) {
		t.Fatalf("outcome %+v, want refused by %d", o, tg.win)
	}
	if m := messages(tg); !strings.HasSuffix(m, "XdndLeave") || strings.Contains(m, "XdndDrop") {
		t.Errorf("messages %q: want a Leave and no Drop", m)
	}
}

func TestOwnWindowIsNeverATarget(t *testing.T) {
	tg := newTarget(t, 300, 300, true)
	pointTo(t, 350, 350)
	s, err := Start([]string{"/tmp/a.png"}, uint32(tg.win))
	if err != nil {
		t.Fatal(err)
	}
	moveAndSettle(s)
	s.Drop()
	if o := outcome(t, s); o.Dropped || o.Target != 0 {
		t.Fatalf("outcome %+v, want nothing under the pointer", o)
	}
	if m := messages(tg); m != "" {
		t.Errorf("own window was sent %q", m)
	}
}

func TestLeavingATargetAndCancelling(t *testing.T) {
	tg := newTarget(t, 300, 300, true)
	pointTo(t, 350, 350)
	s, err := Start([]string{"/tmp/a.png"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	moveAndSettle(s)
	pointTo(t, 10, 10)
	moveAndSettle(s)
	s.Cancel()
	if o := outcome(t, s); o.Dropped {
		t.Fatalf("outcome %+v, want nothing dropped", o)
	}
	if m := messages(tg); !strings.HasSuffix(m, "XdndLeave") {
		t.Errorf("messages %q: want the target told the drag left", m)
	}
}

// Esc, wherever the keyboard's focus is, cancels the drag: the source
// holds the keyboard while it runs, as GTK's does. The target is told
// the drag left and gets no drop.
func TestEscCancelsTheDrag(t *testing.T) {
	tg := newTarget(t, 300, 300, true)
	pointTo(t, 350, 350)
	s, err := Start([]string{"/tmp/a.png"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	moveAndSettle(s)
	if s.escape == 0 {
		t.Fatal("no keycode for Escape")
	}
	conn, err := xgb.NewConn()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := xtest.Init(conn); err != nil {
		t.Fatalf("no XTEST: %v", err)
	}
	root := xproto.Setup(conn).DefaultScreen(conn).Root
	for _, kind := range []byte{xproto.KeyPress, xproto.KeyRelease} {
		if err := xtest.FakeInputChecked(conn, kind, byte(s.escape), 0, root, 0, 0, 0).Check(); err != nil {
			t.Fatal(err)
		}
	}
	if o := outcome(t, s); o.Dropped {
		t.Fatalf("outcome %+v after Esc, want nothing dropped", o)
	}
	s.Drop() // the button comes up after: nothing more happens
	if m := messages(tg); !strings.HasSuffix(m, "XdndLeave") || strings.Contains(m, "XdndDrop") {
		t.Errorf("messages %q: want a Leave and no Drop", m)
	}
}
