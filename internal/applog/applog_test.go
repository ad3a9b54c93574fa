package applog

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What is logged lands in the file, with keys removed from the message,
// the values and the errors; the file is moved aside past its cap.
func TestTheLogKeepsNoKeyAndStaysSmall(t *testing.T) {
	dir := t.TempDir()
	c, err := Open(dir, slog.LevelInfo)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	defer Discard()
	slog.Error("ledger: a request's cost could not be written, key sk-live-abcdef0123456789", "job", "cli-1",
		"err", errors.New("Bearer sk-proj-0123456789abcdef refused"), "url", "http://x/?key=sk-abcdefgh123")
	data, err := os.ReadFile(filepath.Join(dir, Name))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	if !strings.Contains(s, "job=cli-1") || !strings.Contains(s, "could not be written") || strings.Contains(s, "sk-") || strings.Contains(s, "0123456789") {
		t.Errorf("the log holds %q", s)
	}
	line := strings.Repeat("x", 1000)
	for range MaxSize / 500 {
		slog.Info(line[:100] + " " + strings.Repeat("y ", 400))
	}
	if st, err := os.Stat(filepath.Join(dir, Name)); err != nil || st.Size() > MaxSize {
		t.Errorf("the log grew past its cap: %v %v", st.Size(), err)
	}
	if _, err := os.Stat(filepath.Join(dir, Name+".1")); err != nil {
		t.Errorf("no older file kept: %v", err)
	}
}
