package api

import "errors"

// scrubber makes what the client hands back safe to show a person, a log
// or the library: the key removed however it was spelt back (Redact) and
// the text cleaned of what could make it read as something else (Clean).
// It holds the one secret it removes, so it is the client's part that
// knows it besides the transport.
type scrubber struct {
	secret string
}

// redact removes the key from text: some services echo a masked key in
// their messages, and an error text may end up in a log or a screenshot.
func (s scrubber) redact(text string) string { return Redact(text, s.secret) }

// line is text of the service's as it may be shown on one line.
func (s scrubber) line(text string) string { return Clean(s.redact(text), false) }

// short is text cleaned as the service's words are, cut to at most n
// characters: a name, not a message.
func (s scrubber) short(text string, n int) string {
	r := []rune(s.line(text))
	if len(r) > n {
		r = r[:n]
	}
	return string(r)
}

// error cleans every string of e that came from the service: the one
// place a service's words pass through on their way out.
func (s scrubber) error(e *Error) *Error {
	if e == nil {
		return nil
	}
	e.Message, e.Code, e.Type, e.Param = s.line(e.Message), s.line(e.Code), s.line(e.Type), s.line(e.Param)
	e.RequestID, e.Hint, e.Group = s.line(e.RequestID), s.line(e.Hint), s.line(e.Group)
	for i, t := range e.Suggestions {
		e.Suggestions[i] = s.line(t)
	}
	if e.Err != nil {
		// A cause whose text had to change is replaced by its cleaned
		// text, not wrapped: unwrapping must not give the key back.
		if msg := s.line(e.Err.Error()); msg != e.Err.Error() {
			e.Err = errors.New(msg)
		}
	}
	return e
}

// err cleans any error a public method returns: an *Error field by
// field, another error's text as a whole.
func (s scrubber) err(err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		s.error(e)
		return err
	}
	if msg := s.line(err.Error()); msg != err.Error() {
		return errors.New(msg)
	}
	return err
}
