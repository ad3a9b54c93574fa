package ui

import (
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"fyne.io/fyne/v2"

	"easel/internal/atomicfile"
)

// Fyne writes its preferences file by truncating it and writing it
// again: a SIGTERM or a logout between the two left it empty (one run in
// 45 did), and with it the theme, the window's size and every draft.
// stateFile is Easel's own copy of the same values, written whole under
// a new name and renamed over the old (atomicfile), after each change
// and once more as Easel leaves; a start that finds Fyne's file empty
// puts the copy back. Fyne's file is never the only copy.
type stateFile struct {
	path   string
	values valueMap
	// kick wakes the writer; a change while it writes is written after.
	kick chan struct{}
	mu   sync.Mutex // one write at a time
}

// valueMap is what Fyne's preferences are underneath (its
// InMemoryPreferences), read and written whole.
type valueMap interface {
	ReadValues(func(map[string]any))
	WriteValues(func(map[string]any))
}

// stateWriteEvery spaces the copy's writes: a slider dragged is one
// write, not hundreds.
const stateWriteEvery = 300 * time.Millisecond

// openStateFile keeps a copy of a's preferences in dir, putting it back
// first when Fyne's own are empty. Nil when the preferences are not
// Fyne's (a test's) or there is no folder.
func openStateFile(a fyne.App, dir string) *stateFile {
	values, ok := a.Preferences().(valueMap)
	if !ok || dir == "" {
		return nil
	}
	s := &stateFile{path: filepath.Join(dir, "easel-state.json"), values: values, kick: make(chan struct{}, 1)}
	s.restore()
	a.Preferences().AddChangeListener(func() {
		select {
		case s.kick <- struct{}{}:
		default:
		}
	})
	go func() {
		for range s.kick {
			s.write()
			time.Sleep(stateWriteEvery)
		}
	}()
	return s
}

// restore puts the copy's values back where Fyne's file had none: it
// was emptied or lost. Values Fyne's file holds are left as they are.
func (s *stateFile) restore() {
	data, err := os.ReadFile(s.path)
	if err != nil {
		return
	}
	var saved map[string]any
	if err := json.Unmarshal(data, &saved); err != nil {
		slog.Warn("state: Easel's copy of its settings could not be read", "path", s.path, "err", err)
		return
	}
	var missing bool
	s.values.ReadValues(func(m map[string]any) { _, has := m[prefVersion]; missing = !has })
	if !missing {
		return
	}
	slog.Warn("state: Fyne's preferences were empty; Easel's own copy is put back", "path", s.path, "values", len(saved))
	s.values.WriteValues(func(m map[string]any) {
		for k, v := range saved {
			m[k] = typedList(v)
		}
	})
}

// typedList is v as Fyne keeps a list: JSON reads []any, Fyne's
// preferences hold []string, []float64 or []bool.
func typedList(v any) any {
	items, ok := v.([]any)
	if !ok || len(items) == 0 {
		return v
	}
	switch items[0].(type) {
	case string:
		return convert[string](items)
	case float64:
		return convert[float64](items)
	case bool:
		return convert[bool](items)
	}
	return v
}

func convert[T any](items []any) any {
	out := make([]T, 0, len(items))
	for _, it := range items {
		t, ok := it.(T)
		if !ok {
			return items
		}
		out = append(out, t)
	}
	return out
}

// write writes the copy now, whole or not at all.
func (s *stateFile) write() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var data []byte
	var err error
	s.values.ReadValues(func(m map[string]any) { data, err = json.Marshal(m) })
	if err == nil {
		err = atomicfile.Write(s.path, data)
	}
	if err != nil {
		slog.Warn("state: Easel's copy of its settings could not be written", "path", s.path, "err", err)
	}
}

// quitWithin is how long a quit may take, from Ctrl+Q, the window's
// close, SIGTERM or SIGINT, before Easel ends itself: Fyne's loop has
// been seen never to stop (its lifecycle queue blocked in GLFW's wait
// for the main thread), leaving a process with no window.
const quitWithin = 5 * time.Second

// armQuit starts, once, the watchdog of a quit: if the process is still
// here a little before quitWithin, Easel's own state is written and the
// process ends. The journal lists any job still out at the next start.
func (s *services) armQuit() {
	if s.exit == nil {
		return
	}
	s.quitArmed.Do(func() {
		go func() {
			time.Sleep(quitWithin - time.Second)
			slog.Warn("quit: the window did not close in time; Easel ends itself with its state saved")
			// The copy is written from the last values set; a write
			// that cannot take the preferences' lock is not waited for.
			written := make(chan struct{})
			go func() { s.stateCopy.write(); close(written) }()
			select {
			case <-written:
			case <-time.After(500 * time.Millisecond):
			}
			s.exit(0)
		}()
	})
}
