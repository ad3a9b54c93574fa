package api_test

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/demoservice"
	"easel/internal/testsupport/fixture"
)

// The gateways' error answers, as the demo gives them in each gateway's
// own words, read as what the user can do about them — not as the
// status alone would have it. The service's words stay in Message.
func TestGatewayErrorsAreAdvisedRightly(t *testing.T) {
	c, _, _ := newFake(t, demoservice.Config{})
	for _, tc := range []struct {
		fault   string
		kind    api.Kind
		hint    []string // words the hint must hold
		notHint string   // advice that would be wrong
		message string   // the service's own words, kept
	}{
		{demoservice.FaultModelPrice, api.KindNoAccess, []string{"no price set", "operator"}, "check the options", "倍率或价格未配置"},
		{demoservice.FaultNotInGroup, api.KindUnknownModel, []string{`group "default"`}, "", "under group default"},
		{demoservice.FaultNoChannelChinese, api.KindUnknownModel, []string{`group "vip"`}, "", "无可用渠道"},
		{demoservice.FaultUpstreamKey, api.KindServer, []string{"gateway's own key", "your key works"}, "Settings", "Incorrect API key provided"},
		{demoservice.FaultKeyQuota, api.KindInsufficientBalance, []string{"This key's own spending limit"}, "top it up", "token quota is not enough"},
		{demoservice.FaultKeyQuotaChinese, api.KindInsufficientBalance, []string{"This key's own spending limit"}, "top it up", "该令牌额度已用尽"},
		{demoservice.FaultUpstreamHTML, api.KindServer, []string{"provider behind the gateway failed", "openai_error"}, "", "openai_error"},
		{demoservice.FaultBudget, api.KindInsufficientBalance, []string{"budget"}, "top it up", "Budget has been exceeded"},
		{demoservice.FaultNoAccounts, api.KindServer, []string{"no free upstream account"}, "", "No available accounts"},
	} {
		t.Run(tc.fault, func(t *testing.T) {
			_, err := c.Generate(context.Background(), gen("fault-"+tc.fault), nil)
			e := asAPIError(t, err)
			if e.Kind != tc.kind {
				t.Errorf("kind %q, want %q (%v)", e.Kind, tc.kind, e)
			}
			for _, w := range tc.hint {
				if !strings.Contains(e.Hint, w) {
					t.Errorf("hint %q lacks %q", e.Hint, w)
				}
			}
			if tc.notHint != "" && strings.Contains(e.Hint, tc.notHint) {
				t.Errorf("hint %q gives the wrong advice (%q)", e.Hint, tc.notHint)
			}
			if !strings.Contains(e.Message, tc.message) {
				t.Errorf("the service's words %q are not kept as they came (%q)", tc.message, e.Message)
			}
		})
	}
}

// A refused key whose masked form is the user's own is the user's key.
func TestRefusedKeyThatIsOursIsAuth(t *testing.T) {
	c, _, _ := newFake(t, demoservice.Config{})
	_, err := c.Generate(context.Background(), gen("fault-"+demoservice.FaultUnauthorized), nil)
	if e := asAPIError(t, err); e.Kind != api.KindAuth || !strings.Contains(e.Hint, "Settings") {
		t.Errorf("our own key refused: %v — %s", e, e.Hint)
	}
}

// A chat reply the gateway closed with [DONE] after its upstream broke,
// with no finish_reason, is possibly cut: what arrived is kept, and the
// failure says so.
func TestCutChatClosedByGatewayIsReported(t *testing.T) {
	c, _, _ := newFake(t, demoservice.Config{Quirks: []demoservice.Quirk{demoservice.QuirkCutChat}})
	res, err := c.Chat(context.Background(), api.ChatRequest{Model: "gpt-4o-mini", Stream: true, IncludeUsage: true,
		Messages: []api.Message{{Role: api.RoleUser, Content: "three looks for a poster"}}}, nil)
	e := asAPIError(t, err)
	if e.Kind != api.KindCutOff || !strings.Contains(e.Message, "cut off") {
		t.Errorf("a cut reply reads %v", e)
	}
	if res == nil || !strings.Contains(res.Content, "Demo reply") || strings.Contains(res.Content, "Built-in demo") {
		t.Errorf("what arrived should be kept: %+v", res)
	}
}

// The provider's "try again in 30s" stands in for the Retry-After header
// a gateway dropped.
func TestWaitReadFromMessageWhenHeaderDropped(t *testing.T) {
	c, _, _ := newFake(t, demoservice.Config{Quirks: []demoservice.Quirk{demoservice.QuirkDropsRetryAfter}})
	_, err := c.Generate(context.Background(), gen("fault-"+demoservice.FaultRateLimit), nil)
	e := asAPIError(t, err)
	if e.RetryAfter != 30*time.Second || !strings.Contains(e.Hint, "wait 30s") {
		t.Errorf("retry after %v, hint %q", e.RetryAfter, e.Hint)
	}
}

// A base URL with the wrong path is a wrong address, not a model.
func TestInvalidURLPointsAtTheBaseURL(t *testing.T) {
	srv := demoservice.New(demoservice.Config{})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	c := api.New(api.Config{BaseURL: ts.URL + "/api/v1", APIKey: "k"})
	_, err := c.Models(context.Background())
	e := asAPIError(t, err)
	if e.Kind != api.KindWrongAddress || !strings.Contains(e.Hint, "base URL") || strings.Contains(e.Hint, `""`) {
		t.Errorf("models at the wrong path: %v — %s", e, e.Hint)
	}
	if !strings.Contains(e.Message, "Invalid URL (GET /api/v1/models)") {
		t.Errorf("the service's words: %q", e.Message)
	}
	_, err = c.Generate(context.Background(), gen("gpt-image-1"), nil)
	if e := asAPIError(t, err); e.Kind != api.KindWrongAddress || len(e.Suggestions) > 0 {
		t.Errorf("a generation at the wrong path: %v", e)
	}
}

// A streamed edit that older new-api cannot carry fails in words that
// say it may be charged and what works, not "try again in a minute".
func TestStreamedEditThroughGatewaySaysSendUnstreamed(t *testing.T) {
	c, _, _ := newFake(t, demoservice.Config{Quirks: []demoservice.Quirk{demoservice.QuirkStreamedEditFails}})
	req := api.EditRequest{Prompt: "add a red boat", ImageOptions: api.ImageOptions{Model: "gpt-image-1", Stream: true, PartialImages: 1},
		Images: []api.InputImage{{Name: "a.png", ContentType: "image/png", Data: fixture.SolidPNG(t, 64, 64, color.White)}}}
	_, err := c.Edit(context.Background(), req, nil)
	e := asAPIError(t, err)
	if e.Kind != api.KindBadResponse || !strings.Contains(e.Hint, "without streaming") || !strings.Contains(e.Hint, "charged") || strings.Contains(e.Hint, "try again") {
		t.Errorf("streamed edit: %v — %s", e, e.Hint)
	}
	req.Stream = false
	if _, err := c.Edit(context.Background(), req, nil); err != nil {
		t.Errorf("the same edit unstreamed: %v", err)
	}
}

// A proxy's time limit is named, with how long the request ran and that
// it may have been charged.
func TestProxyTimeLimitIsNamed(t *testing.T) {
	c, _, _ := newFake(t, demoservice.Config{Quirks: []demoservice.Quirk{demoservice.QuirkProxyCut}, ProxyLimit: 50 * time.Millisecond, Pace: 40 * time.Millisecond})
	_, err := c.Generate(context.Background(), gen("gpt-image-1"), nil)
	e := asAPIError(t, err)
	if e.Kind != api.KindTimeout || !strings.Contains(e.Message, "proxy") || !strings.Contains(e.Message, "ms") || !strings.Contains(e.Hint, "charged") {
		t.Errorf("proxy cut: %v — %s", e, e.Hint)
	}
}

// Gateways list endpoint types late and wrongly; an image model never
// lands in Chat's picker.
func TestImageModelsNeverOfferedForChat(t *testing.T) {
	c, _, _ := newFake(t, demoservice.Config{Quirks: []demoservice.Quirk{demoservice.QuirkLateEndpointTypes}})
	for round := range 2 { // empty lists first, then images also "openai"
		ms, err := c.Models(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		chat := api.ModelsFor(ms, api.EndpointChat)
		if slices.ContainsFunc(chat, api.ImageModelName) || !slices.Contains(chat, "gpt-4.1") {
			t.Errorf("round %d: Chat would offer %v", round, chat)
		}
		if images := api.ModelsFor(ms, api.EndpointImages); !slices.Contains(images, "gpt-image-1") {
			t.Errorf("round %d: images %v", round, images)
		}
	}
}

// A one-letter key is masked where it stands alone, never inside words.
func TestShortKeyIsNotMaskedInsideWords(t *testing.T) {
	if got := api.Redact("the proxy said: key x is wrong (x)", "x"); got != "the proxy said: key [key] is wrong ([key])" {
		t.Errorf("got %q", got)
	}
	c, _, _ := newFake(t, demoservice.Config{Key: "x"})
	_, err := c.Generate(context.Background(), gen("fault-"+demoservice.FaultRateLimit), nil)
	if e := asAPIError(t, err); strings.Contains(e.Message, "[key]") {
		t.Errorf("a short key masked inside words: %q", e.Message)
	}
}

// An answer too long for what was asked is advised for that request:
// "fewer or smaller images" only where images were asked for.
func TestTooLongAnswersAreAdvisedForTheirRequest(t *testing.T) {
	big := strings.Repeat("x", 64<<10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"data":[{"id":"%s"}],"choices":[{"message":{"content":"%s"}}]}`, big, big)
	}))
	t.Cleanup(srv.Close)
	c := api.New(api.Config{BaseURL: srv.URL + "/v1", APIKey: "k", MaxResponse: 32 << 10})
	_, err := c.Models(context.Background())
	if e := asAPIError(t, err); !strings.Contains(e.Hint, "model list") || strings.Contains(e.Hint, "images") {
		t.Errorf("a model list too long: %v — %s", e, e.Hint)
	}
	_, err = c.Chat(context.Background(), api.ChatRequest{Model: "m", Messages: []api.Message{{Role: api.RoleUser, Content: "hi"}}}, nil)
	if e := asAPIError(t, err); !strings.Contains(e.Hint, "shorter reply") || strings.Contains(e.Hint, "images") {
		t.Errorf("a reply too long: %v — %s", e, e.Hint)
	}
}

// The group a gateway names comes from its message, and is cleaned like
// the rest of its words before anyone sees it.
func TestTheNamedGroupIsCleaned(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprint(w, `{"error":{"message":"No available channel for model m under group vip\u202e\u001b[2J (distributor)","type":"new_api_error","code":"model_not_found"}}`)
	}))
	t.Cleanup(srv.Close)
	c := api.New(api.Config{BaseURL: srv.URL + "/v1", APIKey: "k"})
	_, err := c.Generate(context.Background(), gen("m"), nil)
	if e := asAPIError(t, err); e.Group != "vip" {
		t.Errorf("group %q", e.Group)
	}
}

// A gateway's billing endpoints give the balance, which goes down by
// what was used; a service without them is api.ErrNoBalance, to be
// remembered.
func TestBalanceFromTheBillingEndpoints(t *testing.T) {
	srv := demoservice.New(demoservice.Config{Credit: 10})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	c := api.New(api.Config{BaseURL: ts.URL + "/v1", APIKey: "sk-test"})
	ctx := context.Background()
	b, err := c.Balance(ctx)
	if err != nil || b.Left() != 10 {
		t.Fatalf("before: %+v %v", b, err)
	}
	if _, err := c.Generate(ctx, api.GenerateRequest{Prompt: "a cat", ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", Quality: "low", N: 2}}, nil); err != nil {
		t.Fatal(err)
	}
	b, err = c.Balance(ctx)
	if err != nil || math.Abs(b.Used-srv.Used()) > 1e-9 || srv.Used() < 2*272*40/1e6 {
		t.Errorf("after two low squares: %+v %v (the service used %v)", b, err, srv.Used())
	}
	none := httptest.NewServer(demoservice.New(demoservice.Config{NoBilling: true}))
	defer none.Close()
	if _, err := api.New(api.Config{BaseURL: none.URL + "/v1", APIKey: "sk-test"}).Balance(ctx); !errors.Is(err, api.ErrNoBalance) {
		t.Errorf("no billing endpoints: %v", err)
	}
}

// A prompt the service rewrote is reported whether the answer came
// streamed or whole: the streamed completed event carries revised_prompt
// too.
func TestARevisedPromptIsReadFromAStreamToo(t *testing.T) {
	ts := httptest.NewServer(demoservice.New(demoservice.Config{Quirks: []demoservice.Quirk{demoservice.QuirkRewritePrompt}}))
	defer ts.Close()
	c := api.New(api.Config{BaseURL: ts.URL + "/v1"})
	for _, stream := range []bool{false, true} {
		res, err := c.Generate(context.Background(), api.GenerateRequest{Prompt: "a fox", ImageOptions: api.ImageOptions{Model: "gpt-image-1", Stream: stream, PartialImages: 1}}, nil)
		if err != nil || len(res.Images) != 1 || !strings.Contains(res.Images[0].RevisedPrompt, "masterpiece") {
			t.Errorf("stream %v: %+v %v", stream, res, err)
		}
	}
}
