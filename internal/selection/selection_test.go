package selection

import (
	"slices"
	"testing"
)

func TestClicksRangesAndKeys(t *testing.T) {
	s := New()
	s.Click(3)
	s.Toggle(7) // Ctrl+click
	s.Toggle(1)
	if got := s.Order(); !slices.Equal(got, []int{3, 7, 1}) {
		t.Fatalf("clicks: %v, want the order chosen", got)
	}
	s.Toggle(7)
	if s.Has(7) || s.Len() != 2 {
		t.Errorf("Ctrl+click again did not unselect: %v", s.Order())
	}
	// Shift+click from the last click (7, unselected) to 4: 7..4 added
	// to what was chosen, in the range's order.
	s.Extend(4)
	if got := s.Order(); !slices.Equal(got, []int{3, 1, 7, 6, 5, 4}) {
		t.Errorf("Shift+click: %v", got)
	}
	// A nearer Shift+click shrinks the range; 3 and 1 stay.
	s.Extend(6)
	if got := s.Order(); !slices.Equal(got, []int{3, 1, 7, 6}) {
		t.Errorf("Shift+click nearer: %v", got)
	}
	// Backwards.
	s.Click(6)
	s.Extend(4)
	if got := s.Order(); !slices.Equal(got, []int{6, 5, 4}) {
		t.Errorf("Shift+click backwards: %v", got)
	}
	// Arrows: move selects alone, Shift+arrow extends from the anchor.
	s.Move(1, 10, false)
	if got := s.Order(); !slices.Equal(got, []int{5}) || s.Cursor() != 5 {
		t.Errorf("Right: %v cursor %d", got, s.Cursor())
	}
	s.Move(5, 10, true) // Shift+Down on a 5-wide grid
	if got := s.Order(); !slices.Equal(got, []int{5, 6, 7, 8, 9}) || s.Cursor() != 9 {
		t.Errorf("Shift+Down past the end: %v cursor %d", got, s.Cursor())
	}
	s.Move(-100, 10, false)
	if s.Cursor() != 0 || !s.Has(0) || s.Len() != 1 {
		t.Errorf("Up past the start: cursor %d, %v", s.Cursor(), s.Order())
	}
	s.All(4)
	if got := s.Order(); !slices.Equal(got, []int{0, 1, 2, 3}) {
		t.Errorf("Ctrl+A: %v", got)
	}
	s.Clear()
	if s.Len() != 0 {
		t.Error("Esc kept a selection")
	}
	s.Reset()
	if s.Cursor() != -1 {
		t.Error("Reset kept the cursor")
	}
	s.Move(1, 3, false)
	if s.Cursor() != 0 {
		t.Errorf("the first arrow with no cursor goes to %d, want 0", s.Cursor())
	}
}
