package quarantine

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
)

// TestMain makes this test binary a child when the parent starts it, as
// easel's main does; EASEL_QUARANTINE_TEST picks what the child's work
// does with the picture.
func TestMain(m *testing.M) {
	Serve(func(data []byte) ([]byte, error) {
		switch string(data) {
		case "bomb":
			// As the ICC library did: ask for more than the limit (3 GB,
			// touched, past the 2 GB bound; bounded, should a platform
			// not enforce it).
			hoard := make([][]byte, 0, 12)
			for range 12 {
				hoard = append(hoard, bytes.Repeat([]byte{1}, 256<<20))
			}
			return hoard[0][:1], nil
		case "broken":
			return nil, errors.New("the bytes are not a PNG, JPEG, WebP, GIF or SVG image")
		case "panic":
			panic("a decoder's bug")
		}
		return append([]byte("thumb of "), data...), nil
	})
	os.Exit(m.Run())
}

// A picture's work runs in the child and its answer comes back.
func TestAChildDoesTheWork(t *testing.T) {
	out, err := Run(context.Background(), strings.NewReader("a lighthouse"))
	if err != nil || string(out) != "thumb of a lighthouse" {
		t.Fatalf("Run = %q, %v", out, err)
	}
}

// A child that asks for more memory than its limit, fails, or panics is
// a Refused with a reason; this process goes on.
func TestAChildsFailureIsAReasonNotACrash(t *testing.T) {
	for data, want := range map[string]string{
		"bomb":   "more memory than Easel allows",
		"broken": "not a PNG",
		"panic":  "a decoder's bug",
	} {
		if data == "bomb" && (underWine() || raceBuild) {
			t.Log("no memory bound here (Wine does not enforce a job's, a race-built child has none): the bomb is left to the other builds")
			continue
		}
		out, err := Run(context.Background(), strings.NewReader(data))
		var refused *Refused
		if !errors.As(err, &refused) || !strings.Contains(refused.Reason, want) || out != nil {
			t.Errorf("%s: Run = %q, %v; want a Refused saying %q", data, out, err, want)
			continue
		}
		if !strings.HasPrefix(err.Error(), "Easel could not draw this picture: ") {
			t.Errorf("%s: said %q", data, err)
		}
	}
}

// A vetted picture that a child could not draw is refused with its
// reason; one it drew passes.
func TestVetterRefusesWhatAChildCouldNotDraw(t *testing.T) {
	if thumb, err := Vetter(strings.NewReader("a lighthouse")); err != nil || string(thumb) != "thumb of a lighthouse" {
		t.Fatalf("a drawable picture: %q, %v", thumb, err)
	}
	_, err := Vetter(strings.NewReader("panic"))
	var refused *Refused
	if !errors.As(err, &refused) || refused.Reason != "a decoder's bug" {
		t.Fatalf("a picture whose decoder panics: %v", err)
	}
}
