package spend

import (
	"context"
	"strconv"
	"strings"
	"time"

	"easel/internal/catalogue"
	"easel/internal/library"
	"easel/internal/pricing"
)

// MaxToCheck bounds the entries the spend view and `easel spend --check`
// list: a service that poisons every answer fills the list, not the
// window or the terminal.
const MaxToCheck = 200

// CheckLine says one ledger entry a person should look at, the same in
// the spend view and `easel spend --check`: when, what, what it counts
// for and why it is listed (Easel's note, may have been billed, or the
// user's correction beside what Easel wrote).
func CheckLine(e library.Entry) string {
	amount, estimated := e.Spent()
	m := pricing.Money{Amount: amount, Currency: e.Currency}
	head := catalogue.F("%s · %s · counts %s", e.At.Local().Format(catalogue.T("2 Jan 15:04")), e.Model, m)
	if estimated {
		head = catalogue.F("%s · %s · counts ≈ %s (its estimate)", e.At.Local().Format(catalogue.T("2 Jan 15:04")), e.Model, m)
	}
	var why []string
	if e.Corrected != nil {
		c := catalogue.F("corrected by you from %s", pricing.Money{Amount: e.Written(), Currency: e.Currency})
		if e.Correction != "" {
			c += catalogue.F(": %s", e.Correction)
		}
		why = append(why, c)
	}
	if e.Settled != nil && e.Corrected == nil {
		why = append(why, SettledLine(e)+catalogue.F(", where Easel wrote %s", pricing.Money{Amount: e.Written(), Currency: e.Currency}))
	}
	if e.Billing == library.MaybeBilled && e.Corrected == nil && e.Settled == nil {
		why = append(why, catalogue.T("may have been billed"))
	}
	if e.Note != "" {
		why = append(why, e.Note)
	}
	if len(why) == 0 {
		return head
	}
	return head + " — " + strings.Join(why, "; ")
}

// Correct reads an amount a person typed ("0", "0.17", "$0.17") and sets
// entry id to it with why, through library.Correct's bounds; the window
// and the command line both correct through it.
func Correct(ctx context.Context, books *library.Ledger, id int64, amount, why string, now time.Time) error {
	v, err := ParseAmount(amount)
	if err != nil {
		return err
	}
	return books.Correct(ctx, id, v, strings.TrimSpace(why), now)
}

// ParseAmount reads an amount as a person types it: a number, with a
// currency sign before it or not. The correction form checks with it as
// the user types.
func ParseAmount(text string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimLeft(strings.TrimSpace(text), "$¥ "), 64)
	if err != nil {
		return 0, &AmountError{Text: text}
	}
	return v, nil
}

// AmountError is a correction that is not a number.
type AmountError struct{ Text string }

func (e *AmountError) Error() string {
	return catalogue.F("%q is not an amount: write a number such as 0 or 0.17", e.Text)
}
