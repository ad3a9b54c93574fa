package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"easel/internal/catalogue"
	"easel/internal/pricing"
)

// FileVersion is the profiles file's format version, written in every
// file. A file without one was written before versions and reads as
// version 0: its fields are the same, so it is upgraded by being read and
// written, never moved aside. A newer file is read as far as this Easel
// understands it, and what it does not understand is written back as it
// was.
const FileVersion = 1

// ProblemsError lists what Load could not take from an otherwise readable
// file: each problem cost one value or one profile, never the file, and a
// profile that could not be used is written back unchanged.
type ProblemsError struct {
	Path     string
	Problems []string
}

func (e *ProblemsError) Error() string {
	return catalogue.F("the profiles file %s has %s Easel could not use: %s", e.Path, plural(len(e.Problems), "value", "values"), strings.Join(e.Problems, "; "))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// decodeFile reads a profiles file tolerantly: unknown fields are kept
// for the next write, a value of the wrong type or out of range costs that
// value, a profile without an id, a name or a usable base URL (or
// repeating another's) is set aside whole and written back as it was. Only
// a file that is not a JSON object at all is an error.
func decodeFile(data []byte) (File, []string, error) {
	var f File
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return f, nil, err
	}
	var problems []string
	for k, v := range top {
		if k == "profiles" {
			var list []json.RawMessage
			if err := json.Unmarshal(v, &list); err != nil {
				return File{}, nil, fmt.Errorf(catalogue.T("profiles is not a list: %w"), err)
			}
			problems = append(problems, f.decodeProfiles(list)...)
			continue
		}
		known, problem := f.decodeSetting(k, v)
		if problem != "" {
			problems = append(problems, problem)
		}
		if !known {
			if f.extra == nil {
				f.extra = map[string]json.RawMessage{}
			}
			f.extra[k] = v
		}
	}
	return f, problems, nil
}

// decodeSetting reads the file-wide value k, when it is one Easel knows
// (known), and says what is wrong with it ("" when nothing).
func (f *File) decodeSetting(k string, v json.RawMessage) (known bool, problem string) {
	switch k {
	case "version":
		if err := json.Unmarshal(v, &f.Version); err != nil {
			return true, catalogue.F("version %s is not a number", v)
		}
	case "active":
		if err := json.Unmarshal(v, &f.Active); err != nil {
			return true, catalogue.F("the active profile %s is not a name", v)
		}
	case "language":
		if err := json.Unmarshal(v, &f.Language); err != nil {
			return true, catalogue.F("the language %s is not a language tag; the system's is used", v)
		}
	case "drift_limit":
		if err := json.Unmarshal(v, &f.DriftLimit); err != nil || f.DriftLimit < 0 || f.DriftLimit > 1 {
			f.DriftLimit = 0
			return true, catalogue.F("the drift limit %s is not a share from 0 to 1; the default is used", v)
		}
	default:
		return false, ""
	}
	return true, ""
}

func (f *File) decodeProfiles(list []json.RawMessage) []string {
	var problems []string
	ids, names := map[string]bool{}, map[string]bool{}
	for i, raw := range list {
		p, bad := decodeProfile(raw)
		label := p.Name
		if label == "" {
			label = fmt.Sprintf("number %d", i+1)
		}
		problems = append(problems, prefixed("profile "+quoteName(label)+": ", bad)...)
		var reason string
		switch {
		case p.ID == "" || ids[p.ID]:
			reason = catalogue.T("its id is missing or repeated")
		case strings.TrimSpace(p.Name) == "":
			reason = catalogue.T("it has no name")
		case names[strings.ToLower(p.Name)]:
			reason = catalogue.T("another profile has its name")
		case CheckBaseURL(p.BaseURL) != nil:
			reason = catalogue.F("its base URL %q is not an http(s) address", p.BaseURL)
		}
		if reason != "" {
			problems = append(problems, catalogue.F("profile %s was set aside, as %s (it stays in the file as it is)", quoteName(label), reason))
			f.unusable = append(f.unusable, raw)
			continue
		}
		if p.TimeoutSeconds < 0 {
			problems = append(problems, catalogue.F("profile %s: the request time-out %d s is negative; the default is used", quoteName(p.Name), p.TimeoutSeconds))
			p.TimeoutSeconds = 0
		}
		if p.MaxJobs < 0 || p.MaxJobs > MaxJobsLimit {
			problems = append(problems, catalogue.F("profile %s: jobs at once %d is outside 1–%d; the default, 3, is used", quoteName(p.Name), p.MaxJobs, MaxJobsLimit))
			p.MaxJobs = 0
		}
		ids[p.ID], names[strings.ToLower(p.Name)] = true, true
		f.Profiles = append(f.Profiles, p)
	}
	return problems
}

func quoteName(s string) string { return `"` + s + `"` }

func prefixed(prefix string, list []string) []string {
	for i := range list {
		list[i] = prefix + list[i]
	}
	return list
}

// profileFields maps each JSON key of Profile to its field index.
var profileFields = sync.OnceValue(func() map[string]int {
	m := map[string]int{}
	t := reflect.TypeFor[Profile]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			m[name] = i
		}
	}
	return m
})

// decodeProfile reads one profile key by key: a value of the wrong type
// costs that key, an unknown key is kept for the next write.
func decodeProfile(raw json.RawMessage) (Profile, []string) {
	var p Profile
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return p, []string{"it is not an object"}
	}
	var problems []string
	v := reflect.ValueOf(&p).Elem()
	for k, val := range fields {
		i, known := profileFields()[k]
		if !known {
			if p.extra == nil {
				p.extra = map[string]json.RawMessage{}
			}
			p.extra[k] = val
			continue
		}
		target := reflect.New(v.Field(i).Type())
		dec := json.NewDecoder(bytes.NewReader(val))
		if err := dec.Decode(target.Interface()); err != nil {
			problems = append(problems, catalogue.F("%s %s cannot be read (%v); it was skipped", k, shortJSON(val), err))
			continue
		}
		v.Field(i).Set(target.Elem())
	}
	// Prices out of their bounds (a hand-edited file) are not used: the
	// list prices stand in, and the file is left as it is.
	if err := p.Prices.Check(); err != nil {
		problems = append(problems, catalogue.F("prices: %v; the list prices are used instead", err))
		p.Prices = pricing.Table{}
	}
	return p, problems
}

func shortJSON(raw json.RawMessage) string {
	s := string(raw)
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40]) + "…"
	}
	return s
}

// MarshalJSON writes a profile with the fields this Easel knows and, as
// they were, those it does not (a newer Easel's).
func (p Profile) MarshalJSON() ([]byte, error) {
	type plain Profile
	known, err := json.Marshal(plain(p))
	if err != nil || len(p.extra) == 0 {
		return known, err
	}
	return mergeExtra(known, p.extra)
}

// MarshalJSON writes the file with its version, the fields this Easel
// knows, those it does not, and the profiles it could not use, unchanged.
func (f File) MarshalJSON() ([]byte, error) {
	out := map[string]any{"version": max(f.Version, FileVersion), "profiles": f.Profiles}
	if f.Active != "" {
		out["active"] = f.Active
	}
	if f.Language != "" {
		out["language"] = f.Language
	}
	if f.DriftLimit > 0 {
		out["drift_limit"] = f.DriftLimit
	}
	list := make([]any, 0, len(f.Profiles)+len(f.unusable))
	for _, p := range f.Profiles {
		list = append(list, p)
	}
	for _, raw := range f.unusable {
		list = append(list, raw)
	}
	out["profiles"] = list
	for k, v := range f.extra {
		if _, ok := out[k]; !ok {
			out[k] = v
		}
	}
	return json.Marshal(out)
}

// mergeExtra adds extra's keys to the JSON object known, keeping known's
// values where both have one.
func mergeExtra(known []byte, extra map[string]json.RawMessage) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(known, &m); err != nil {
		return nil, err
	}
	for k, v := range extra {
		if _, ok := m[k]; !ok {
			m[k] = v
		}
	}
	return json.Marshal(m)
}
