package honesty

import (
	"time"

	"easel/internal/api"
	"easel/internal/catalogue"
)

// Known is what a service has shown about one trait, remembered across
// answers (the library keeps it per profile and model): whether it
// honours it, how many answers in a row showed that (how sure Easel is),
// and since when.
type Known struct {
	Trait    Trait
	Honoured bool
	// Times is how many answers in a row showed it; an answer that
	// disagrees starts the count again.
	Times       int
	First, Last time.Time
	// Asked and Got are the last answer's, for the words.
	Asked, Got string
}

// Describe is the remembered trait in a line, for Settings: what the
// service does, how sure, and since when.
func (k Known) Describe() string {
	what := map[Trait][2]string{
		Stream:       {catalogue.T("streams image answers with previews"), catalogue.T("answers stream requests without streaming (no previews)")},
		StreamedEdit: {catalogue.T("carries streamed edits"), catalogue.T("fails streamed edits")},
		Previews:     {catalogue.T("sends the previews asked"), catalogue.T("sends fewer previews than asked")},
		Count:        {catalogue.T("makes several images per request"), catalogue.F("makes one image per request (asked %s, got %s)", k.Asked, k.Got)},
		Size:         {catalogue.T("makes the size asked"), catalogue.F("changes the size (asked %s, got %s)", k.Asked, k.Got)},
		Format:       {catalogue.T("sends the format asked"), catalogue.F("changes the format (asked %s, got %s)", k.Asked, k.Got)},
		Transparency: {catalogue.T("makes transparent backgrounds"), catalogue.T("does not make transparent backgrounds")},
		Inline:       {catalogue.T("sends images inline"), catalogue.T("sends links instead of inline images")},
		Prompt:       {catalogue.T("uses prompts as written"), catalogue.T("rewrites prompts")},
		Mask:         {catalogue.T("keeps what the mask protects"), catalogue.T("repaints what the mask protects")},
		Responses:    {catalogue.T("keeps a thread's turns through the Responses API"), catalogue.F("sends a thread's turns through the Images API: %s", k.Got)},
		StreamFails:  {catalogue.T("carries streamed image requests"), catalogue.T("cannot stream images: a streamed request fails, and is billed")},
		Edits:        {catalogue.T("takes image edits"), catalogue.T("takes no image edits")},
		Served:       {catalogue.T("serves this model under this name"), catalogue.T("does not serve this model under this name")},
		MaskShape:    {catalogue.T("answers masked edits at the first image's shape"), catalogue.F("answers masked edits at another shape (asked %s, got %s)", k.Asked, k.Got)},
		References:   {catalogue.T("shows the model every reference image"), catalogue.F("drops reference images (sent %s, at most %s reached the model)", k.Asked, k.Got)},
		Credentials:  {catalogue.T("keeps the Content Credentials the model's maker signs with"), catalogue.T("drops the Content Credentials the model's maker signs with")},
		Colours:      {catalogue.T("sends colour profiles Easel reads"), catalogue.F("sends a colour profile that %s", k.Got)},
	}[k.Trait]
	if f, v, ok := k.Trait.Value(); ok {
		what = [2]string{describeValue(f, v, true), describeValue(f, v, false)}
	}
	s := what[1]
	if k.Honoured {
		s = what[0]
	}
	if s == "" {
		s = string(k.Trait)
	}
	return catalogue.N("%s — seen %d times, last %s", k.Times, s, k.Times, k.Last.Local().Format(catalogue.T("2 Jan 15:04")))
}

// Advice is how to shape the next request to what the service is known
// to do: what will not happen, said before sending, and what works
// instead. It never resends anything; the caller applies it to a request
// the user is about to send.
type Advice struct {
	// Unstream is set when the request should go without streaming
	// (the service ignores streams, or fails streamed edits); Why says so.
	Unstream bool
	// Split is set when n images should go as n requests of one, as the
	// service makes one image per request; SplitNote says so, for
	// whoever splits (each request of one no longer advises it).
	Split     bool
	SplitNote string
	// Notes are what the user should know before sending, one sentence
	// each, most important first.
	Notes []string
	// Refused are values of the request the service refused for this
	// model before: the request is not sent with them unless the user
	// says so (the window offers the nearest value, the command line
	// --retry-refused).
	Refused []Refusal
}

// Advise reads what is known of a service for a request with options o
// (an edit when edit is set, with a mask when masked).
func Advise(known []Known, o api.ImageOptions, edit, masked bool) Advice {
	var a Advice
	find := func(t Trait) (Known, bool) {
		for _, k := range known {
			if k.Trait == t && !k.Honoured {
				return k, true
			}
		}
		return Known{}, false
	}
	when := func(k Known) string { return k.Last.Local().Format(catalogue.T("2 Jan 15:04")) }
	if o.Stream {
		if k, ok := find(Stream); ok {
			a.Unstream = true
			a.Notes = append(a.Notes, catalogue.F("No previews: this service answered stream requests without streaming (last %s), so Easel asks without streaming.", when(k)))
		} else if k, ok := find(StreamFails); ok {
			a.Unstream = true
			a.Notes = append(a.Notes, catalogue.F("No previews: this gateway cannot stream images (a streamed request failed, and was billed, %s), so Easel asks without streaming.", when(k)))
		} else if k, ok := find(StreamedEdit); ok && edit {
			a.Unstream = true
			a.Notes = append(a.Notes, catalogue.F("No previews: streamed edits failed through this service (last %s), so Easel sends this edit without streaming.", when(k)))
		}
	}
	if o.N > 1 {
		if k, ok := find(Count); ok {
			a.Split = true
			a.SplitNote = catalogue.F("This service makes one image per request (asked %s, got %s, last %s): Easel sends %d requests of one image, all charged.", k.Asked, k.Got, when(k), o.N)
			a.Notes = append(a.Notes, a.SplitNote)
		}
	}
	if o.Background == "transparent" {
		if k, ok := find(Transparency); ok {
			a.Notes = append(a.Notes, catalogue.F("This model did not make a transparent background last time (%s): expect an opaque image.", when(k)))
		}
	}
	if edit {
		if k, ok := find(Edits); ok {
			a.Notes = append(a.Notes, catalogue.F("This gateway takes no image edits (last tried %s): use a profile on another provider for Edit.", when(k)))
		}
		if k, ok := find(References); ok {
			a.Notes = append(a.Notes, catalogue.F("This service showed the model only the first of several reference images last time (%s): prompts that say \"the second image\" may not work.", when(k)))
		}
	}
	if edit && masked {
		if k, ok := find(Mask); ok {
			a.Notes = append(a.Notes, catalogue.F("This service repainted the area the mask protects last time (%s): keep the unmasked area to put it back.", when(k)))
		}
	}
	// A rewritten prompt changes nothing Easel sends: the answer's own
	// sentence says it, with the prompt used. Refusals come last, so the
	// first note stays the one that changed the request.
	a.Refused = refusals(known, o)
	for _, r := range a.Refused {
		a.Notes = append(a.Notes, r.Sentence(o.Model))
	}
	return a
}
