package transcript

import (
	"fmt"
	"net/url"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/markdown"
	"easel/ui/widgets/swatch"
)

// blockActions are what a code block's buttons do.
type blockActions struct {
	copyText func(string)
	// useAsPrompt offers text to the prompts, its menu under anchor.
	useAsPrompt func(text string, anchor fyne.CanvasObject)
}

// render draws markdown blocks as Fyne objects, top to bottom.
func render(bs []markdown.Block, a blockActions) []fyne.CanvasObject {
	var out []fyne.CanvasObject
	for _, b := range bs {
		out = append(out, renderBlock(b, a))
	}
	return out
}

func renderBlock(b markdown.Block, a blockActions) fyne.CanvasObject {
	switch b.Kind {
	case markdown.Heading:
		style := widget.RichTextStyleHeading
		if b.Level == 2 {
			style = widget.RichTextStyleSubHeading
		} else if b.Level > 2 {
			style = widget.RichTextStyleStrong
			style.Inline = false
		}
		return richText(b.Spans, &style)
	case markdown.Code:
		return codeBlock(b, a)
	case markdown.Quote:
		bar := swatch.New(theme.ColorNamePrimary)
		bar.SetMinSize(fyne.NewSize(3, 0))
		return container.NewBorder(nil, nil, bar, nil, container.NewVBox(render(b.Blocks, a)...))
	case markdown.List:
		rows := container.NewVBox()
		for i, item := range b.Items {
			mark := "•"
			if b.Ordered {
				mark = fmt.Sprintf("%d.", b.Start+i)
			}
			rows.Add(container.NewBorder(nil, nil, container.NewVBox(widget.NewLabel(mark)), nil, container.NewVBox(render(item, a)...)))
		}
		return rows
	case markdown.Table:
		return table(b)
	case markdown.Rule:
		return widget.NewSeparator()
	}
	return richText(b.Spans, nil)
}

// richText is spans as wrapped rich text: emphasis, monospace and links
// (opened in the browser by Fyne only when clicked).
func richText(spans []markdown.Span, base *widget.RichTextStyle) *widget.RichText {
	var segs []widget.RichTextSegment
	for _, s := range spans {
		style := widget.RichTextStyleInline
		if base != nil {
			style = *base
			style.Inline = true
		}
		style.TextStyle.Bold = style.TextStyle.Bold || s.Bold
		style.TextStyle.Italic = style.TextStyle.Italic || s.Italic
		style.TextStyle.Monospace = s.Mono
		if s.Strike {
			style.ColorName = theme.ColorNameDisabled
		}
		if s.Link != "" {
			if u, err := url.Parse(s.Link); err == nil {
				segs = append(segs, &widget.HyperlinkSegment{Text: s.Text, URL: u})
				continue
			}
		}
		segs = append(segs, &widget.TextSegment{Text: s.Text, Style: style})
	}
	if len(segs) == 0 {
		segs = []widget.RichTextSegment{&widget.TextSegment{Text: ""}}
	}
	if base != nil && !base.Inline {
		// A heading's size applies to a block; its spans are inline runs
		// of it.
		for _, seg := range segs {
			if t, ok := seg.(*widget.TextSegment); ok {
				t.Style.SizeName = base.SizeName
			}
		}
	}
	rt := widget.NewRichText(segs...)
	rt.Wrapping = fyne.TextWrapWord
	return rt
}

// codeBlock is monospace text on a panel with its language, Copy and Use
// as prompt; long lines scroll sideways.
func codeBlock(b markdown.Block, a blockActions) fyne.CanvasObject {
	bg := swatch.New(theme.ColorNameInputBackground)
	bg.CornerRadius = theme.Size(theme.SizeNameInputRadius)
	// Code keeps its lines: a line wider than the reply scrolls sideways
	// rather than breaking inside a word or an identifier.
	code := widget.NewLabel(trimNewline(b.Code))
	code.TextStyle.Monospace = true
	code.Wrapping = fyne.TextWrapOff
	text := b.Code
	copyBtn := &widget.Button{Text: catalogue.T("Copy"), Icon: theme.ContentCopyIcon(), Importance: widget.LowImportance, OnTapped: func() { a.copyText(text) }}
	use := &widget.Button{Text: catalogue.T("Use as prompt"), Icon: theme.ColorPaletteIcon(), Importance: widget.LowImportance}
	use.OnTapped = func() { a.useAsPrompt(trimNewline(text), use) }
	lang := widget.NewLabelWithStyle(b.Lang, fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
	header := container.NewHBox(lang, layout.NewSpacer(), copyBtn, use)
	return container.NewStack(bg, container.NewBorder(header, nil, nil, nil, container.NewHScroll(code)))
}

func trimNewline(s string) string {
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}

// table is a grid of cells, the header in bold over a tint.
func table(b markdown.Block) fyne.CanvasObject {
	cols := len(b.Header)
	for _, r := range b.Rows {
		cols = max(cols, len(r))
	}
	if cols == 0 {
		return widget.NewLabel("")
	}
	grid := container.NewGridWithColumns(cols)
	cell := func(spans []markdown.Span, header bool) fyne.CanvasObject {
		var base *widget.RichTextStyle
		if header {
			s := widget.RichTextStyleStrong
			base = &s
		}
		rt := richText(spans, base)
		if !header {
			return rt
		}
		shade := swatch.New(theme.ColorNamePrimary)
		shade.FillAlpha = 0x30
		return container.NewStack(shade, rt)
	}
	for i := 0; i < cols; i++ {
		var spans []markdown.Span
		if i < len(b.Header) {
			spans = b.Header[i]
		}
		grid.Add(cell(spans, true))
	}
	for _, r := range b.Rows {
		for i := 0; i < cols; i++ {
			var spans []markdown.Span
			if i < len(r) {
				spans = r[i]
			}
			grid.Add(cell(spans, false))
		}
	}
	return grid
}
