package api

import (
	"net/http"
	"regexp"
	"strings"
	"time"

	"easel/internal/catalogue"
)

// The gateways' own error vocabulary. Most of Easel's users reach the
// models through a reseller's gateway (new-api, one-api, sub2api,
// LiteLLM) whose errors are its own words, often Chinese, and whose codes
// mean something narrower than the status: a 503 "model_not_found"
// "under group default" is a group without that model, not a typo; a
// "pre_consume_token_quota_failed" is this key's own limit, not an empty
// account. Each phrase below is what a gateway really sends (the source
// is named beside it); the advice is what the user can do about it. The
// service's own words stay in Message, shown as they came.

// phrase is one gateway answer Easel recognises: a code, a type or words
// in the message, any of which is enough.
type phrase struct {
	codes, types, words []string
	kind                Kind
	// hint writes the advice; e is the error as classified so far.
	hint func(e *Error, model string) string
	// title, when set, is the card's title: narrower than the kind's.
	title func() string
}

var gatewayPhrases = []phrase{
	{ // new-api relay/helper/price.go: a model the operator has not priced.
		codes: []string{"model_price_error"},
		words: []string{"倍率或价格未配置", "ratio or price not set"},
		kind:  KindNoAccess,
		hint: func(_ *Error, model string) string {
			return catalogue.F("The gateway has no price set for %q, so it will not run it (nothing was charged): pick another model, or ask the gateway's operator to price this one.", model)
		},
	},
	{ // new-api service/quota.go, one-api: this key's own spending limit,
		// apart from the account's balance.
		codes: []string{"pre_consume_token_quota_failed"},
		// one-api's model/token.go names the key: "令牌 studio（#12）额度已用尽".
		words: []string{"token quota is not enough", "令牌额度不足", "额度已用尽", "token quota exhausted"},
		kind:  KindInsufficientBalance,
		hint: func(*Error, string) string {
			return catalogue.T("This key's own spending limit is used up (the account itself may still have balance): raise the key's limit in the gateway's console, or use another key.")
		},
		title: func() string { return catalogue.T("This key's limit is used up") },
	},
	{ // one-api middleware/auth.go, new-api: the key's own list of models
		// leaves this one out (403, whatever the group offers).
		words: []string{"该令牌无权使用模型", "token has no access to model"},
		kind:  KindNoAccess,
		hint: func(_ *Error, model string) string {
			return catalogue.F("This key may not use %q (the gateway limits which models each key takes): pick a model the key lists, or allow this one for the key in the gateway's console.", model)
		},
	},
	{ // one-api/new-api token checks: a key that expired or was switched off.
		words: []string{"该令牌已过期", "token has expired", "该令牌状态不可用", "令牌已被禁用", "token is disabled"},
		kind:  KindAuth,
		hint: func(*Error, string) string {
			return catalogue.T("The gateway says this key has expired or was switched off: make a new key in the gateway's console and put it in Settings.")
		},
	},
	{ // LiteLLM proxy: a key's or team's budget (proxy/_types.py BudgetExceededError).
		types: []string{"budget_exceeded"},
		words: []string{"budget has been exceeded", "budgetexceedederror"},
		kind:  KindInsufficientBalance,
		hint: func(*Error, string) string {
			return catalogue.T("The gateway's budget for this key or team is spent: ask its operator to raise it, or wait for the budget to reset.")
		},
	},
	{ // LiteLLM proxy: key_model_access_denied, team_model_access_denied.
		types: []string{"key_model_access_denied", "team_model_access_denied"},
		words: []string{"key not allowed to access model", "team not allowed to access model"},
		kind:  KindNoAccess,
		hint: func(_ *Error, model string) string {
			return catalogue.F("This gateway key may not use %q: pick a model the key lists, or ask the gateway's operator to allow it.", model)
		},
	},
	{ // new-api relay: the provider answered (and billed) but the gateway
		// could not read it, as with a streamed edit through older new-api
		// ("invalid character 'e' looking for beginning of value").
		codes: []string{"bad_response_body", "read_response_body_failed"},
		kind:  KindBadResponse,
		hint: func(*Error, string) string {
			return catalogue.T("The gateway could not read the provider's answer after the provider had done the work, so it may have been charged: sending it the same way will fail the same way. If it was streamed, send it without streaming.")
		},
	},
	{ // sub2api and similar subscription relays: no upstream account free.
		words: []string{"no available accounts", "no available account", "暂无可用账号", "没有可用账号"},
		kind:  KindServer,
		hint: func(*Error, string) string {
			return catalogue.T("The gateway has no free upstream account for this request right now: try again in a few minutes; nothing was charged.")
		},
	},
}

// vocabulary refines a classified gateway error by its own words: it
// returns true when a phrase matched and e's Kind and Hint were set.
func vocabulary(e *Error, model string) bool {
	code, typ, msg := strings.ToLower(e.Code), strings.ToLower(e.Type), strings.ToLower(e.Message)
	for _, p := range gatewayPhrases {
		if matchesAny(code, p.codes, true) || matchesAny(typ, p.types, true) || matchesAny(msg, p.words, false) {
			e.Kind = p.kind
			e.Hint = p.hint(e, model)
			if p.title != nil {
				e.title = p.title()
			}
			return true
		}
	}
	if g, ok := groupOf(e.Message); ok && e.Kind == KindUnknownModel {
		e.Group = g
		e.Hint = hintFor(e, model)
	}
	if e.Status >= 500 && isBareWord(e.Message, e.Type) {
		// new-api relays an upstream failure it could not read (an HTML
		// 502) as the bare word "openai_error": say what that means.
		e.Kind = KindServer
		e.Hint = catalogue.F("The provider behind the gateway failed (HTTP %d) and the gateway passed on only the word %q: try again in a minute; if it keeps failing, tell the gateway's operator.", e.Status, e.Message)
		return true
	}
	if e.Kind == KindRateLimited && e.RetryAfter == 0 {
		// Gateways drop Retry-After but pass the provider's message on,
		// which still says how long ("Please try again in 30s").
		e.RetryAfter = waitInMessage(e.Message)
		e.Hint = hintFor(e, model)
	}
	return false
}

func matchesAny(s string, list []string, whole bool) bool {
	if s == "" {
		return false
	}
	for _, w := range list {
		if whole && s == w || !whole && strings.Contains(s, strings.ToLower(w)) {
			return true
		}
	}
	return false
}

// isBareWord reports a message that is only an error type's name
// ("openai_error", "bad_response_status_code"): no sentence at all.
func isBareWord(msg, typ string) bool {
	msg = strings.TrimSpace(msg)
	if msg == "" || strings.ContainsAny(msg, " \t") {
		return false
	}
	return msg == typ || strings.HasSuffix(msg, "_error") || strings.Contains(msg, "_")
}

// groupPatterns find the account group a gateway names when it has no
// channel for a model: new-api's "No available channel for model X under
// group default (distributor)", one-api's "当前分组 default 下对于模型 X
// 无可用渠道".
var groupPatterns = []*regexp.Regexp{
	regexp.MustCompile(`under group ([^\s()]+)`),
	regexp.MustCompile(`当前分组\s*(\S+?)\s*下`),
	regexp.MustCompile(`分组\s*(\S+?)\s*下`),
}

// groupOf is the group a no-channel message names.
func groupOf(msg string) (string, bool) {
	for _, re := range groupPatterns {
		if m := re.FindStringSubmatch(msg); m != nil {
			return strings.Trim(m[1], `"'“”`), true
		}
	}
	return "", false
}

// waitPattern finds "try again in 30s", "in 1m30s", "in 20ms", "in 1.5
// seconds", as OpenAI words a rate limit.
var waitPattern = regexp.MustCompile(`(?i)try again in ((?:\d+(?:\.\d+)?(?:ms|h|m|s))+|\d+(?:\.\d+)? ?(?:seconds?|secs?))`)

// waitInMessage is the wait a rate-limit message asks for, 0 when it
// names none.
func waitInMessage(msg string) time.Duration {
	m := waitPattern.FindStringSubmatch(msg)
	if m == nil {
		return 0
	}
	s := strings.ToLower(m[1])
	for _, long := range []string{" seconds", " second", "seconds", "second", " secs", " sec", "secs", "sec"} {
		if strings.HasSuffix(s, long) {
			s = strings.TrimSuffix(s, long) + "s"
			break
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0
	}
	return d
}

// maskedKeyPattern finds the masked key OpenAI quotes when it refuses
// one: "Incorrect API key provided: sk-proj-****…abcd." (LiteLLM and
// new-api pass the provider's message on as it is).
var maskedKeyPattern = regexp.MustCompile(`(?i)incorrect api key provided:?\s*([A-Za-z0-9_\-]*\*+[A-Za-z0-9_\-]*)`)

// upstreamKey reports whether a refused-key answer is about a key that
// is not the user's: a gateway's own key to its provider, passed on. The
// provider quotes the key it got, masked; when what shows of it is not
// the user's key, the user's key is not what was refused.
func upstreamKey(msg, ours string) (quoted string, ok bool) {
	m := maskedKeyPattern.FindStringSubmatch(msg)
	if m == nil || ours == "" {
		return "", false
	}
	quoted = m[1]
	head, tail := quoted[:strings.IndexByte(quoted, '*')], quoted[strings.LastIndexByte(quoted, '*')+1:]
	if strings.HasPrefix(ours, head) && strings.HasSuffix(ours, tail) {
		return "", false
	}
	return quoted, true
}

// refine adds what only the client knows to a classified HTTP error: the
// user's key (to tell it from the gateway's own) and the address asked
// (a 404 that names no model is a wrong base URL, not a model).
func (c *Client) refine(e *Error, r request, took time.Duration) {
	if e.Status == statusProxyTimeout || e.Status == http.StatusGatewayTimeout && strings.Contains(e.Message, "web page") {
		// A proxy's own time limit (Cloudflare's 524 at about 100 s): the
		// service behind it may well have finished, and charged.
		e.Kind = KindTimeout
		e.Message = catalogue.F("a proxy in front of the service cut the request after %s", roundTook(took))
		e.Hint = catalogue.T("The proxy's time limit is shorter than this request takes, and the service may have finished and charged for it: check the gallery and the account's usage before sending again; lower the quality or size, or turn on streaming, which keeps the connection alive.")
		return
	}
	if e.Kind == KindAuth {
		if quoted, ok := upstreamKey(e.Message, c.cfg.APIKey); ok {
			e.Kind = KindServer
			e.Hint = catalogue.F("The provider behind the gateway refused the gateway's own key (%s is not yours): your key works; tell the gateway's operator, or pick a model another channel serves.", Redact(quoted, c.cfg.APIKey))
			return
		}
	}
	if e.Status == http.StatusNotFound && invalidURL(e.Message) {
		e.Kind = KindWrongAddress
		e.Hint = wrongAddressHint(c.cfg.BaseURL)
	}
	if e.Kind == KindUnknownModel && r.model != "" && noModelNamed.MatchString(e.Message) {
		// one-api has no edits endpoint: it looks for a channel of the
		// model it could not read from the form, "" (当前分组 default 下对于
		// 模型  无可用渠道). The model is not at fault; the endpoint is.
		e.Kind, e.NotOffered, e.Group = KindServer, true, ""
		e.Hint = notImplementedHint(r.path)
	}
}

// noModelNamed finds a no-channel answer that names no model: new-api's
// "for model  under group", one-api's "对于模型  无可用渠道".
var noModelNamed = regexp.MustCompile(`(?i)for model\s+under group|对于模型\s*无可用渠道`)

// statusProxyTimeout is Cloudflare's "A timeout occurred": the origin
// took longer than the proxy waits.
const statusProxyTimeout = 524

// invalidURL reports OpenAI's and the gateways' "no such address"
// answers ("Invalid URL (GET /api/v1/models)", new-api's "Invalid URL").
func invalidURL(msg string) bool {
	m := strings.ToLower(msg)
	return strings.HasPrefix(m, "invalid url") || strings.Contains(m, "unknown request url") || strings.Contains(m, "no route") || strings.Contains(m, "404 page not found")
}

// wrongAddressHint says how to fix a base URL the service has no API at.
func wrongAddressHint(base string) string {
	return catalogue.F("The service has no API at %s: check the profile's base URL; it is usually the gateway's address followed by /v1 (not /api/v1, and without a path after it).", base)
}

// roundTook is a duration as a person reads it: whole seconds, or
// milliseconds under a second.
func roundTook(d time.Duration) time.Duration {
	if d < time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Second)
}
