package wording

import "testing"

func TestSentence(t *testing.T) {
	for in, want := range map[string]string{
		"":                                "",
		"the disk is full":                "The disk is full.",
		"done.":                           "Done.",
		"damaged.png looks damaged":       "damaged.png looks damaged.",
		"/home/ana/a.png cannot be read":  "/home/ana/a.png cannot be read.",
		"élan is a word":                  "Élan is a word.",
		"is it there?":                    "Is it there?",
		"my_scan.tif is not an image":     "my_scan.tif is not an image.",
		"cannot open gone.png: not there": "Cannot open gone.png: not there.",
	} {
		if got := Sentence(in); got != want {
			t.Errorf("Sentence(%q) = %q, want %q", in, got, want)
		}
	}
}

// A sentence in Chinese ends with the Chinese full stop, one in English
// with the ASCII one; one already ended is left as it is.
func TestFullStopFollowsTheScript(t *testing.T) {
	for in, want := range map[string]string{
		"the image is damaged": "the image is damaged.",
		"图片已损坏":                "图片已损坏。",
		"无法读取 a.png":           "无法读取 a.png。",
		"图片已损坏。":               "图片已损坏。",
		"Is it?":               "Is it?",
		"要发送吗？":                "要发送吗？",
		"":                     "",
		"the key ends in …":    "the key ends in …",
	} {
		if got := FullStop(in); got != want {
			t.Errorf("FullStop(%q) = %q, want %q", in, got, want)
		}
	}
}
