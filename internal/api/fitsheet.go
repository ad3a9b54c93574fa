package api

import (
	"slices"
	"strings"
	"time"

	"easel/internal/capability"
	"easel/internal/catalogue"
)

// FitToSheet is o with each value its model's sheet lists other values
// for, and not this one, set to the nearest it takes, with a sentence for
// each change. A comparison board asks one set of options of several
// models, and what is "high" to gpt-image-1 is "hd" to dall-e-3: sent as
// it is, the cell would only be refused (#57). A field the sheet says
// nothing of is left as it is.
func (o ImageOptions) FitToSheet(at time.Time) (ImageOptions, []string) {
	s, ok := capability.Lookup(o.Model)
	if !ok {
		return o, nil
	}
	var said []string
	for _, f := range o.Options() {
		offers, known := s.Offers(f.Field, at)
		if !known || slices.Contains(offers, f.Value) {
			continue
		}
		near := s.Nearest(f.Field, f.Value, at)
		if near == "" || !o.set(f.Field, near) {
			continue
		}
		said = append(said, catalogue.F("%s %q sent as %q, the nearest %s takes (its sheet: %s, %s)",
			strings.ReplaceAll(f.Field, "_", " "), f.Value, near, o.Model, s.Source, s.Date))
	}
	return o, said
}

// set sets the option field (a name of Options) to value, reporting
// whether it is one of them.
func (o *ImageOptions) set(field, value string) bool {
	switch field {
	case "quality":
		o.Quality = value
	case "background":
		o.Background = value
	case "output_format":
		o.OutputFormat = value
	case "moderation":
		o.Moderation = value
	case "complexity":
		o.Complexity = value
	case "response_format":
		o.ResponseFormat = value
	default:
		return false
	}
	return true
}
