package markdown

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseKeepsWhatTheTranscriptShows(t *testing.T) {
	src := "# Moodboard\n\nA **bold** and *soft* idea with `code`, ~~old~~ and a [link](https://example.com/a).\n\n" +
		"- warm\n- cool\n\n1. first\n2. second\n\n> quoted *words*\n\n```go\nfmt.Println(\"hi\")\n```\n\n" +
		"| Palette | Mood |\n|---|---|\n| amber | warm |\n| teal | calm |\n\n---\n"
	bs := Parse(src)
	kinds := []Kind{}
	for _, b := range bs {
		kinds = append(kinds, b.Kind)
	}
	want := []Kind{Heading, Paragraph, List, List, Quote, Code, Table, Rule}
	if !reflect.DeepEqual(kinds, want) {
		t.Fatalf("kinds %v, want %v", kinds, want)
	}
	if bs[0].Level != 1 || bs[0].Spans[0].Text != "Moodboard" {
		t.Errorf("heading %+v", bs[0])
	}
	p := bs[1].Spans
	find := func(text string) Span {
		for _, s := range p {
			if s.Text == text {
				return s
			}
		}
		t.Fatalf("no span %q in %+v", text, p)
		return Span{}
	}
	if !find("bold").Bold || !find("soft").Italic || !find("code").Mono || !find("old").Strike || find("link").Link != "https://example.com/a" {
		t.Errorf("styles lost: %+v", p)
	}
	if !bs[3].Ordered || bs[3].Start != 1 || len(bs[3].Items) != 2 || bs[2].Ordered {
		t.Errorf("lists %+v %+v", bs[2], bs[3])
	}
	if bs[5].Lang != "go" || bs[5].Code != "fmt.Println(\"hi\")\n" {
		t.Errorf("code block %+v", bs[5])
	}
	tb := bs[6]
	if len(tb.Header) != 2 || tb.Header[0][0].Text != "Palette" || len(tb.Rows) != 2 || tb.Rows[1][1][0].Text != "calm" {
		t.Errorf("table %+v", tb)
	}
}

// An image is never a picture to fetch: it is its link text. A link
// that is not http, https or mailto is text, not a link.
func TestImagesAreTextAndOnlyWebLinksAreLinks(t *testing.T) {
	bs := Parse("![a chair](http://127.0.0.1:9/a.png) and [run](javascript:alert(1)) and [file](file:///etc/passwd) and <https://ok.example>")
	var got []Span
	for _, b := range bs {
		got = append(got, b.Spans...)
	}
	if got[0].Text != "[a chair]" || got[0].Link != "" {
		t.Errorf("the image became %+v", got[0])
	}
	for _, s := range got {
		if s.Link != "" && s.Link != "https://ok.example" {
			t.Errorf("%q links to %q", s.Text, s.Link)
		}
	}
	if got[len(got)-1].Link != "https://ok.example" {
		t.Errorf("the autolink: %+v", got[len(got)-1])
	}
}

// Text half-written as it streams parses too, and raw HTML is text.
func TestPartialAndHostileTextParses(t *testing.T) {
	for _, src := range []string{"```py\nprint(", "**unclosed", "| a |\n|--", "<script>alert(1)</script>", "", "\x00\x01"} {
		bs := Parse(src)
		if src != "" && len(bs) == 0 {
			t.Errorf("%q parsed to nothing", src)
		}
	}
	bs := Parse("<script>alert(1)</script>")
	if Text(bs) != "<script>alert(1)</script>\n" {
		t.Errorf("raw HTML became %q", Text(bs))
	}
}

// While a reply streams in, a table shows only once its header has its
// delimiter row, and each row once its line has ended: never as a
// paragraph of pipes that jumps into a table a moment later.
func TestSettledHoldsBackAHalfTable(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"Colours:\n\n| Role | Col", "Colours:\n\n"},
		{"Colours:\n\n| Role | Colour |\n", "Colours:\n\n"},
		{"Colours:\n\n| Role | Colour |\n|---", "Colours:\n\n"},
		{"Colours:\n\n| Role | Colour |\n|---|---|\n", "Colours:\n\n| Role | Colour |\n|---|---|\n"},
		{"| Role | Colour |\n|---|---|\n| main | te", "| Role | Colour |\n|---|---|\n"},
		{"| Role | Colour |\n|---|---|\n| main | teal |\n", "| Role | Colour |\n|---|---|\n| main | teal |\n"},
		{"plain text still arriving", "plain text still arriving"},
		{"a | pipe inside a sentence", "a | pipe inside a sentence"},
		{"| Role", ""},
	} {
		if got := Settled(c.src); got != c.want {
			t.Errorf("Settled(%q) = %q, want %q", c.src, got, c.want)
		}
		for _, b := range Parse(Settled(c.src)) {
			if b.Kind == Paragraph && len(b.Spans) > 0 && strings.HasPrefix(b.Spans[0].Text, "|") {
				t.Errorf("%q draws raw pipes: %+v", c.src, b)
			}
		}
	}
}
