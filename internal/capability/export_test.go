package capability

import "slices"

// Families is every sheet in the book, for Settings and the tests.
func (b Book) Families() []Sheet { return slices.Clone(b.sheets) }
