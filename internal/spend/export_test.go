package spend

// Total is the bar's height.
func (b Bar) Total() float64 {
	t := 0.0
	for _, p := range b.Parts {
		t += p.Amount
	}
	return t
}
