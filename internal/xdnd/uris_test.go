package xdnd

import "testing"

func TestURIListEscapesAndEndsLinesWithCRLF(t *testing.T) {
	got := string(URIList([]string{"/home/d/My Pictures/sky #1.png", "/tmp/天空.png"}))
	want := "file:///home/d/My%20Pictures/sky%20%231.png\r\nfile:///tmp/%E5%A4%A9%E7%A9%BA.png\r\n"
	if got != want {
		t.Errorf("URIList = %q, want %q", got, want)
	}
}

func TestStartRefusesNothingAndTooMuch(t *testing.T) {
	if _, err := Start(nil, 0); err == nil {
		t.Error("a drag of no files started")
	}
	if _, err := Start(make([]string, MaxFiles+1), 0); err == nil {
		t.Error("a drag past MaxFiles started")
	}
}
