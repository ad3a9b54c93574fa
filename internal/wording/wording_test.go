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
