package markdown

import (
	"net/url"
	"testing"
	"unicode/utf8"
)

// FuzzParse: a chat reply is the service's text, so the parser meets
// anything. It never fails, gives headings a level of 1 to 6, and never
// makes a link of anything but http, https or mailto (a "javascript:" or
// "file:" link must stay text); valid UTF-8 stays valid.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"# Moodboard\n\nA **bold** and *soft* idea with `code`, ~~old~~ and a [link](https://example.com/a).\n",
		"- warm\n- cool\n\n1. first\n2. second\n\n> quoted *words*\n\n```go\nfmt.Println(\"hi\")\n```\n",
		"| Palette | Mood |\n|---|---|\n| amber | warm |\n| teal",
		"[x](javascript:alert(1)) [y](file:///etc/passwd) <mailto:a@b.c> <https://a.b>",
		"\x1b[2J\u202eevil ####### ``` unclosed\n> > > > nested\n\t- tab\n",
		"用户额度不足 **粗体** [链接](https://例子.中国)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		var walk func([]Block, int)
		check := func(spans []Span) {
			for _, s := range spans {
				if s.Link != "" {
					u, err := url.Parse(s.Link)
					if err != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "mailto") {
						t.Fatalf("a link to %q from %q", s.Link, src)
					}
				}
				if utf8.ValidString(src) && !utf8.ValidString(s.Text) {
					t.Fatalf("invalid UTF-8 %q from %q", s.Text, src)
				}
			}
		}
		walk = func(bs []Block, depth int) {
			if depth > len(src)+1 {
				t.Fatalf("nested %d deep from %d bytes", depth, len(src))
			}
			for _, b := range bs {
				if b.Kind == Heading && (b.Level < 1 || b.Level > 6) {
					t.Fatalf("heading level %d from %q", b.Level, src)
				}
				check(b.Spans)
				for _, c := range b.Header {
					check(c)
				}
				for _, r := range b.Rows {
					for _, c := range r {
						check(c)
					}
				}
				walk(b.Blocks, depth+1)
				for _, it := range b.Items {
					walk(it, depth+1)
				}
				if utf8.ValidString(src) && !utf8.ValidString(b.Code) {
					t.Fatalf("invalid UTF-8 code %q from %q", b.Code, src)
				}
			}
		}
		walk(Parse(src), 0)
	})
}
