package oledrag

import (
	"bytes"
	"testing"
)

// The CF_HDROP block is a DROPFILES header saying the list starts 20
// bytes in and is wide, then each path in UTF-16 ended by a NUL, and a
// final NUL.
func TestDropFilesBlock(t *testing.T) {
	got := DropFiles([]string{`C:\a`, `D:\é`})
	want := []byte{20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
		'C', 0, ':', 0, '\\', 0, 'a', 0, 0, 0,
		'D', 0, ':', 0, '\\', 0, 0xe9, 0, 0, 0,
		0, 0}
	if !bytes.Equal(got, want) {
		t.Errorf("DropFiles = % x\nwant       % x", got, want)
	}
}
