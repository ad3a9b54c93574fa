package imageio

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestReadInputRefusesAFileOverTheLimitRatherThanCutIt(t *testing.T) {
	data := bytes.Repeat([]byte{0x89}, 1025)
	_, _, err := ReadInput(bytes.NewReader(data), "big.png", 1024)
	var tooBig *TooBigError
	if !errors.As(err, &tooBig) || !strings.Contains(err.Error(), "big.png") {
		t.Fatalf("a file one byte over the limit: %v, want a TooBigError naming it", err)
	}
	got, _, err := ReadInput(bytes.NewReader(data[:1024]), "fits.png", 1024)
	if err != nil || len(got) != 1024 {
		t.Fatalf("a file at the limit: %d bytes, %v", len(got), err)
	}
	if _, _, err := ReadInput(bytes.NewReader(nil), "empty.png", 1024); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("an empty file: %v", err)
	}
}
