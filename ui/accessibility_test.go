package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
)

// accessibleNames are what a screen reader is given of the window: the
// flat list Fyne 2.8's accessibility builds (glfw/accessibility_*.go),
// each visible object that says it is accessible and is no container.
// Fyne's own walk goes into containers only, so it stops at the tabs,
// splits and scrolls, and gives a reader the status bar alone (see
// docs/decisions.md); this one goes on into widgets' renderers too, as a
// reader must, so that what Easel names is checked where it is.
func accessibleNames(o fyne.CanvasObject, out *[]string) {
	if o == nil || !o.Visible() {
		return
	}
	if a, ok := o.(fyne.Accessible); ok && a.AccessibilityRole() != fyne.AccessibleRoleContainer {
		*out = append(*out, string(a.AccessibilityRole())+": "+a.AccessibilityLabel())
		return // a button's or a label's parts are the button, the label
	}
	switch w := o.(type) {
	case *fyne.Container:
		for _, child := range w.Objects {
			accessibleNames(child, out)
		}
	case *widget.Entry, *widget.SelectEntry, *widget.Select, *widget.Check, *widget.Slider, *widget.RadioGroup:
		// Fyne's own controls, whose parts (a select's arrow button) are
		// Fyne's; 2.8 gives none of them a name (docs/decisions.md).
	case fyne.Widget:
		for _, child := range test.WidgetRenderer(w).Objects() {
			accessibleNames(child, out)
		}
	}
}

// #59: on each of the four tabs, every control a screen reader is given
// has a name a person can use, in English and in Chinese: an icon-only
// button says what it does, never its icon's file name.
func TestEveryControlAScreenReaderHearsHasAName(t *testing.T) {
	for _, lang := range []string{"en", "zh_CN.UTF-8"} {
		t.Run(lang, func(t *testing.T) {
			catalogue.Use(lang)
			defer catalogue.Use("en")
			ea := newServedApp(t)
			for _, tab := range []int{TabChat, TabGenerate, TabEdit, TabGallery} {
				var names []string
				onUI(ea, func() {
					ea.SelectTab(tab)
					accessibleNames(ea.win.Content(), &names)
				})
				buttons := 0
				for _, n := range names {
					role, label, _ := strings.Cut(n, ": ")
					if role == string(fyne.AccessibleRoleButton) {
						buttons++
						if strings.TrimSpace(label) == "" || strings.HasSuffix(label, ".svg") || strings.HasSuffix(label, ".png") {
							t.Errorf("tab %v: a button is named %q", tab, label)
						}
					}
				}
				if buttons < 3 {
					t.Errorf("tab %v: a screen reader is given %d buttons: %v", tab, buttons, names)
				}
			}
		})
	}
}
