package api_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"easel/internal/api"
	"easel/internal/demoservice"
)

// TestEveryFaultIsClassified sends each injected fault through the real
// client, unstreamed and streamed, and checks its Kind and hint.
func TestEveryFaultIsClassified(t *testing.T) {
	type want struct {
		kind api.Kind
		hint string // a word the hint must contain
	}
	cases := map[string]want{
		demoservice.FaultInvalidSize:    {api.KindInvalidSize, "1024x1024"},
		demoservice.FaultUnauthorized:   {api.KindAuth, "key"},
		demoservice.FaultNoAccess:       {api.KindNoAccess, "access"},
		demoservice.FaultModelNotFound:  {api.KindUnknownModel, "exactly"},
		demoservice.FaultNoBalance:      {api.KindInsufficientBalance, "top it up"},
		demoservice.FaultRateLimit:      {api.KindRateLimited, "30s"},
		demoservice.FaultServerError:    {api.KindServer, "try again"},
		demoservice.FaultBadGatewayHTML: {api.KindServer, "try again"},
		demoservice.FaultNotImplemented: {api.KindServer, "does not offer"},
		demoservice.FaultBadBase64:      {api.KindBadResponse, "cannot use"},
		demoservice.FaultNotImage:       {api.KindBadResponse, "bytes are kept"},
		demoservice.FaultTruncatedJSON:  {api.KindBadResponse, "cannot use"},
		demoservice.FaultCutStream:      {api.KindNetwork, "connection"},
	}
	streamed := map[string]want{
		demoservice.FaultStreamError: {api.KindServer, "try again"},
		demoservice.FaultCutStream:   {api.KindNetwork, "connection"},
		demoservice.FaultBadBase64:   {api.KindBadResponse, "cannot use"},
		demoservice.FaultNoBalance:   {api.KindInsufficientBalance, "top it up"},
	}
	c, _, _ := newFake(t, demoservice.Config{})
	run := func(name string, stream bool, w want) {
		label := name
		if stream {
			label = "stream/" + name
		}
		t.Run(label, func(t *testing.T) {
			req := gen("fault-" + name)
			req.Stream, req.PartialImages = stream, 1
			_, err := c.Generate(context.Background(), req, nil)
			if err == nil {
				t.Fatal("no error")
			}
			e := asAPIError(t, err)
			if e.Kind != w.kind {
				t.Errorf("kind %q, want %q (%v)", e.Kind, w.kind, e)
			}
			if !strings.Contains(e.Hint, w.hint) {
				t.Errorf("hint %q lacks %q", e.Hint, w.hint)
			}
			if e.Kind != api.KindBadResponse && e.Kind != api.KindNetwork && e.RequestID == "" {
				t.Errorf("no request id in %v", e)
			}
		})
	}
	for name, w := range cases {
		run(name, false, w)
	}
	for name, w := range streamed {
		run(name, true, w)
	}
	// The rate limit carries Retry-After.
	_, err := c.Generate(context.Background(), gen("fault-"+demoservice.FaultRateLimit), nil)
	if e := asAPIError(t, err); e.RetryAfter.Seconds() != demoservice.RetryAfterSeconds {
		t.Errorf("retry after %v", e.RetryAfter)
	}
}

// TestFaultNamesAreAllCovered keeps the table above honest when a fault is
// added to demoservice.
func TestFaultNamesAreAllCovered(t *testing.T) {
	covered := map[string]bool{
		demoservice.FaultInvalidSize: true, demoservice.FaultUnauthorized: true, demoservice.FaultNoAccess: true,
		demoservice.FaultModelNotFound: true, demoservice.FaultNoBalance: true, demoservice.FaultRateLimit: true,
		demoservice.FaultServerError: true, demoservice.FaultBadGatewayHTML: true, demoservice.FaultSlowFirstByte: true,
		demoservice.FaultCutStream: true, demoservice.FaultStreamError: true, demoservice.FaultBadBase64: true,
		demoservice.FaultNotImage: true, demoservice.FaultTruncatedJSON: true, demoservice.FaultJSONForStream: true,
		demoservice.FaultNotImplemented: true, demoservice.FaultRateLimitOnce: true, demoservice.FaultNoImages: true,
		// gateway_test.go
		demoservice.FaultModelPrice: true, demoservice.FaultNotInGroup: true, demoservice.FaultUpstreamKey: true,
		demoservice.FaultKeyQuota: true, demoservice.FaultKeyQuotaChinese: true, demoservice.FaultNoChannelChinese: true,
		demoservice.FaultUpstreamHTML: true, demoservice.FaultBudget: true, demoservice.FaultNoAccounts: true,
	}
	for _, f := range demoservice.Faults {
		if !covered[f] {
			t.Errorf("fault %q has no test", f)
		}
	}
}

// Every fault reads in words a designer acts on: no protocol jargon in
// its title, and a hint that fits what happened.
func TestFailuresAreWordedForWhatHappened(t *testing.T) {
	c, _, _ := newFake(t, demoservice.Config{})
	ctx := context.Background()
	for _, f := range demoservice.Faults {
		_, err := c.Generate(ctx, api.GenerateRequest{Prompt: "x", ImageOptions: api.ImageOptions{Model: "fault-" + f, Size: "1024x1024",
			Stream: f == demoservice.FaultCutStream || f == demoservice.FaultStreamError}}, nil)
		var e *api.Error
		if !errors.As(err, &e) {
			continue // a fault that succeeds once (rate-limit-once)
		}
		for _, jargon := range []string{"auth", "network", "bad response"} {
			if e.Kind.String() == jargon {
				t.Errorf("%s: titled %q", f, jargon)
			}
		}
		if e.Hint == "" || e.Kind.Title() == "" {
			t.Errorf("%s: no title or hint: %+v", f, e)
		}
		switch f {
		case demoservice.FaultCutStream:
			if strings.Contains(e.Hint, "base URL") || strings.Contains(e.Hint, "Could not reach") {
				t.Errorf("a stream cut after the service answered reads %q", e.Hint)
			}
		case demoservice.FaultNotImplemented:
			if strings.Contains(e.Hint, "edits") || !strings.Contains(e.Hint, "generation") {
				t.Errorf("a generation the service does not offer reads %q", e.Hint)
			}
		}
	}
}
