package spend

import (
	"strings"
	"testing"
	"time"

	"easel/internal/library"
)

// The spend view's list and `easel spend --check` say what the gateway's
// figure settled an entry at beside what Easel wrote, and how many
// requests shared the readings.
func TestACheckLineSaysWhatTheGatewaySettled(t *testing.T) {
	cost, settled := 0.25, 0.96
	e := library.Entry{At: time.Date(2026, 11, 28, 9, 5, 0, 0, time.UTC), Model: "gpt-image-1", Cost: &cost, Currency: "USD",
		Settled: &settled, SettledWith: 1}
	line := CheckLine(e)
	if !strings.Contains(line, "counts $0.96") || !strings.Contains(line, "settles it at $0.96, where Easel wrote $0.25") {
		t.Errorf("%q", line)
	}
	e.SettledWith = 3
	if line := CheckLine(e); !strings.Contains(line, "its share of 3 requests") {
		t.Errorf("%q", line)
	}
}
