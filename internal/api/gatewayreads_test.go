package api

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A gateway's console answers are read at the origin's root, with the
// key, and bounded: a figure out of range is ErrImpossible, an endpoint
// the service lacks ErrNotOffered.
func TestGatewayConsoleReads(t *testing.T) {
	answers := map[string]string{}
	var auth, paths []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth, paths = append(auth, r.Header.Get("Authorization")), append(paths, r.URL.Path)
		body, ok := answers[r.URL.Path]
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"error":{"message":"Invalid URL (GET ` + r.URL.Path + `)"}}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
	defer ts.Close()
	c := New(Config{BaseURL: ts.URL + "/v1", APIKey: "sk-console-0123456789"})
	ctx := context.Background()

	answers["/api/status"] = `{"success":true,"data":{"quota_per_unit":500000,"quota_display_type":"CNY","usd_exchange_rate":7.3,"system_name":"New API"}}`
	st, err := c.GatewayStatus(ctx)
	if err != nil || st.QuotaPerUnit != 500000 || st.DisplayType != "CNY" || st.ExchangeRate != 7.3 {
		t.Errorf("status %+v %v", st, err)
	}
	if paths[0] != "/api/status" || auth[0] != "Bearer sk-console-0123456789" {
		t.Errorf("asked %v with %v", paths, auth)
	}
	answers["/api/status"] = `{"success":true,"data":{"quota_per_unit":500000,"system_name":"gw sk-console-0123456789 \u001b[2J"}}`
	if st, err := c.GatewayStatus(ctx); err != nil || strings.Contains(st.SystemName, "0123456789") || strings.Contains(st.SystemName, "\x1b") {
		t.Errorf("a name echoing the key: %q %v", st.SystemName, err)
	}
	answers["/api/status"] = `{"success":true,"data":{"quota_per_unit":1e308}}`
	if _, err := c.GatewayStatus(ctx); !errors.Is(err, ErrImpossible) {
		t.Errorf("a quota per unit of 1e308: %v", err)
	}
	answers["/api/pricing"] = `{"success":true,"data":[{"model_name":"gpt-image-1","quota_type":0,"model_ratio":2.5,"completion_ratio":8,"image_ratio":2}],"group_ratio":{"default":1,"vip":0.5}}`
	pr, err := c.GatewayPricing(ctx)
	if err != nil || pr.Models["gpt-image-1"].CompletionRatio != 8 || pr.GroupRatio["vip"] != 0.5 {
		t.Errorf("pricing %+v %v", pr, err)
	}
	answers["/api/pricing"] = `{"success":true,"data":[],"group_ratio":{"vip":-3}}`
	if _, err := c.GatewayPricing(ctx); !errors.Is(err, ErrImpossible) {
		t.Errorf("a negative group ratio: %v", err)
	}
	answers["/api/usage/token/"] = `{"code":true,"data":{"object":"token_usage","total_granted":1000,"total_used":9e30,"total_available":10}}`
	if _, err := c.TokenUsage(ctx); !errors.Is(err, ErrImpossible) {
		t.Errorf("a use of 9e30: %v", err)
	}
	answers["/api/usage/token/"] = `{"code":true,"data":{"object":"token_usage","total_granted":0,"total_used":5000,"total_available":-5000,"unlimited_quota":true}}`
	if u, err := c.TokenUsage(ctx); err != nil || !u.Unlimited || u.Used != 5000 {
		t.Errorf("an unlimited key: %+v %v", u, err)
	}
	delete(answers, "/api/usage/token/")
	if _, err := c.TokenUsage(ctx); !errors.Is(err, ErrNotOffered) {
		t.Errorf("no such endpoint: %v", err)
	}
	answers["/api/usage/token/"] = `<!doctype html><html>console</html>`
	if _, err := c.TokenUsage(ctx); !errors.Is(err, ErrNotOffered) {
		t.Errorf("a web page: %v", err)
	}
}
