package statecopy

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// values is a map read and written whole, as Fyne's preferences are.
type values struct {
	mu sync.RWMutex
	m  map[string]any
}

func (v *values) ReadValues(f func(map[string]any)) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	f(v.m)
}

func (v *values) WriteValues(f func(map[string]any)) {
	v.mu.Lock()
	defer v.mu.Unlock()
	f(v.m)
}

func (v *values) set(k string, x any) {
	v.WriteValues(func(m map[string]any) { m[k] = x })
}

// The copy follows every change, written whole; a start whose settings
// were emptied (a kill while Fyne rewrote its file) gets them back from
// it, lists typed as Fyne keeps them, and a start whose settings are
// whole keeps its own.
func TestTheCopySurvivesAnEmptiedSettingsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "easel-state.json")
	v := &values{m: map[string]any{}}
	c := Open(v, path, "window.version", "")
	v.set("window.version", 1)
	v.set("window.width", 1280.0)
	v.set("draft.generate", "a lighthouse at dusk")
	v.set("recent", []string{"a", "b"})
	c.Changed()
	var saved map[string]any
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		data, err := os.ReadFile(path)
		if err == nil && json.Unmarshal(data, &saved) == nil && saved["recent"] != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the copy was not written: %s %v", data, err)
		}
	}

	emptied := &values{m: map[string]any{}}
	Open(emptied, path, "window.version", "")
	if emptied.m["window.width"] != 1280.0 || emptied.m["draft.generate"] != "a lighthouse at dusk" || emptied.m["window.version"] != 1.0 {
		t.Errorf("put back: %v", emptied.m)
	}
	if l, ok := emptied.m["recent"].([]string); !ok || len(l) != 2 {
		t.Errorf("the list came back as %T %v", emptied.m["recent"], emptied.m["recent"])
	}

	whole := &values{m: map[string]any{"window.version": 1, "draft.generate": "newer"}}
	Open(whole, path, "window.version", "")
	if whole.m["draft.generate"] != "newer" {
		t.Errorf("whole settings were overwritten: %v", whole.m)
	}
}

// A quit whose last write of the settings file did not happen (Fyne
// defers a write within 100 ms of the one before to its stopped loop):
// the copy, written after, is the later and is put back; a copy older
// than the settings file is not.
func TestANewerCopyIsTheLastWord(t *testing.T) {
	dir := t.TempDir()
	path, settings := filepath.Join(dir, "easel-state.json"), filepath.Join(dir, "preferences.json")
	if err := os.WriteFile(settings, []byte(`{"window.version":1,"window.lastTab":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`{"window.version":1,"window.lastTab":1,"draft.generate":"a harbour in the fog"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	past := time.Now().Add(-time.Minute)
	if err := os.Chtimes(settings, past, past); err != nil {
		t.Fatal(err)
	}
	lost := &values{m: map[string]any{"window.version": 1.0, "window.lastTab": 1.0}}
	Open(lost, path, "window.version", settings)
	if lost.m["draft.generate"] != "a harbour in the fog" {
		t.Errorf("the draft only the copy had: %v", lost.m)
	}
	if err := os.Chtimes(path, past.Add(-time.Minute), past.Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	later := &values{m: map[string]any{"window.version": 1.0, "draft.generate": "typed later"}}
	Open(later, path, "window.version", settings)
	if later.m["draft.generate"] != "typed later" {
		t.Errorf("an older copy overwrote the settings: %v", later.m)
	}
}

// An armed watchdog saves and ends the process once, a second before its
// time, even when the save cannot finish.
func TestTheWatchdogEndsAQuitThatDoesNotEnd(t *testing.T) {
	ended := make(chan int, 2)
	stuck := make(chan struct{})
	defer close(stuck)
	w := &Watchdog{Within: 1200 * time.Millisecond, Save: func() { <-stuck }, Exit: func(code int) { ended <- code }}
	start := time.Now()
	w.Arm()
	w.Arm()
	select {
	case code := <-ended:
		if took := time.Since(start); code != 0 || took > 2*time.Second {
			t.Errorf("ended with %d after %v", code, took)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the watchdog never ended the quit")
	}
	select {
	case <-ended:
		t.Error("armed twice, it ended twice")
	case <-time.After(300 * time.Millisecond):
	}
}
