package api

import (
	"errors"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"easel/internal/catalogue"
)

// Kind says what went wrong in terms a designer can act on. The UI and the
// command line choose their words and actions by Kind, never by parsing a
// message.
type Kind int

// The kinds of failure. Classification uses the HTTP status and the
// service's error code first and the message text last, because gateways
// reword messages (and translate them) but keep codes.
const (
	KindUnknown Kind = iota
	KindAuth
	KindUnknownModel
	KindNoAccess
	KindInvalidSize
	KindInvalidImage
	KindInvalidRequest
	KindInsufficientBalance
	KindRateLimited
	KindTimeout
	KindServer
	KindNetwork
	KindCancelled
	// KindBadResponse is an answer Easel cannot use: truncated JSON, bad
	// base64, bytes that are not an image, a stream without its result.
	KindBadResponse
	// KindNoImages is a chat model that takes no images: the message can
	// go again without them, or to a model that sees.
	KindNoImages
	// KindCutOff is a reply whose stream ended without the model saying
	// it had finished: what arrived is kept, but it may be missing its
	// end (a gateway whose upstream broke closes the stream as if whole).
	KindCutOff
	// KindWrongAddress is a service that has no API at the address asked
	// (404 "Invalid URL"): the base URL is wrong, whatever the model.
	KindWrongAddress
	// KindCannotKeep is a request not sent because its images could not
	// be kept (a full or read-only disk): found before paying.
	KindCannotKeep
	// KindLast is the last kind, for a loop over them all.
	KindLast = KindCannotKeep
)

// kindCodes are the kinds' stable names, for what is kept on disk (a
// chat reply's failure): String is in the language spoken, which may
// change between the day a row was written and the day it is read.
var kindCodes = map[Kind]string{
	KindUnknown: "unknown", KindAuth: "auth", KindUnknownModel: "unknown_model", KindNoAccess: "no_access",
	KindInvalidSize: "invalid_size", KindInvalidImage: "invalid_image", KindInvalidRequest: "invalid_request",
	KindInsufficientBalance: "insufficient_balance", KindRateLimited: "rate_limited", KindTimeout: "timeout",
	KindServer: "server", KindNetwork: "network", KindCancelled: "cancelled", KindBadResponse: "bad_response",
	KindNoImages: "no_images", KindCutOff: "cut_off", KindWrongAddress: "wrong_address",
	KindCannotKeep: "cannot_keep",
}

// Code is the kind's stable name, the same in every language.
func (k Kind) Code() string { return kindCodes[k] }

// KindOf reads a kind kept on disk: its Code, or, for what was kept
// before codes, its words in the language spoken now.
func KindOf(kept string) (Kind, bool) {
	for k := KindUnknown; k <= KindLast; k++ {
		if kept == k.Code() || kept == k.String() {
			return k, true
		}
	}
	return KindUnknown, false
}

// Text is the failure for a person in one line: the service's words and
// Easel's advice, or whichever there is.
func (e *Error) Text() string {
	switch {
	case e.Message == "":
		return e.Hint
	case e.Hint != "":
		return e.Message + " — " + e.Hint
	}
	return e.Message
}

// String is the kind in a few words, as the command line prints it and
// a card's title reads: what happened, not the protocol's jargon
// ("auth", "network"), in the language spoken (looked up when asked, as
// the language is chosen after packages initialise).
func (k Kind) String() string {
	switch k {
	case KindUnknown:
		return catalogue.T("request failed")
	case KindAuth:
		return catalogue.T("key refused")
	case KindUnknownModel:
		return catalogue.T("unknown model")
	case KindNoAccess:
		return catalogue.T("no access to the model")
	case KindInvalidSize:
		return catalogue.T("size not accepted")
	case KindInvalidImage:
		return catalogue.T("image not accepted")
	case KindInvalidRequest:
		return catalogue.T("request not accepted")
	case KindInsufficientBalance:
		return catalogue.T("insufficient balance")
	case KindRateLimited:
		return catalogue.T("rate limited")
	case KindTimeout:
		return catalogue.T("timed out")
	case KindServer:
		return catalogue.T("service failed")
	case KindNetwork:
		return catalogue.T("connection failed")
	case KindCancelled:
		return catalogue.T("cancelled")
	case KindBadResponse:
		return catalogue.T("unusable answer")
	case KindNoImages:
		return catalogue.T("the model takes no images")
	case KindCutOff:
		return catalogue.T("reply may be cut off")
	case KindWrongAddress:
		return catalogue.T("no API at this address")
	case KindCannotKeep:
		return catalogue.T("not sent: the images could not be kept")
	}
	return ""
}

// timeoutHint is the hint for a time-out that fits the request: turning
// streaming on helps only an unstreamed image.
func timeoutHint(what string, streamed bool) string {
	switch {
	case what == "models":
		return catalogue.T("The service did not answer in time: check the base URL and your connection, then try again.")
	case what == "chat":
		return catalogue.T("The reply took too long: try again, ask for a shorter answer, or pick a faster model.")
	case streamed:
		return catalogue.T("The service stopped sending for too long: try again, or lower the size, quality or number of images.")
	}
	return catalogue.T("The service took too long: turn on streaming, or lower the size, quality or number of images.")
}

// fitTimeout gives a time-out the hint that fits its request.
func fitTimeout(err error, what string, streamed bool) {
	var e *Error
	if errors.As(err, &e) && e.Kind == KindTimeout && e.Status != statusProxyTimeout && !strings.HasPrefix(e.Message, errIdle.Error()) {
		e.Hint = timeoutHint(what, streamed)
	}
}

// fitTooLong gives an answer that was too long the hint that fits its
// request: fewer or smaller images help only images.
func fitTooLong(err error, what string) {
	var e *Error
	var long *TooLongError
	if !errors.As(err, &e) || !errors.As(e.Err, &long) {
		return
	}
	switch what {
	case "chat":
		e.Hint = catalogue.T("The service sent far more than a reply holds: check that the base URL points at an OpenAI-compatible API, or ask for a shorter reply.")
	case "models":
		e.Hint = catalogue.T("The service sent far more than a model list holds: check that the base URL points at an OpenAI-compatible API.")
	}
}

// Title is the kind as a heading, for a job card or a notification: the
// same words as String, capitalised.
// Title is what a card's title reads for e: the kind's, unless what the
// service said narrows it, so a title never contradicts the hint under
// it ("Unknown model" over "your group does not offer it").
func (e *Error) Title() string {
	switch {
	case e.title != "":
		return e.title
	case e.Kind == KindUnknownModel && e.Group != "":
		return catalogue.F("Not offered to the group %s", e.Group)
	}
	return e.Kind.Title()
}

func (k Kind) Title() string {
	s := k.String()
	r, size := utf8.DecodeRuneInString(s)
	if size == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}

// Error is every failure of this package: one type, so callers branch on
// Kind and show Hint.
type Error struct {
	Kind Kind
	// title, when a gateway's own words say more than the kind (a key's
	// limit, not the account's balance), is what a card's title reads.
	title string
	// Status is the HTTP status, 0 when nothing came back.
	Status int
	// Code, Type and Param are the service's error fields, when it sent them.
	Code  string
	Type  string
	Param string
	// Message is the service's own words (with any piece of the key removed).
	Message string
	// RequestID identifies the request to the provider's support.
	RequestID string
	// RetryAfter is how long the service asked to wait, when it said.
	RetryAfter time.Duration
	// Hint is one sentence on what to do next.
	Hint string
	// Suggestions are the closest listed model names, for KindUnknownModel.
	Suggestions []string
	// Group is the gateway's account group the answer named ("under
	// group default"), for KindUnknownModel: the model may exist, but
	// not for this key's group.
	Group string
	// Preflight marks an error found before anything was sent.
	Preflight bool
	// Reached marks a failure after the whole request was written: the
	// service has it and may carry it out (and charge) whatever Easel
	// saw of its answer.
	Reached bool
	// NotOffered marks a service that has no such endpoint at all (a
	// 501, or a gateway's no-channel answer that names no model): no
	// model or option will make it work there.
	NotOffered bool
	// Err is the underlying Go error, if any.
	Err error
}

// Error reads as "kind: message (HTTP status, code …, request …)".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Kind.String())
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	} else if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	var meta []string
	if e.Status != 0 {
		meta = append(meta, "HTTP "+strconv.Itoa(e.Status))
	}
	if e.Code != "" {
		meta = append(meta, "code "+e.Code)
	}
	if e.RequestID != "" {
		meta = append(meta, "request "+e.RequestID)
	}
	if len(meta) > 0 {
		b.WriteString(" (" + strings.Join(meta, ", ") + ")")
	}
	return b.String()
}

// Unwrap gives errors.Is and errors.As the cause.
func (e *Error) Unwrap() error { return e.Err }

// Line is the error and its hint on one line, for a status bar or stderr.
func (e *Error) Line() string {
	if e.Hint == "" {
		return e.Error()
	}
	return e.Error() + " — " + e.Hint
}

// InAnotherGroup rewords an unknown-model error once another key of the
// profile, of group other, is found to list the model exactly: the name
// is right, so no close names are offered; the key's group is the cause.
func (e *Error) InAnotherGroup(model, other string) {
	e.Suggestions = nil
	e.Hint = catalogue.F("The gateway has no channel for %q in your key's group %q, but this profile's key of group %q lists it: send with that key.", model, e.Group, other)
}

// StandardSizes are what a designer can fall back to when a custom size
// is refused: every GPT image model takes them.
var StandardSizes = []string{"1024x1024", "1536x1024", "1024x1536"}

// hintFor writes the one-line advice for an error, following the spec's
// diagnosis notes.
func hintFor(e *Error, model string) string {
	switch e.Kind {
	case KindAuth:
		return catalogue.T("The service refused the API key: check it in Settings, or create a new key in your account console.")
	case KindUnknownModel:
		h := catalogue.F("The service lists no model named %q; names must match exactly, including case, hyphens and version.", model)
		if e.Group != "" {
			h = catalogue.F("The gateway has no channel for %q in your key's group %q: either the name is not exactly as listed (case, hyphens and version count), or this group does not offer the model. Pick a model the list shows, or use a key of a group that has it.", model, e.Group)
		}
		if len(e.Suggestions) > 0 {
			h += " " + catalogue.F("Closest listed: %s.", strings.Join(MarkAll(e.Suggestions), ", "))
		}
		return h
	case KindNoAccess:
		return catalogue.F("Your key has no access to %q: pick another model, or ask the account owner to enable it for your key or group.", model)
	case KindInvalidSize:
		return catalogue.F("The service refused this size: try %s.", strings.Join(StandardSizes, ", "))
	case KindInvalidImage:
		return catalogue.T("An input image was refused: use PNG, JPEG or WebP under 50 MB; a mask must be a PNG the same size as the first image.")
	case KindInvalidRequest:
		if e.Param != "" {
			return catalogue.F("The service refused %q: change or remove it and try again.", e.Param)
		}
		return catalogue.T("The service refused the request: check the options and try again.")
	case KindInsufficientBalance:
		return catalogue.T("The account has no balance left: top it up in your provider's account console, then try again.")
	case KindRateLimited:
		if e.RetryAfter > MaxRetryAfter {
			return catalogue.T("Too many requests: the service asks to wait a very long time; try again later, or check the account's limits.")
		}
		if e.RetryAfter > 0 {
			return catalogue.F("Too many requests at once: wait %s and try again.", catalogue.Duration(e.RetryAfter))
		}
		return catalogue.T("Too many requests at once: wait a minute and try again, or run fewer jobs at the same time.")
	case KindTimeout:
		return catalogue.T("The service took too long: turn on streaming, or lower the size, quality or number of images.")
	case KindServer:
		return catalogue.T("The service failed on its side: try again in a minute; if it keeps failing, check the provider's status page.")
	case KindNetwork:
		return catalogue.T("Could not reach the service: check the base URL and your connection.")
	case KindBadResponse:
		return catalogue.T("The service sent an answer Easel cannot use: try again; if it persists, this gateway may not support the request.")
	case KindCancelled:
		return catalogue.T("Cancelled; nothing was saved from this request.")
	case KindWrongAddress:
		return wrongAddressHint("this address")
	case KindCutOff:
		return catalogue.T("The connection behind the service broke before the model finished; what arrived is kept: ask again, or ask the model to continue.")
	case KindNoImages:
		return catalogue.F("%q does not take images: send the message again without them, or pick a model that sees images (gpt-4o-mini, gpt-4.1).", model)
	}
	return catalogue.T("Try again; if it keeps failing, note the request id for the provider's support.")
}
