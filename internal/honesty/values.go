package honesty

import (
	"regexp"
	"strings"
	"time"

	"easel/internal/api"
	"easel/internal/capability"
	"easel/internal/catalogue"
)

// What a model takes is its capability sheet's, refined by what the
// service answers: a value the sheet does not list is sent, and the
// answer is remembered per profile, key and model as a trait of its own
// ("value:quality=xhigh"), refused or taken. A refusal is said before the
// next send with the nearest value the model takes; a value that worked
// once clears it (services change).

const valuePrefix = "value:"

// ValueTrait is the trait of one value of one option.
func ValueTrait(field, value string) Trait { return Trait(valuePrefix + field + "=" + value) }

// Value is the option and value a value trait is about; ok is false for
// the other traits.
func (t Trait) Value() (field, value string, ok bool) {
	rest, ok := strings.CutPrefix(string(t), valuePrefix)
	if !ok {
		return "", "", false
	}
	field, value, ok = strings.Cut(rest, "=")
	return field, value, ok
}

// valuesTaken are checks of the values an answered request sent that
// the model's sheet does not list as taken: the service took them.
func valuesTaken(o api.ImageOptions) []Check {
	s, known := capability.Lookup(o.Model)
	var out []Check
	for _, op := range o.Options() {
		if known {
			if v, _ := s.Judge(op.Field, op.Value, time.Now()); v == capability.Takes {
				continue
			}
		}
		out = append(out, Check{Trait: ValueTrait(op.Field, op.Value), Honoured: true, Asked: op.Value, Got: op.Value})
	}
	return out
}

// quotedValue finds the value a refusal quotes: 'xhigh', "xhigh", ‘xhigh’.
var quotedValue = regexp.MustCompile(`['"‘“]([A-Za-z0-9_.-]+)['"’”]`)

// valueRefused reads a 400 that refuses one option's value: by the
// param the service names, else by the option's name and its value in
// the message ("does not support quality 'xhigh'").
func valueRefused(a Asked, e *api.Error) (Check, bool) {
	if e.Status != 0 && e.Status != 400 && e.Status != 422 {
		return Check{}, false
	}
	if e.Status == 0 && e.Kind == api.KindServer {
		// An error inside a 200 that the service failed on its side,
		// said as one to try again: not a refusal to remember.
		return Check{}, false
	}
	msg := strings.ToLower(e.Message)
	for _, op := range a.Options.Options() {
		named := e.Param == op.Field
		if !named && e.Param == "" {
			words := strings.ReplaceAll(op.Field, "_", " ")
			for _, m := range quotedValue.FindAllStringSubmatch(e.Message, -1) {
				if m[1] == op.Value && (strings.Contains(msg, op.Field) || strings.Contains(msg, words)) {
					named = true
				}
			}
		}
		if named {
			return Check{Trait: ValueTrait(op.Field, op.Value), Honoured: false, Asked: op.Value, Got: "refused"}, true
		}
	}
	return Check{}, false
}

// Refusal is a value the service refused for this model before: the
// next request with it is stopped, with the nearest value it takes.
type Refusal struct {
	Field, Value string
	// Nearest is the value the model's sheet offers closest to Value,
	// "" when the sheet offers none.
	Nearest string
	When    time.Time
}

// Sentence says the refusal and the way out.
func (r Refusal) Sentence(model string) string {
	when := r.When.Local().Format(catalogue.T("2 Jan 15:04"))
	field := strings.ReplaceAll(r.Field, "_", " ")
	if r.Nearest == "" {
		return catalogue.F("The service refused the %s %q for %s (last %s): choose another value.", field, r.Value, model, when)
	}
	return catalogue.F("The service refused the %s %q for %s (last %s): use %q, the nearest value the model takes.", field, r.Value, model, when, r.Nearest)
}

// refusals are the values of o the service refused before, by known.
func refusals(known []Known, o api.ImageOptions) []Refusal {
	s, _ := capability.Lookup(o.Model)
	var out []Refusal
	for _, op := range o.Options() {
		for _, k := range known {
			if k.Trait == ValueTrait(op.Field, op.Value) && !k.Honoured {
				out = append(out, Refusal{Field: op.Field, Value: op.Value, Nearest: s.Nearest(op.Field, op.Value, time.Now()), When: k.Last})
			}
		}
	}
	return out
}

// describeValue is Describe for a value trait.
func describeValue(field, value string, honoured bool) string {
	field = strings.ReplaceAll(field, "_", " ")
	if honoured {
		return catalogue.F("takes the %s %q", field, value)
	}
	return catalogue.F("refuses the %s %q", field, value)
}
