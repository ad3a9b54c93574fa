package chrome

import (
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// A spend over the cap is drawn as a warning, and a later one within it
// is drawn quietly again (issue 40, item 11).
func TestASpendOverTheCapIsDrawnAsAWarning(t *testing.T) {
	test.NewTempApp(t)
	s := NewStatusBar(nil, nil, nil, nil)
	s.ShowSpend("Today $1.50, over the cap of $1.00", true)
	if !s.Spend.Visible() || s.Spend.Importance != widget.WarningImportance {
		t.Errorf("over the cap: visible %v, importance %v", s.Spend.Visible(), s.Spend.Importance)
	}
	s.ShowSpend("Today $0.50 of $1.00", false)
	if s.Spend.Importance != widget.LowImportance {
		t.Errorf("within the cap: importance %v", s.Spend.Importance)
	}
	s.ShowSpend("", false)
	if s.Spend.Visible() {
		t.Error("no spend to show, but the button stayed")
	}
}
