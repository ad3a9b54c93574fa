package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The drift limit is kept across writes and reads; one out of range is
// said and the default used.
func TestTheDriftLimitIsKeptAndBounded(t *testing.T) {
	s := Open(filepath.Join(t.TempDir(), "profiles.json"))
	if _, err := s.Update(func(f *File) error { f.DriftLimit = 0.2; return nil }); err != nil {
		t.Fatal(err)
	}
	f, err := s.Load()
	if err != nil || f.TurnLimit() != 0.2 {
		t.Fatalf("read back %v (%v)", f.DriftLimit, err)
	}
	drift := 0.25
	if !f.Strayed(&drift) || f.Strayed(nil) {
		t.Error("a quarter strayed past a fifth is not flagged, or an unmeasured turn is")
	}
	if err := os.WriteFile(s.Path(), []byte(`{"version":1,"profiles":[],"drift_limit":5}`), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err = s.Load()
	if f.TurnLimit() != DefaultDriftLimit || err == nil || !strings.Contains(err.Error(), "drift limit") {
		t.Errorf("a limit of 5: %v, %v", f.TurnLimit(), err)
	}
}
