package wording

import (
	"errors"
	"fmt"
	"os"
	"testing"
)

// Each problem is said in the same words whatever system code it came
// as: systemErrors (per platform) gives this platform's codes for each.
func TestOSErrorsAreWordedAlikeEverywhere(t *testing.T) {
	want := map[Problem]string{
		DiskFull:     "the disk is full",
		ReadOnly:     "the disk is read-only",
		NotAllowed:   "permission denied",
		InUse:        "another program is using the file",
		DriveMissing: "the drive is not connected",
		NotFound:     "no such file or folder",
	}
	for problem, codes := range systemErrors() {
		for _, code := range codes {
			wrapped := fmt.Errorf("saving: %w", &os.PathError{Op: "write", Path: "/x/a.png", Err: code})
			if got := Classify(wrapped); got != problem {
				t.Errorf("%v (%d) is %v, want %v", code, code, got, problem)
			}
			if got := PathCause(wrapped).Error(); got != want[problem] {
				t.Errorf("%v reads %q, want %q", code, got, want[problem])
			}
		}
	}
	if got := Classify(errors.New("something else")); got != Unknown {
		t.Errorf("a plain error is %v", got)
	}
}
