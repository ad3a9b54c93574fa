package api_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/demoservice"
)

// A short Retry-After that Easel waits out itself is told, not silent.
func TestAWaitEaselMakesIsTold(t *testing.T) {
	ts := httptest.NewServer(demoservice.New(demoservice.Config{}))
	t.Cleanup(ts.Close)
	var waits []time.Duration
	c := api.New(api.Config{BaseURL: ts.URL + "/v1", OnWait: func(d time.Duration) { waits = append(waits, d) }})
	_, err := c.Generate(context.Background(), api.GenerateRequest{Prompt: "x", ImageOptions: api.ImageOptions{
		Model: "fault-" + demoservice.FaultRateLimitOnce, Size: "1024x1024"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(waits) != 1 || waits[0] != time.Second {
		t.Errorf("waits told: %v, want one of 1s", waits)
	}
}
