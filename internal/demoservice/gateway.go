package demoservice

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"
)

// Quirk is one way a real gateway departs from the spec, reproduced so
// that tests, and a user of `easel serve-demo --gateway`, see offline
// what Easel makes of it. Each is named after the behaviour, with its
// source beside it. Unlike a fault (one request), a quirk holds for every
// request the server answers, as a gateway's does.
type Quirk string

// The quirks the demo service can take on.
const (
	// QuirkCutChat: when the upstream connection breaks mid-reply,
	// new-api closes the client's stream with its own usage chunk and
	// [DONE], so the cut reply looks whole (seen through new-api in front
	// of serve-demo).
	QuirkCutChat Quirk = "cut-chat"
	// QuirkNoImageStream: older new-api answers a stream:true image
	// request with plain JSON (no previews).
	QuirkNoImageStream Quirk = "no-image-stream"
	// QuirkStreamedEditFails: new-api fails a streamed edit with 500
	// bad_response_body after the upstream has done (and billed) it.
	QuirkStreamedEditFails Quirk = "streamed-edit-fails"
	// QuirkOneImage: n forced to 1 (sub2api #2295).
	QuirkOneImage Quirk = "one-image"
	// QuirkIgnoreMask: the mask is accepted and ignored; the whole image
	// is repainted (sub2api #6273).
	QuirkIgnoreMask Quirk = "ignore-mask"
	// QuirkFirstImageOnly: reference images after the first are dropped
	// (LiteLLM #14488).
	QuirkFirstImageOnly Quirk = "first-image-only"
	// QuirkLinksForInline: a url is sent when b64_json was asked
	// (new-api #5575).
	QuirkLinksForInline Quirk = "links-for-inline"
	// QuirkRewritePrompt: the prompt is rewritten before it reaches the
	// model (gateways that "enhance" prompts), and the answer says so in
	// revised_prompt.
	QuirkRewritePrompt Quirk = "rewrite-prompt"
	// QuirkDropsBackground: a transparent background is silently drawn
	// opaque.
	QuirkDropsBackground Quirk = "drops-background"
	// QuirkRefusesTransparency: a transparent background is refused
	// with 400 (gpt-image-2 through channels where its transparency,
	// in preview, is not offered).
	QuirkRefusesTransparency Quirk = "refuses-transparency"
	// QuirkDropsRetryAfter: a rate limit without its Retry-After header,
	// the provider's message ("try again in 30s") passed on.
	QuirkDropsRetryAfter Quirk = "drops-retry-after"
	// QuirkLateEndpointTypes: new-api's supported_endpoint_types are
	// empty at first, and later list image models as also "openai".
	QuirkLateEndpointTypes Quirk = "late-endpoint-types"
	// QuirkProxyCut: a proxy in front of the gateway cuts any answer that
	// takes longer than Config.ProxyLimit with its own 524 page, after
	// the work was done and billed (new-api #4920: ~100 s at Cloudflare).
	QuirkProxyCut Quirk = "proxy-cut"
)

// Quirks lists every quirk, for documentation and `serve-demo --help`.
var Quirks = []Quirk{
	QuirkCutChat, QuirkNoImageStream, QuirkStreamedEditFails, QuirkOneImage, QuirkIgnoreMask,
	QuirkFirstImageOnly, QuirkLinksForInline, QuirkRewritePrompt, QuirkDropsBackground,
	QuirkRefusesTransparency, QuirkDropsRetryAfter, QuirkLateEndpointTypes, QuirkProxyCut,
}

// Gateways are named sets of quirks, as each gateway shows them.
var Gateways = map[string][]Quirk{
	"new-api": {QuirkCutChat, QuirkNoImageStream, QuirkStreamedEditFails, QuirkLinksForInline, QuirkDropsRetryAfter, QuirkLateEndpointTypes},
	"sub2api": {QuirkOneImage, QuirkIgnoreMask},
	"litellm": {QuirkFirstImageOnly, QuirkRewritePrompt, QuirkDropsBackground},
	"proxy":   {QuirkProxyCut},
}

// ParseQuirks reads a --gateway value: gateway names and quirk names,
// separated by commas.
func ParseQuirks(spec string) ([]Quirk, error) {
	var out []Quirk
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		switch {
		case part == "":
		case Gateways[part] != nil:
			out = append(out, Gateways[part]...)
		case slices.Contains(Quirks, Quirk(part)):
			out = append(out, Quirk(part))
		default:
			return nil, fmt.Errorf("no gateway or quirk named %q (gateways: %s; quirks: %s)", part, strings.Join(gatewayNames(), ", "), quirkNames())
		}
	}
	return out, nil
}

func gatewayNames() []string {
	var names []string
	for n := range Gateways {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func quirkNames() string {
	var names []string
	for _, q := range Quirks {
		names = append(names, string(q))
	}
	return strings.Join(names, ", ")
}

// has reports whether the server takes on quirk q.
func (s *Server) has(q Quirk) bool { return slices.Contains(s.cfg.Quirks, q) }

// DefaultProxyLimit is how long the proxy-cut quirk lets an answer take.
const DefaultProxyLimit = 100 * time.Second

// proxyCut answers as Cloudflare does when the origin takes too long:
// 524 with its HTML page. It reports whether it answered.
func (s *Server) proxyCut(w http.ResponseWriter, started time.Time) bool {
	if !s.has(QuirkProxyCut) || time.Since(started) < s.cfg.ProxyLimit {
		return false
	}
	w.Header().Set("Content-Type", "text/html; charset=UTF-8")
	w.WriteHeader(524)
	fmt.Fprint(w, "<!DOCTYPE html><html><head><title>524: A timeout occurred</title></head><body><h1>A timeout occurred</h1><p>The origin web server timed out responding to this request.</p><p>Cloudflare Ray ID: 8f1e2d3c4b5a6978</p></body></html>\n")
	return true
}

// invalidURL answers a path the API does not have, as OpenAI and new-api
// do: 404 "Invalid URL (GET /api/v1/models)".
func invalidURL(w http.ResponseWriter, r *http.Request) {
	writeError(w, http.StatusNotFound, fmt.Sprintf("Invalid URL (%s %s)", r.Method, r.URL.Path), "invalid_request_error", "", "")
}

// The gateways' error answers, each a fault a request can ask for (the
// model "fault-NAME" or the X-Easel-Fault header), in their own words.
const (
	// FaultModelPrice: new-api, a model its operator has not priced.
	FaultModelPrice = "model-price"
	// FaultNotInGroup: new-api, a listed model outside the key's group.
	FaultNotInGroup = "not-in-group"
	// FaultUpstreamKey: the provider refused the gateway's own key, and
	// the gateway passed OpenAI's words on.
	FaultUpstreamKey = "upstream-key"
	// FaultKeyQuota: new-api, this key's own limit is spent.
	FaultKeyQuota = "key-quota"
	// FaultUpstreamHTML: new-api relays an upstream HTML 502 as the bare
	// word "openai_error".
	FaultUpstreamHTML = "upstream-html"
	// FaultKeyQuotaChinese: one-api's Chinese words for the same.
	FaultKeyQuotaChinese = "key-quota-zh"
	// FaultNoChannelChinese: one-api's Chinese no-channel answer.
	FaultNoChannelChinese = "no-channel-zh"
	// FaultBudget: LiteLLM, the key's budget is spent.
	FaultBudget = "litellm-budget"
	// FaultNoAccounts: sub2api, no upstream account free.
	FaultNoAccounts = "no-accounts"
)

// gatewayFault answers the gateways' error faults; true when it answered.
func gatewayFault(w http.ResponseWriter, fault, model string) bool {
	switch fault {
	case FaultModelPrice:
		writeError(w, http.StatusBadRequest, fmt.Sprintf("模型 %[1]s 倍率或价格未配置，请联系管理员设置或开始自用模式；Model %[1]s ratio or price not set, please set or start self-use mode (request id: 20261124190301123456789abcdef)", model), "new_api_error", "", "model_price_error")
	case FaultNotInGroup:
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("No available channel for model %s under group default (distributor) (request id: 20261124190302123456789abcdef)", model), "new_api_error", "", "model_not_found")
	case FaultUpstreamKey:
		writeError(w, http.StatusUnauthorized, "Incorrect API key provided: sk-proj-********************************************************************Qx7A. You can find your API key at https://platform.openai.com/account/api-keys.", "invalid_request_error", "", "invalid_api_key")
	case FaultKeyQuota:
		writeError(w, http.StatusForbidden, "token quota is not enough, token remain quota: ＄0.019310, need quota: ＄0.769410 (request id: 20261124190303123456789abcdef)", "new_api_error", "", "pre_consume_token_quota_failed")
	case FaultKeyQuotaChinese:
		writeError(w, http.StatusForbidden, "该令牌额度已用尽", "one_api_error", "", "")
	case FaultNoChannelChinese:
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("当前分组 vip 下对于模型 %s 无可用渠道", model), "one_api_error", "", "")
	case FaultUpstreamHTML:
		writeError(w, http.StatusBadGateway, "openai_error", "openai_error", "", "bad_response_status_code")
	case FaultBudget:
		writeError(w, http.StatusBadRequest, "Budget has been exceeded! Current cost: 10.0213, Max budget: 10.0", "budget_exceeded", "", "400")
	case FaultNoAccounts:
		writeError(w, http.StatusServiceUnavailable, "No available accounts", "api_error", "", "")
	default:
		return false
	}
	return true
}
