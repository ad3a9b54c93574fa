package transcript

import (
	"testing"

	"fyne.io/fyne/v2/test"
)

// A reply as drawn, against a master image: a heading, bold and code
// words, a list, a code block (its long line kept whole, scrolling
// sideways) and a table, under the user's question.
func TestGoldenReplyRendersMarkdown(t *testing.T) {
	tr, w := shown(t, Actions{})
	tr.SetMessages([]Message{
		{ID: 1, Role: "user", Text: "Palette for a spring poster?"},
		{ID: 2, Role: "assistant", Model: "gpt-4o", Text: "## Spring\n\nUse **soft** greens and `#e9c46a`.\n\n- moss\n- butter\n\n```\nmain: #2a9d8f\nconst springPaletteForThePosterWithAVeryLongIdentifierName = [\"#2a9d8f\", \"#e9c46a\", \"#f4a261\"]\n```\n\n| Role | Colour |\n|---|---|\n| main | teal |\n", Last: true},
	})
	test.AssertRendersToImage(t, "reply.png", w.Canvas())
}
