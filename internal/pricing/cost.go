package pricing

import "easel/internal/api"

// Billed is what an answer was: the model, the usage it reported, and
// for images how many pictures of what size and quality came back.
type Billed struct {
	Model string
	Usage *api.Usage
	// Images, Size and Quality describe an image answer; Images is 0
	// for chat.
	Images        int
	Size, Quality string
}

// Cost is what an answer cost in the table's currency: from the usage it
// reports for token-priced models, per picture for those priced by
// picture. ok is false when no price is set or the service reported
// nothing to price by (the estimate is then the best figure).
func (t Table) Cost(b Billed) (float64, bool) {
	p, _, ok := t.Lookup(b.Model)
	if !ok || b.Usage != nil && b.Usage.Implausible {
		return 0, false
	}
	if b.Images > 0 {
		if each, ok := p.PerImage[b.Size][b.Quality]; ok {
			in := 0.0
			if b.Usage != nil {
				in = (float64(b.Usage.TextTokens)*p.TextIn + float64(b.Usage.ImageTokens)*p.ImageIn) / 1e6
			}
			return each*float64(b.Images) + in, true
		}
	}
	u := b.Usage
	if u == nil || (u.InputTokens == 0 && u.OutputTokens == 0) {
		return 0, false
	}
	text, img := u.TextTokens, u.ImageTokens
	if text == 0 && img == 0 {
		text = u.InputTokens
	}
	out := float64(u.OutputTokens) * p.TextOut
	if b.Images > 0 && p.ImageOut > 0 {
		out = float64(u.OutputTokens) * p.ImageOut
	}
	return (float64(text)*p.TextIn + float64(img)*p.ImageIn + out) / 1e6, true
}
