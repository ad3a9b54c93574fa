// Package gateway is what Easel knows of the service in front of a key,
// so that what it says a request cost is what the gateway billed: which
// kind of gateway it is, what each kind bills when a request fails (the
// table below, the one place that says so), what the gateway counts money
// in, what a key's group pays and what the key has left, read from the
// gateway's own endpoints. It knows nothing of windows.
package gateway

import (
	"errors"
	"time"

	"easel/internal/api"
)

// Kind is which software answers at a base URL. The values are stored:
// never renamed.
type Kind string

// The kinds the billing table knows.
const (
	Unknown Kind = ""
	OpenAI  Kind = "openai"
	NewAPI  Kind = "new-api"
	OneAPI  Kind = "one-api"
	Sub2API Kind = "sub2api"
	LiteLLM Kind = "litellm"
)

// Verdict is whether a request was billed.
type Verdict int

// The verdicts, from least to most.
const (
	NotBilled Verdict = iota
	// MayBeBilled is a request the service may have carried out and
	// charged for while Easel cannot tell: it is counted at its estimate
	// until the gateway's own figures say otherwise.
	MayBeBilled
	Billed
)

// Ending is how a request ended, as the table reads it.
type Ending struct {
	// Err is the failure; nil for an answer Easel used.
	Err error
	// Cancelled: the user, a signal or a close stopped it.
	Cancelled bool
	// Arrived: previews, images or text had come when it ended.
	Arrived bool
	// Out is how long the request was out at the service.
	Out time.Duration
	// Killed: the process ended with the request out (found in the
	// journal at the next start).
	Killed bool
	// Unsent: an upload's body had not all gone out when it ended, so
	// the service never had the whole request (Out counts from the end
	// of an upload).
	Unsent bool
}

// BilledAfter is how long a request must have been out before a cancel
// counts as possibly billed: by then the service has begun and will not
// stop.
const BilledAfter = 5 * time.Second

// rule is one line of the billing table: the kinds it holds for (none:
// every kind), whether it matches an ending, the verdict, and why (its
// source), for the reader of this file.
type rule struct {
	kinds   []Kind
	match   func(Ending, *api.Error) bool
	verdict func(Ending) Verdict
	why     string
}

func always(v Verdict) func(Ending) Verdict { return func(Ending) Verdict { return v } }

func codeIs(codes ...string) func(Ending, *api.Error) bool {
	return func(_ Ending, e *api.Error) bool {
		for _, c := range codes {
			if e != nil && e.Code == c {
				return true
			}
		}
		return false
	}
}

func kindIs(kinds ...api.Kind) func(Ending, *api.Error) bool {
	return func(_ Ending, e *api.Error) bool {
		for _, k := range kinds {
			if e != nil && e.Kind == k {
				return true
			}
		}
		return false
	}
}

// table is outcomes × gateway kinds, first match wins.
var table = []rule{
	{nil, func(x Ending, _ *api.Error) bool { return x.Err == nil && !x.Cancelled && !x.Killed }, always(Billed),
		"an answer Easel used was charged"},
	{nil, func(x Ending, _ *api.Error) bool { return x.Killed }, always(MayBeBilled),
		"the process ended with the request out: the service went on with it"},
	{nil, func(_ Ending, e *api.Error) bool { return e != nil && e.Preflight }, always(NotBilled),
		"found before anything was sent"},
	{nil, func(x Ending, _ *api.Error) bool { return x.Err != nil && x.Unsent && !x.Arrived }, always(NotBilled),
		"stopped while the upload went out: the service never had the whole request"},
	{nil, kindIs(api.KindWrongAddress, api.KindCannotKeep), always(NotBilled),
		"a web page or a 404 at a wrong base URL; or stopped before sending"},
	{nil, func(_ Ending, e *api.Error) bool { var r *api.RedirectError; return e != nil && errors.As(e.Err, &r) }, always(NotBilled),
		"a redirect Easel did not follow (a loop, another host): no model saw the request"},
	{[]Kind{OneAPI}, codeIs("unmarshal_response_body_failed", "read_response_body_failed"), always(Billed),
		"one-api bills as soon as the upstream answers 200, then fails reading it (relay/controller/image.go)"},
	{[]Kind{NewAPI}, codeIs("bad_response_body", "read_response_body_failed"), always(NotBilled),
		"new-api fails the request before it settles the quota: the user is not charged (the operator is)"},
	{nil, kindIs(api.KindAuth, api.KindUnknownModel, api.KindNoAccess, api.KindInvalidSize, api.KindInvalidImage,
		api.KindInvalidRequest, api.KindInsufficientBalance, api.KindRateLimited, api.KindNoImages), always(NotBilled),
		"refused before the model ran"},
	{nil, func(x Ending, e *api.Error) bool { return x.Cancelled || e != nil && e.Kind == api.KindCancelled }, cancelled,
		"a cancel: the service finishes what it began, and bills it"},
	{nil, kindIs(api.KindTimeout, api.KindCutOff, api.KindBadResponse), always(MayBeBilled),
		"it failed after the service began"},
	{nil, func(_ Ending, e *api.Error) bool { return e != nil && e.Kind == api.KindNetwork && e.Reached }, always(MayBeBilled),
		"the whole request was sent, then the connection broke: the service may have gone on with it"},
}

// Judge is whether a request through a gateway of kind k that ended as
// x was billed.
func Judge(k Kind, x Ending) Verdict {
	var e *api.Error
	if x.Err != nil && !errors.As(x.Err, &e) {
		e = nil
	}
	for _, r := range table {
		if !applies(r.kinds, k) || !r.match(x, e) {
			continue
		}
		return r.verdict(x)
	}
	if x.Arrived {
		return MayBeBilled
	}
	return NotBilled
}

// cancelled is a cancel's verdict: once something arrived, or the
// service has been at work for BilledAfter, it will finish and bill.
func cancelled(x Ending) Verdict {
	if x.Arrived || x.Out >= BilledAfter {
		return MayBeBilled
	}
	return NotBilled
}

func applies(kinds []Kind, k Kind) bool {
	if len(kinds) == 0 {
		return true
	}
	for _, c := range kinds {
		if c == k {
			return true
		}
	}
	return false
}

// BillsAsked reports whether the gateway bills the n images asked of
// model whatever came back: one-api prices every image request per
// picture × n before it is sent, and settles nothing after; new-api
// does so for a model it prices per call (relay's price-per-call path
// takes the request's n).
func (f Facts) BillsAsked(model string) bool {
	if f.Kind == OneAPI {
		return true
	}
	if f.Kind != NewAPI || f.Pricing == nil {
		return false
	}
	mp, ok := f.Pricing.Models[model]
	return ok && mp.PerCall
}
