package pricing

import "easel/internal/api"

// Images estimates an image request at list prices in dollars.
func Images(o api.ImageOptions, promptChars, inputs int, highFidelity bool) Estimate {
	return Table{}.Images(o, promptChars, inputs, highFidelity)
}
