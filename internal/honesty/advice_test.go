package honesty

import (
	"strings"
	"testing"
	"time"

	"easel/internal/api"
)

// What is known shapes only what it concerns: a failed streamed edit
// unstreams edits, not generations; one image per request is offered as
// a split only when several are asked; what is honoured says nothing.
func TestAdviceFollowsWhatIsKnown(t *testing.T) {
	last := time.Date(2026, 11, 24, 19, 3, 0, 0, time.Local)
	streamedEdits := []Known{{Trait: StreamedEdit, Last: last}}
	stream := api.ImageOptions{Stream: true, PartialImages: 2, N: 1}
	if a := Advise(streamedEdits, stream, true, false); !a.Unstream || !strings.Contains(strings.Join(a.Notes, " "), "streamed edits failed") {
		t.Errorf("an edit: %+v", a)
	}
	if a := Advise(streamedEdits, stream, false, false); a.Unstream || len(a.Notes) != 0 {
		t.Errorf("a generation: %+v", a)
	}
	oneImage := []Known{{Trait: Count, Asked: "4", Got: "1", Last: last}}
	if a := Advise(oneImage, api.ImageOptions{N: 1}, false, false); a.Split {
		t.Errorf("one image asked: %+v", a)
	}
	if a := Advise(oneImage, api.ImageOptions{N: 3}, false, false); !a.Split || !strings.Contains(a.Notes[0], "3 requests of one image") {
		t.Errorf("three asked: %+v", a)
	}
	honoured := []Known{{Trait: Stream, Honoured: true, Last: last}, {Trait: Count, Honoured: true, Last: last}}
	if a := Advise(honoured, api.ImageOptions{N: 3, Stream: true}, false, false); a.Unstream || a.Split || len(a.Notes) != 0 {
		t.Errorf("all honoured: %+v", a)
	}
	masked := []Known{{Trait: Mask, Last: last}, {Trait: References, Asked: "3", Got: "1", Last: last}}
	if a := Advise(masked, api.ImageOptions{}, true, true); len(a.Notes) != 2 {
		t.Errorf("a masked edit of several images: %+v", a)
	}
}
