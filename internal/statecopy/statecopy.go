// Package statecopy keeps Easel's own copy of the window's settings, and
// ends a quit that does not end.
//
// Fyne writes its preferences file by truncating it and writing it
// again: a SIGTERM or a logout between the two left it empty (one run in
// 45 did), and with it the theme, the window's size and every draft. A
// Copy is the same values, written whole under a new name and renamed
// over the old (atomicfile), after each change and once more as Easel
// leaves; a start that finds Fyne's values empty puts the copy back.
// Fyne's file is never the only copy. The package knows Fyne's
// preferences only as the map they are underneath (Values).
package statecopy

import (
	"encoding/json"
	"log/slog"
	"os"
	"sync"
	"time"

	"easel/internal/atomicfile"
)

// Values are settings read and written whole, as a map (what Fyne's
// InMemoryPreferences are underneath).
type Values interface {
	ReadValues(func(map[string]any))
	WriteValues(func(map[string]any))
}

// Copy is a file holding the same values as a Values.
type Copy struct {
	path   string
	values Values
	// kick wakes the writer; a change while it writes is written after.
	kick chan struct{}
	mu   sync.Mutex // one write at a time
}

// writeEvery spaces the copy's writes: a slider dragged is one write,
// not hundreds.
const writeEvery = 300 * time.Millisecond

// Open keeps a copy of values at path, putting it back first when
// values lack the key marker (Fyne's file was emptied or lost), or when
// the copy was written after settings, the file values were read from
// (Fyne's last write at a quit did not happen: see restore). Tell it of
// each change (Changed).
func Open(values Values, path, marker, settings string) *Copy {
	c := &Copy{path: path, values: values, kick: make(chan struct{}, 1)}
	c.restore(marker, settings)
	go func() {
		for range c.kick {
			c.Write()
			time.Sleep(writeEvery)
		}
	}()
	return c
}

// Changed says the values changed: the copy is written soon.
func (c *Copy) Changed() {
	if c == nil {
		return
	}
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

// restore puts the copy's values back where values hold no marker: they
// were emptied or lost; and where the copy is newer than the settings
// file. Fyne defers a write that comes within 100 ms of its last one to
// its event loop, which a quit stops: the drafts saved as Easel leaves
// came that close after the window's layout, and a SIGTERM on a loaded
// machine lost them from Fyne's file (not from the copy, written last).
// The copy holds the whole map as it was when written, so when it was
// written after the settings file it is the later of the two.
func (c *Copy) restore(marker, settings string) {
	data, err := os.ReadFile(c.path)
	if err != nil {
		return
	}
	var saved map[string]any
	if err := json.Unmarshal(data, &saved); err != nil {
		slog.Warn("state: Easel's copy of its settings could not be read", "path", c.path, "err", err)
		return
	}
	var missing bool
	c.values.ReadValues(func(m map[string]any) { _, has := m[marker]; missing = !has })
	switch {
	case newer(c.path, settings):
		slog.Info("state: Easel's copy of its settings is newer than the settings file; it is put back", "path", c.path)
	case missing:
		slog.Warn("state: the settings were empty; Easel's own copy is put back", "path", c.path, "values", len(saved))
	default:
		return
	}
	c.values.WriteValues(func(m map[string]any) {
		for k, v := range saved {
			m[k] = typedList(v)
		}
	})
}

// newer reports whether the file at a was written after the one at b,
// which exists.
func newer(a, b string) bool {
	if b == "" {
		return false
	}
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && sa.ModTime().After(sb.ModTime())
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

// Write writes the copy now, whole or not at all.
func (c *Copy) Write() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var data []byte
	var err error
	c.values.ReadValues(func(m map[string]any) { data, err = json.Marshal(m) })
	if err == nil {
		err = atomicfile.Write(c.path, data)
	}
	if err != nil {
		slog.Warn("state: Easel's copy of its settings could not be written", "path", c.path, "err", err)
	}
}

// Watchdog ends a quit that does not end: Fyne's loop has been seen never
// to stop (its lifecycle queue blocked in GLFW's wait for the main
// thread), leaving a process with no window.
type Watchdog struct {
	// Within is how long a quit may take; Save runs just before the end
	// (not waited for past half a second: it may need a lock the stuck
	// loop holds); Exit ends the process.
	Within time.Duration
	Save   func()
	Exit   func(code int)
	once   sync.Once
}

// Arm starts the watchdog, once: a second before Within, Save, then Exit.
func (w *Watchdog) Arm() {
	if w == nil {
		return
	}
	w.once.Do(func() {
		go func() {
			time.Sleep(w.Within - time.Second)
			slog.Warn("quit: the window did not close in time; Easel ends itself with its state saved")
			saved := make(chan struct{})
			go func() { w.Save(); close(saved) }()
			select {
			case <-saved:
			case <-time.After(500 * time.Millisecond):
			}
			w.Exit(0)
		}()
	})
}
