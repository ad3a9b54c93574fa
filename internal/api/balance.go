package api

import (
	"context"
	"errors"
	"math"
	"net/http"

	"github.com/tidwall/gjson"
)

// Balance is what an account has left, as the OpenAI-style billing
// endpoints that new-api and one-api serve for a key report it: the
// credit (hard_limit_usd) less what was used (total_usage, in cents).
// The unit is the gateway's: dollars, or its quota units when it is set
// not to show money.
type Balance struct {
	Credit, Used float64
}

// Left is the remaining balance.
func (b Balance) Left() float64 { return b.Credit - b.Used }

// ErrNoBalance says the service does not report a balance (OpenAI's own
// API does not, for an API key): remember it and do not ask again.
var ErrNoBalance = errors.New("the service does not report a balance")

// Balance asks the service what the account has left. A service that
// answers with anything but the two billing answers is ErrNoBalance; a
// network failure or a time-out is returned as it is (ask later).
func (c *Client) Balance(ctx context.Context) (Balance, error) {
	sub, err := c.billing(ctx, "dashboard/billing/subscription", "hard_limit_usd")
	if err != nil {
		return Balance{}, err
	}
	used, err := c.billing(ctx, "dashboard/billing/usage", "total_usage")
	if err != nil {
		return Balance{}, err
	}
	return Balance{Credit: sub, Used: used / 100}, nil
}

// billing reads one number from a billing endpoint.
func (c *Client) billing(ctx context.Context, path, field string) (float64, error) {
	body, err := c.getJSON(ctx, request{method: http.MethodGet, path: path}, MaxErrorBody)
	if errors.Is(err, ErrNotOffered) {
		return 0, ErrNoBalance
	}
	if err != nil {
		return 0, err
	}
	v := gjson.GetBytes(body, field)
	if v.Type != gjson.Number {
		return 0, ErrNoBalance
	}
	if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, ErrImpossible
	}
	return v.Float(), nil
}
