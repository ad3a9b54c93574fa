package api_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"easel/internal/api"
	"easel/internal/fakeapi"
)

// TestEveryFaultIsClassified sends each injected fault through the real
// client, unstreamed and streamed, and checks its Kind and hint.
func TestEveryFaultIsClassified(t *testing.T) {
	type want struct {
		kind api.Kind
		hint string // a word the hint must contain
	}
	cases := map[string]want{
		fakeapi.FaultInvalidSize:    {api.KindInvalidSize, "1024x1024"},
		fakeapi.FaultUnauthorized:   {api.KindAuth, "key"},
		fakeapi.FaultNoAccess:       {api.KindNoAccess, "access"},
		fakeapi.FaultModelNotFound:  {api.KindUnknownModel, "exactly"},
		fakeapi.FaultNoBalance:      {api.KindInsufficientBalance, "top it up"},
		fakeapi.FaultRateLimit:      {api.KindRateLimited, "30s"},
		fakeapi.FaultServerError:    {api.KindServer, "try again"},
		fakeapi.FaultBadGatewayHTML: {api.KindServer, "try again"},
		fakeapi.FaultNotImplemented: {api.KindServer, "does not offer"},
		fakeapi.FaultBadBase64:      {api.KindBadResponse, "cannot use"},
		fakeapi.FaultNotImage:       {api.KindBadResponse, "bytes are kept"},
		fakeapi.FaultTruncatedJSON:  {api.KindBadResponse, "cannot use"},
		fakeapi.FaultCutStream:      {api.KindNetwork, "connection"},
	}
	streamed := map[string]want{
		fakeapi.FaultStreamError: {api.KindServer, "try again"},
		fakeapi.FaultCutStream:   {api.KindNetwork, "connection"},
		fakeapi.FaultBadBase64:   {api.KindBadResponse, "cannot use"},
		fakeapi.FaultNoBalance:   {api.KindInsufficientBalance, "top it up"},
	}
	c, _, _ := newFake(t, fakeapi.Config{})
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
	_, err := c.Generate(context.Background(), gen("fault-"+fakeapi.FaultRateLimit), nil)
	if e := asAPIError(t, err); e.RetryAfter.Seconds() != fakeapi.RetryAfterSeconds {
		t.Errorf("retry after %v", e.RetryAfter)
	}
}

// TestFaultNamesAreAllCovered keeps the table above honest when a fault is
// added to fakeapi.
func TestFaultNamesAreAllCovered(t *testing.T) {
	covered := map[string]bool{
		fakeapi.FaultInvalidSize: true, fakeapi.FaultUnauthorized: true, fakeapi.FaultNoAccess: true,
		fakeapi.FaultModelNotFound: true, fakeapi.FaultNoBalance: true, fakeapi.FaultRateLimit: true,
		fakeapi.FaultServerError: true, fakeapi.FaultBadGatewayHTML: true, fakeapi.FaultSlowFirstByte: true,
		fakeapi.FaultCutStream: true, fakeapi.FaultStreamError: true, fakeapi.FaultBadBase64: true,
		fakeapi.FaultNotImage: true, fakeapi.FaultTruncatedJSON: true, fakeapi.FaultJSONForStream: true,
		fakeapi.FaultNotImplemented: true, fakeapi.FaultRateLimitOnce: true, fakeapi.FaultNoImages: true,
		// gateway_test.go
		fakeapi.FaultModelPrice: true, fakeapi.FaultNotInGroup: true, fakeapi.FaultUpstreamKey: true,
		fakeapi.FaultKeyQuota: true, fakeapi.FaultKeyQuotaChinese: true, fakeapi.FaultNoChannelChinese: true,
		fakeapi.FaultUpstreamHTML: true, fakeapi.FaultBudget: true, fakeapi.FaultNoAccounts: true,
	}
	for _, f := range fakeapi.Faults {
		if !covered[f] {
			t.Errorf("fault %q has no test", f)
		}
	}
}

// Every fault reads in words a designer acts on: no protocol jargon in
// its title, and a hint that fits what happened.
func TestFailuresAreWordedForWhatHappened(t *testing.T) {
	c, _, _ := newFake(t, fakeapi.Config{})
	ctx := context.Background()
	for _, f := range fakeapi.Faults {
		_, err := c.Generate(ctx, api.GenerateRequest{Prompt: "x", ImageOptions: api.ImageOptions{Model: "fault-" + f, Size: "1024x1024",
			Stream: f == fakeapi.FaultCutStream || f == fakeapi.FaultStreamError}}, nil)
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
		case fakeapi.FaultCutStream:
			if strings.Contains(e.Hint, "base URL") || strings.Contains(e.Hint, "Could not reach") {
				t.Errorf("a stream cut after the service answered reads %q", e.Hint)
			}
		case fakeapi.FaultNotImplemented:
			if strings.Contains(e.Hint, "edits") || !strings.Contains(e.Hint, "generation") {
				t.Errorf("a generation the service does not offer reads %q", e.Hint)
			}
		}
	}
}
