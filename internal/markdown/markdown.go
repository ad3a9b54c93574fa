// Package markdown turns a chat model's markdown into blocks the Chat
// transcript draws: headings, paragraphs with emphasis, code and links,
// lists, quotes, tables, code blocks. It parses with goldmark (with the
// GFM table and strikethrough extensions) and keeps only what Easel
// shows, so the drawing side is a plain walk over a small model, tested
// without a window. Nothing here fetches anything: an image in the text
// is kept as its link text, and a link is only its address, opened by the
// window when the user clicks it.
package markdown

import (
	"net/url"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// Kind is what a block is.
type Kind int

// The kinds of block.
const (
	Paragraph Kind = iota
	Heading
	Code
	Quote
	List
	Table
	Rule
)

// Span is a run of text with one style.
type Span struct {
	Text                       string
	Bold, Italic, Mono, Strike bool
	// Link is the address a click opens, "" for plain text; only http,
	// https and mailto addresses are links.
	Link string
}

// Block is one block of a message.
type Block struct {
	Kind Kind
	// Level is a heading's level, 1 to 6.
	Level int
	// Spans are a paragraph's or heading's text.
	Spans []Span
	// Code and Lang are a code block's text and its language, if named.
	Code, Lang string
	// Blocks are a quote's contents.
	Blocks []Block
	// Items are a list's items, each its blocks; Ordered lists number
	// them from Start.
	Items   [][]Block
	Ordered bool
	Start   int
	// Header and Rows are a table's cells, each its spans.
	Header [][]Span
	Rows   [][][]Span
}

var parser = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough)).Parser()

// Parse reads markdown into blocks. It never fails: anything it does not
// know is kept as text.
func Parse(src string) []Block {
	source := []byte(src)
	doc := parser.Parse(text.NewReader(source))
	return blocks(doc, source)
}

func blocks(parent ast.Node, src []byte) []Block {
	var out []Block
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Paragraph, *ast.TextBlock:
			out = append(out, Block{Kind: Paragraph, Spans: spans(n, src, Span{})})
		case *ast.Heading:
			out = append(out, Block{Kind: Heading, Level: n.Level, Spans: spans(n, src, Span{})})
		case *ast.FencedCodeBlock:
			out = append(out, Block{Kind: Code, Code: lines(n, src), Lang: string(n.Language(src))})
		case *ast.CodeBlock:
			out = append(out, Block{Kind: Code, Code: lines(n, src)})
		case *ast.Blockquote:
			out = append(out, Block{Kind: Quote, Blocks: blocks(n, src)})
		case *ast.List:
			b := Block{Kind: List, Ordered: n.IsOrdered(), Start: n.Start}
			for item := n.FirstChild(); item != nil; item = item.NextSibling() {
				b.Items = append(b.Items, blocks(item, src))
			}
			out = append(out, b)
		case *ast.ThematicBreak:
			out = append(out, Block{Kind: Rule})
		case *ast.HTMLBlock:
			// Raw HTML is shown as the text it is, never interpreted.
			out = append(out, Block{Kind: Paragraph, Spans: []Span{{Text: strings.TrimRight(lines(n, src), "\n")}}})
		case *east.Table:
			out = append(out, table(n, src))
		default:
			if n.HasChildren() {
				out = append(out, blocks(n, src)...)
			}
		}
	}
	return out
}

// lines is a block's raw lines, as written.
func lines(n ast.Node, src []byte) string {
	var b strings.Builder
	l := n.Lines()
	for i := 0; i < l.Len(); i++ {
		seg := l.At(i)
		b.Write(seg.Value(src))
	}
	return b.String()
}

func table(t *east.Table, src []byte) Block {
	b := Block{Kind: Table}
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		var cells [][]Span
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			cells = append(cells, spans(cell, src, Span{}))
		}
		if _, ok := row.(*east.TableHeader); ok {
			b.Header = cells
		} else {
			b.Rows = append(b.Rows, cells)
		}
	}
	return b
}

// spans flattens n's inline children into styled runs, each inheriting
// style.
func spans(n ast.Node, src []byte, style Span) []Span {
	var out []Span
	add := func(s Span) {
		if s.Text == "" {
			return
		}
		if k := len(out) - 1; k >= 0 && sameStyle(out[k], s) {
			out[k].Text += s.Text
			return
		}
		out = append(out, s)
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			s := style
			s.Text = string(c.Segment.Value(src))
			switch {
			case c.HardLineBreak():
				s.Text += "\n"
			case c.SoftLineBreak():
				s.Text += " "
			}
			add(s)
		case *ast.String:
			s := style
			s.Text = string(c.Value)
			add(s)
		case *ast.CodeSpan:
			s := style
			s.Mono = true
			s.Text = codeSpanText(c, src)
			add(s)
		case *ast.Emphasis:
			s := style
			if c.Level >= 2 {
				s.Bold = true
			} else {
				s.Italic = true
			}
			for _, sp := range spans(c, src, s) {
				add(sp)
			}
		case *east.Strikethrough:
			s := style
			s.Strike = true
			for _, sp := range spans(c, src, s) {
				add(sp)
			}
		case *ast.Link:
			s := style
			s.Link = safeLink(string(c.Destination))
			for _, sp := range spans(c, src, s) {
				add(sp)
			}
		case *ast.AutoLink:
			s := style
			s.Text = string(c.Label(src))
			s.Link = safeLink(string(c.URL(src)))
			add(s)
		case *ast.Image:
			// Never fetched: the image is its link text.
			s := style
			alt := strings.TrimSpace(plain(c, src))
			if alt == "" {
				alt = "image"
			}
			s.Text = "[" + alt + "]"
			s.Italic = true
			add(s)
		case *ast.RawHTML:
			s := style
			var b strings.Builder
			for i := 0; i < c.Segments.Len(); i++ {
				seg := c.Segments.At(i)
				b.Write(seg.Value(src))
			}
			s.Text = b.String()
			add(s)
		default:
			for _, sp := range spans(c, src, style) {
				add(sp)
			}
		}
	}
	return out
}

func sameStyle(a, b Span) bool {
	return a.Bold == b.Bold && a.Italic == b.Italic && a.Mono == b.Mono && a.Strike == b.Strike && a.Link == b.Link
}

func codeSpanText(c *ast.CodeSpan, src []byte) string {
	var b strings.Builder
	for t := c.FirstChild(); t != nil; t = t.NextSibling() {
		if tx, ok := t.(*ast.Text); ok {
			b.Write(tx.Segment.Value(src))
		}
	}
	return b.String()
}

// plain is the text of n's inline children, without style.
func plain(n ast.Node, src []byte) string {
	var b strings.Builder
	for _, s := range spans(n, src, Span{}) {
		b.WriteString(s.Text)
	}
	return b.String()
}

// safeLink is addr when a click may open it (http, https, mailto), ""
// otherwise: a file: or javascript: address in a model's text is text.
func safeLink(addr string) string {
	u, err := url.Parse(addr)
	if err != nil {
		return ""
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "mailto":
		return addr
	}
	return ""
}

// Text is blocks as plain text, the way "Copy" puts a message on the
// clipboard when the markdown is not wanted, and the way the code block
// and search read it.
func Text(bs []Block) string {
	var b strings.Builder
	var walk func(bs []Block, indent string)
	walk = func(bs []Block, indent string) {
		for _, bl := range bs {
			switch bl.Kind {
			case Paragraph, Heading:
				b.WriteString(indent)
				for _, s := range bl.Spans {
					b.WriteString(s.Text)
				}
				b.WriteString("\n")
			case Code:
				b.WriteString(bl.Code)
			case Quote:
				walk(bl.Blocks, indent+"> ")
			case List:
				for _, it := range bl.Items {
					walk(it, indent+"  ")
				}
			case Table:
				for _, row := range append([][][]Span{bl.Header}, bl.Rows...) {
					var cells []string
					for _, c := range row {
						var t strings.Builder
						for _, s := range c {
							t.WriteString(s.Text)
						}
						cells = append(cells, t.String())
					}
					b.WriteString(indent + strings.Join(cells, "\t") + "\n")
				}
			}
		}
	}
	walk(bs, "")
	return b.String()
}

// Settled is the part of a reply still arriving that can be drawn as it
// will end up: a table whose last row, or whose header and delimiter, has
// not fully arrived would show as raw "|" text for a moment and then jump
// into a table, so the trailing table lines are held back until a line
// that completes them (the delimiter row under the header, or a row's
// line end) has come.
func Settled(src string) string {
	// The line still arriving (no line end yet) is held back when it is
	// a table's.
	cut := len(src)
	if i := strings.LastIndexByte(src, '\n'); i+1 < len(src) && isTableLine(src[i+1:]) {
		cut = i + 1
	}
	// A table's header with no delimiter row under it yet is held back
	// too: alone it is a paragraph of pipes.
	body := src[:cut]
	lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	n := 0
	for n < len(lines) && isTableLine(lines[len(lines)-1-n]) {
		n++
	}
	if n == 1 || (n >= 2 && !isDelimiterRow(lines[len(lines)-n+1])) {
		head := lines[:len(lines)-n]
		if len(head) == 0 {
			return ""
		}
		return strings.Join(head, "\n") + "\n"
	}
	return body
}

// isTableLine reports whether a line is a table's: it begins with a pipe
// (after indentation), as the rows GFM models write do.
func isTableLine(line string) bool {
	return strings.HasPrefix(strings.TrimLeft(line, " \t"), "|")
}

// isDelimiterRow reports whether a line is a table's delimiter row:
// pipes, dashes, colons and spaces, with at least one dash.
func isDelimiterRow(line string) bool {
	return strings.Contains(line, "-") && strings.Trim(line, "|-: \t") == ""
}
