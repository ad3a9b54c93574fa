package board

// batchOf is a batch board's template side.
func batchOf(b *Board) *batchView { return b.view }
