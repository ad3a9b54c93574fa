package cli

import (
	"strings"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/honesty"
	"easel/internal/library"
)

// memory is what the gallery's library remembers of each service, as the
// window uses it: what a profile's model honours shapes the request
// (no stream where streams were ignored), and what an answer shows is
// learnt; the ledger and the journal are there too. A library that
// cannot be opened, or is damaged, stops a request that would be charged
// before it is sent (canKeep): its cost could not be written down.
type memory struct {
	lib *library.Library
	// err is why the gallery's library could not be opened: a request
	// that would be charged is not sent then (canKeep), as its cost
	// could not be written down nor the budget checked.
	err error
	// retryRefused sends a value the service refused for the model
	// before (--retry-refused), instead of stopping.
	retryRefused bool
}

func openMemory(env Env) memory {
	if env.Library == "" {
		return memory{}
	}
	lib, err := library.OpenWithoutRepair(env.Library)
	if err != nil {
		return memory{err: err}
	}
	return memory{lib: lib}
}

func (m memory) close() {
	if m.lib != nil {
		_ = m.lib.Close()
	}
}

// refused stops a request whose values the service refused for its
// model before, saying which and the nearest value it takes; nil when
// there are none or --retry-refused was given.
func (m memory) refused(model string, a honesty.Advice) error {
	if len(a.Refused) == 0 || m.retryRefused {
		return nil
	}
	r := a.Refused[0]
	hint := catalogue.F("Choose another %s, or add --retry-refused to send it again.", strings.ReplaceAll(r.Field, "_", " "))
	if r.Nearest != "" {
		hint = catalogue.F("Use --%s %s, or add --retry-refused to send it again.", flagOf(r.Field), r.Nearest)
	}
	return &api.Error{Kind: api.KindInvalidRequest, Param: r.Field, Preflight: true, Message: r.Sentence(model), Hint: hint}
}

// flagOf is the command line's flag for a wire option.
func flagOf(field string) string {
	if field == "output_format" {
		return "format"
	}
	return strings.ReplaceAll(field, "_", "-")
}
