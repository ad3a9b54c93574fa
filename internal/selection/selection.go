// Package selection is the gallery's multiple selection, by place in the
// grid: click, Ctrl+click, Shift+click ranges, select all, and the arrow
// keys moving a cursor (Shift extending from the anchor), as file
// managers do. It keeps the order things were chosen in, because Send to
// Edit hands images over in that order ("the first", "the second"). It
// knows nothing of windows; the grid widget drives it.
package selection

// Set is a selection of places 0..n-1.
type Set struct {
	order  []int
	has    map[int]bool
	anchor int
	cursor int
	// base is the selection as the anchor was set, which a Shift range
	// adds to.
	base []int
}

// New is an empty selection, with no cursor.
func New() *Set { return &Set{has: map[int]bool{}, anchor: -1, cursor: -1} }

// Len is how many places are selected.
func (s *Set) Len() int { return len(s.order) }

// Has reports whether place i is selected.
func (s *Set) Has(i int) bool { return s.has[i] }

// Cursor is the place the keyboard is on, -1 for none.
func (s *Set) Cursor() int { return s.cursor }

// Order is the selected places in the order they were chosen.
func (s *Set) Order() []int { return append([]int(nil), s.order...) }

// Clear selects nothing (Esc), keeping the cursor.
func (s *Set) Clear() {
	s.order, s.has = nil, map[int]bool{}
}

func (s *Set) add(i int) {
	if !s.has[i] {
		s.has[i] = true
		s.order = append(s.order, i)
	}
}

func (s *Set) remove(i int) {
	if !s.has[i] {
		return
	}
	delete(s.has, i)
	for k, v := range s.order {
		if v == i {
			s.order = append(s.order[:k], s.order[k+1:]...)
			return
		}
	}
}

// Click selects place i alone (a plain click).
func (s *Set) Click(i int) {
	s.Clear()
	s.add(i)
	s.setAnchor(i)
}

// setAnchor makes i the anchor and the cursor, and remembers what is
// selected besides i for a later Shift range.
func (s *Set) setAnchor(i int) {
	s.anchor, s.cursor = i, i
	s.base = s.base[:0]
	for _, v := range s.order {
		if v != i {
			s.base = append(s.base, v)
		}
	}
}

// Toggle adds or removes place i, keeping the rest (Ctrl+click, Space).
func (s *Set) Toggle(i int) {
	if s.has[i] {
		s.remove(i)
		s.setAnchor(i)
		return
	}
	s.add(i)
	s.setAnchor(i)
}

// Extend selects the range from the anchor to place i, in that order
// (Shift+click): what was selected when the anchor was set stays, and a
// second Shift+click from the same anchor replaces the first's range.
func (s *Set) Extend(i int) {
	if s.anchor < 0 {
		s.Click(i)
		return
	}
	s.order, s.has = nil, map[int]bool{}
	for _, v := range s.base {
		s.add(v)
	}
	step := 1
	if i < s.anchor {
		step = -1
	}
	for k := s.anchor; ; k += step {
		s.add(k)
		if k == i {
			break
		}
	}
	s.cursor = i
}

// All selects every place of n (Ctrl+A), in order.
func (s *Set) All(n int) {
	s.Clear()
	for i := 0; i < n; i++ {
		s.add(i)
	}
	if s.cursor < 0 || s.cursor >= n {
		s.cursor = 0
	}
	s.anchor, s.base = 0, nil
}

// Move moves the cursor by delta places within n: alone it selects the
// place reached, with extend it selects the range from the anchor.
func (s *Set) Move(delta, n int, extend bool) {
	if n == 0 {
		return
	}
	to := s.cursor + delta
	if s.cursor < 0 {
		to = 0
	}
	to = max(0, min(n-1, to))
	if extend {
		if s.anchor < 0 {
			s.anchor = max(0, s.cursor)
		}
		s.Extend(to)
		return
	}
	s.Click(to)
}

// Reset forgets everything: a new query shows other items.
func (s *Set) Reset() {
	s.Clear()
	s.anchor, s.cursor, s.base = -1, -1, nil
}
