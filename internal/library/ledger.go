package library

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/gateway"
)

// Ledger is what was spent, and what the gateway says of the account (its
// balance, its facts), in the gallery's database: a store of its own
// beside the items, the journal and the service memory, which the money
// code (package spend) takes alone. It is written even into a gallery
// that cannot save images, unless the database is read-only. Get it with
// Library.Ledger.
type Ledger struct {
	db *sql.DB
	// roErr, when set, is why the database cannot be written.
	roErr error
}

// Kinds of ledger entry: what the request was.
const (
	SpendGenerate = "generate"
	SpendEdit     = "edit"
	SpendChat     = "chat"
)

// Outcomes of a ledger entry: how the request that may have been billed
// ended.
const (
	Billed    = "done"
	Failed    = "failed"
	Cancelled = "cancelled"
)

// Entry is one request that may have been billed: finished, failed after
// the service began, or cancelled while the service worked. It is
// written when the request ends, in one transaction, before its images
// are saved: a kill while they are saved loses no entry.
type Entry struct {
	ID      int64
	At      time.Time
	Profile string
	Model   string
	// Kind is SpendGenerate, SpendEdit or SpendChat; Outcome is Billed,
	// Failed or Cancelled.
	Kind, Outcome string
	Job           string
	// Options are the request's options as JSON (api.ImageOptions for
	// images), for the ledger's reader and the CSV.
	Options json.RawMessage
	// Usage is as the service reported it; nil when it reported none.
	Usage *api.Usage
	// Images is how many pictures came back.
	Images int
	// EstimateLow and EstimateHigh are what Easel said before sending;
	// nil when no price was set.
	EstimateLow, EstimateHigh *float64
	// Cost is what the usage comes to at the profile's prices; nil when
	// it cannot be computed (no usage, or no price).
	Cost     *float64
	Currency string
	// Items are the library items the request made, once saved.
	Items []int64
	// Group is the account group of the key the request went on ("" for
	// the profile's own key).
	Group string
	// Source says where Cost came from: SourceAnswer or SourceGateway.
	Source string
	// Billing is "" for a request billed, MaybeBilled for one that may
	// have been (counted at its estimate).
	Billing string
	// Note is a sentence on the figure, for the spend view ("one-api
	// bills the 2 images asked").
	Note string
	// Corrected is the amount the user set for an entry they found wrong
	// (the bill said otherwise, a poisoned usage); nil when not
	// corrected. Cost and the estimate stay as Easel wrote them, and
	// Correction says why, in the user's words.
	Corrected   *float64
	CorrectedAt time.Time
	Correction  string
	// Settled is what the gateway's own running figure for the key moved
	// by for this request (spend.Settle); nil until it is read. With is
	// how many requests shared the readings (1: exactly its own).
	Settled     *float64
	SettledAt   time.Time
	SettledWith int
}

// Where an entry's cost came from.
const (
	// SourceAnswer: the usage the answer reported, at the profile's
	// prices (list prices unless the user set their own).
	SourceAnswer = "answer"
	// SourceGateway: the usage at the gateway's own prices and the key
	// group's ratio, as the gateway computes its charge.
	SourceGateway = "gateway"
)

// MaybeBilled marks an entry that may have been billed: a request cut
// off, killed or failed after the service began.
const MaybeBilled = "maybe"

// Spent is what the entry counts for in totals and budgets: the user's
// correction, else the gateway's settled figure, else its cost, else the
// top of its estimate (a request that may have been billed is
// counted as if it were), else nothing.
func (e Entry) Spent() (amount float64, estimated bool) {
	switch {
	case e.Corrected != nil:
		return *e.Corrected, false
	case e.Settled != nil:
		return *e.Settled, false
	case e.Cost != nil:
		return *e.Cost, false
	case e.EstimateHigh != nil:
		return *e.EstimateHigh, true
	}
	return 0, false
}

// Written is what Easel itself wrote for the entry, whatever the user
// corrected it to or the gateway settled it at: its cost, else the top
// of its estimate.
func (e Entry) Written() float64 {
	e.Corrected, e.Settled = nil, nil
	amount, _ := e.Spent()
	return amount
}

// spentSQL is Entry.Spent in SQL.
const spentSQL = `COALESCE(corrected, settled, cost, estimate_high, 0)`

// Record writes an entry and returns its id. It is written even into a
// library that cannot save images, unless that library is read-only.
func (l *Ledger) Record(ctx context.Context, e Entry) (int64, error) {
	if l.roErr != nil {
		return 0, l.roErr
	}
	var usage []byte
	if e.Usage != nil {
		usage, _ = json.Marshal(e.Usage)
	}
	if e.At.IsZero() {
		e.At = time.Now()
	}
	var id int64
	err := inTx(ctx, l.db, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO ledger (at_ms, profile, model, kind, outcome, job, options, usage, images, estimate_low, estimate_high, cost, currency, key_group, source, billing, note)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			e.At.UnixMilli(), e.Profile, e.Model, e.Kind, e.Outcome, e.Job, string(e.Options), string(usage), e.Images,
			e.EstimateLow, e.EstimateHigh, e.Cost, e.Currency, e.Group, e.Source, e.Billing, e.Note)
		if err != nil {
			return err
		}
		id, err = res.LastInsertId()
		if err != nil {
			return err
		}
		return insertLedgerItems(ctx, tx, id, e.Items)
	})
	if err != nil {
		return 0, fmt.Errorf(catalogue.T("library: cannot write what the request cost: %w"), err)
	}
	return id, nil
}

// RecordAll writes entries in one transaction: a ledger brought in whole
// (the benchmarks' 100,000 entries) rather than one request at a time.
func (l *Ledger) RecordAll(ctx context.Context, entries []Entry) error {
	if l.roErr != nil {
		return l.roErr
	}
	return inTx(ctx, l.db, func(tx *sql.Tx) error {
		st, err := tx.PrepareContext(ctx, `INSERT INTO ledger (at_ms, profile, model, kind, outcome, job, options, usage, images, estimate_low, estimate_high, cost, currency, key_group, source, billing, note)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer st.Close()
		for _, e := range entries {
			var usage []byte
			if e.Usage != nil {
				usage, _ = json.Marshal(e.Usage)
			}
			if _, err := st.ExecContext(ctx, e.At.UnixMilli(), e.Profile, e.Model, e.Kind, e.Outcome, e.Job, string(e.Options), string(usage), e.Images,
				e.EstimateLow, e.EstimateHigh, e.Cost, e.Currency, e.Group, e.Source, e.Billing, e.Note); err != nil {
				return err
			}
		}
		return nil
	})
}

func insertLedgerItems(ctx context.Context, tx *sql.Tx, entry int64, items []int64) error {
	for _, it := range items {
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO ledger_items (entry, item) VALUES (?, ?)`, entry, it); err != nil {
			return err
		}
	}
	return nil
}

// AttachItems records that entry made items, once they are saved, so the
// gallery's details can say what an image cost.
func (l *Ledger) AttachItems(ctx context.Context, entry int64, items []int64) error {
	if len(items) == 0 || l.roErr != nil {
		return nil
	}
	return inTx(ctx, l.db, func(tx *sql.Tx) error { return insertLedgerItems(ctx, tx, entry, items) })
}

const entryColumns = `id, at_ms, profile, model, kind, outcome, job, options, usage, images, estimate_low, estimate_high, cost, currency, key_group, source, billing, note, corrected, corrected_ms, correction, settled, settled_ms, settled_with`

func scanEntry(row interface{ Scan(...any) error }) (Entry, error) {
	var e Entry
	var at int64
	var options, usage string
	var correctedAt, settledAt int64
	err := row.Scan(&e.ID, &at, &e.Profile, &e.Model, &e.Kind, &e.Outcome, &e.Job, &options, &usage, &e.Images,
		&e.EstimateLow, &e.EstimateHigh, &e.Cost, &e.Currency, &e.Group, &e.Source, &e.Billing, &e.Note,
		&e.Corrected, &correctedAt, &e.Correction, &e.Settled, &settledAt, &e.SettledWith)
	if err != nil {
		return e, err
	}
	e.At = time.UnixMilli(at)
	if e.Corrected != nil {
		e.CorrectedAt = time.UnixMilli(correctedAt)
	}
	if e.Settled != nil {
		e.SettledAt = time.UnixMilli(settledAt)
	}
	if options != "" {
		e.Options = json.RawMessage(options)
	}
	if usage != "" {
		var u api.Usage
		if json.Unmarshal([]byte(usage), &u) == nil {
			e.Usage = &u
		}
	}
	return e, nil
}

// EntryOf is the ledger entry of the request that made item; ok is false
// for an item made before the ledger, imported, or kept from another.
func (l *Ledger) EntryOf(ctx context.Context, item int64) (e Entry, ok bool, err error) {
	e, err = scanEntry(l.db.QueryRowContext(ctx, `SELECT `+entryColumns+` FROM ledger WHERE id = (SELECT entry FROM ledger_items WHERE item = ? LIMIT 1)`, item))
	if err == sql.ErrNoRows {
		return Entry{}, false, nil
	}
	if err != nil {
		return Entry{}, false, err
	}
	return e, true, nil
}

// Entries are the ledger's entries from since on (all when zero), oldest
// first, for the CSV and the command line.
func (l *Ledger) Entries(ctx context.Context, since time.Time) ([]Entry, error) {
	return l.entries(ctx, `at_ms >= ?`, sinceMs(since))
}

// entries are the ledger's entries where where holds, oldest first.
func (l *Ledger) entries(ctx context.Context, where string, args ...any) ([]Entry, error) {
	return l.query(ctx, `SELECT `+entryColumns+` FROM ledger WHERE `+where+` ORDER BY at_ms, id`, args...)
}

// query reads the entries a SELECT of entryColumns gives.
func (l *Ledger) query(ctx context.Context, sql string, args ...any) ([]Entry, error) {
	rows, err := l.db.QueryContext(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

func sinceMs(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// SpentSince is what profile has spent in currency from since on:
// today's or this month's spend, for the budget and the status bar.
func (l *Ledger) SpentSince(ctx context.Context, profile, currency string, since time.Time) (float64, error) {
	var v float64
	err := l.db.QueryRowContext(ctx, `SELECT COALESCE(SUM(`+spentSQL+`), 0) FROM ledger WHERE profile = ? AND currency = ? AND at_ms >= ?`,
		profile, currency, sinceMs(since)).Scan(&v)
	return v, err
}

// Periods a spend total can be cut by.
const (
	ByDay   = "day"
	ByWeek  = "week"
	ByMonth = "month"
)

// Groups a spend total can be split by, within its period.
const (
	ByModel   = "model"
	ByProfile = "profile"
	ByKind    = "kind"
)

// SpendQuery asks for totals: per Period (ByDay, ByWeek, ByMonth or ""
// for one total), split by Group (ByModel, ByProfile, ByKind or "" for
// none), from Since on, in local time.
type SpendQuery struct {
	Period, Group string
	Since         time.Time
	// Profile, when set, keeps only that profile's entries.
	Profile string
}

// Total is one cell of the spend: a period's (its first day, "2026-11-24";
// "" for all time) total for one group, in one currency.
type Total struct {
	Period, Group, Currency string
	Amount                  float64
	// Estimated is the part of Amount that is an estimate (a request
	// whose usage was not reported).
	Estimated float64
	Requests  int
	Images    int
	// Settled is how many of the requests the gateway's own figure for
	// the key settled (spend.Settle); the rest are Easel's figures until
	// it does, or for good on a service that keeps no figure per key.
	Settled int
}

// periodSQL is the first day of each period of at_ms in local time
// (weeks start on Monday).
var periodSQL = map[string]string{
	"":      `''`,
	ByDay:   `date(at_ms / 1000, 'unixepoch', 'localtime')`,
	ByWeek:  `date(at_ms / 1000, 'unixepoch', 'localtime', 'weekday 0', '-6 days')`,
	ByMonth: `date(at_ms / 1000, 'unixepoch', 'localtime', 'start of month')`,
}

var groupSQL = map[string]string{"": `''`, ByModel: `model`, ByProfile: `profile`, ByKind: `kind`}

// Spend sums the ledger: one Total per period, group and currency, by
// period then amount (largest first).
func (l *Ledger) Spend(ctx context.Context, q SpendQuery) ([]Total, error) {
	period, ok := periodSQL[q.Period]
	group, ok2 := groupSQL[q.Group]
	if !ok || !ok2 {
		return nil, fmt.Errorf(catalogue.T("library: no spend by %q and %q"), q.Period, q.Group)
	}
	where := []string{`at_ms >= ?`}
	args := []any{sinceMs(q.Since)}
	if q.Profile != "" {
		where = append(where, `profile = ?`)
		args = append(args, q.Profile)
	}
	// #nosec G202 -- built from fixed fragments; every value is a ? argument
	rows, err := l.db.QueryContext(ctx, `SELECT `+period+` AS p, `+group+` AS g, currency,
			SUM(`+spentSQL+`), SUM(CASE WHEN corrected IS NULL AND settled IS NULL AND cost IS NULL THEN COALESCE(estimate_high, 0) ELSE 0 END), COUNT(*), SUM(images),
			SUM(CASE WHEN corrected IS NULL AND settled IS NOT NULL THEN 1 ELSE 0 END)
		FROM ledger WHERE `+strings.Join(where, ` AND `)+`
		GROUP BY p, g, currency ORDER BY p, 4 DESC, g`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Total
	for rows.Next() {
		var t Total
		if err := rows.Scan(&t.Period, &t.Group, &t.Currency, &t.Amount, &t.Estimated, &t.Requests, &t.Images, &t.Settled); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// Balance is a profile's balance as its service last reported it.
type Balance struct {
	// Reported is false for a service that does not report one: it is
	// not asked again.
	Reported     bool
	Credit, Used float64
	Checked      time.Time
}

// Left is what remains.
func (b Balance) Left() float64 { return b.Credit - b.Used }

// SetBalance remembers what the service said of the balance of
// profile's key of group (a gateway reports each key's own).
func (l *Ledger) SetBalance(ctx context.Context, profile, group string, b Balance) error {
	if l.roErr != nil {
		return l.roErr
	}
	_, err := l.db.ExecContext(ctx, `INSERT INTO balances (profile, key_group, reported, credit, used, checked_ms) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (profile, key_group) DO UPDATE SET reported = excluded.reported, credit = excluded.credit, used = excluded.used, checked_ms = excluded.checked_ms`,
		profile, group, b.Reported, b.Credit, b.Used, b.Checked.UnixMilli())
	return err
}

// BalanceOf is what the service last said of the balance of profile's
// key of group; ok is false when it was never asked.
func (l *Ledger) BalanceOf(ctx context.Context, profile, group string) (b Balance, ok bool, err error) {
	var ms int64
	err = l.db.QueryRowContext(ctx, `SELECT reported, credit, used, checked_ms FROM balances WHERE profile = ? AND key_group = ?`, profile, group).Scan(&b.Reported, &b.Credit, &b.Used, &ms)
	if err == sql.ErrNoRows {
		return Balance{}, false, nil
	}
	if err != nil {
		return Balance{}, false, err
	}
	b.Checked = time.UnixMilli(ms)
	return b, true, nil
}

// ForgetBalance forgets what profile's service said of its keys'
// balances and figures, so they are asked again (Settings, after a
// service adds the endpoints).
func (l *Ledger) ForgetBalance(ctx context.Context, profile string) error {
	if l.roErr != nil {
		return l.roErr
	}
	return inTx(ctx, l.db, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM balances WHERE profile = ?`, profile); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM key_slots WHERE profile = ?`, profile); err != nil {
			return err
		}
		// Facts no slot reads any more go with the last one.
		_, err := tx.ExecContext(ctx, `DELETE FROM key_facts WHERE NOT EXISTS
			(SELECT 1 FROM key_slots s WHERE s.base_url = key_facts.base_url AND s.key_id = key_facts.key_id)`)
		return err
	})
}

// SetGatewayFacts keeps what the gateway said of money for profile's key
// of group, under the gateway and the key the facts name (f.BaseURL,
// f.KeyID): every profile that uses that key reads and writes the same
// facts. Facts that name neither are the slot's alone.
func (l *Ledger) SetGatewayFacts(ctx context.Context, profile, group string, f gateway.Facts) error {
	if l.roErr != nil {
		return l.roErr
	}
	data, err := json.Marshal(f)
	if err != nil {
		return err
	}
	base, key := factsKey(profile, group, f)
	return inTx(ctx, l.db, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO key_facts (base_url, key_id, facts, checked_ms) VALUES (?, ?, ?, ?)
			ON CONFLICT (base_url, key_id) DO UPDATE SET facts = excluded.facts, checked_ms = excluded.checked_ms`,
			base, key, string(data), f.Checked.UnixMilli()); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO key_slots (profile, key_group, base_url, key_id) VALUES (?, ?, ?, ?)
			ON CONFLICT (profile, key_group) DO UPDATE SET base_url = excluded.base_url, key_id = excluded.key_id`,
			profile, group, base, key)
		return err
	})
}

// factsKey is what facts are kept under: the gateway and the key they
// name, else their slot alone.
func factsKey(profile, group string, f gateway.Facts) (base, key string) {
	if f.BaseURL != "" && f.KeyID != "" {
		return f.BaseURL, f.KeyID
	}
	return "", "slot:" + profile + "\x1f" + group
}

// GatewayFacts is what the gateway last said of money for profile's key
// of group (the key it was last read with); ok is false when it was never
// asked (or what was kept cannot be read: it is asked again).
func (l *Ledger) GatewayFacts(ctx context.Context, profile, group string) (f gateway.Facts, ok bool, err error) {
	return l.facts(ctx, `SELECT k.facts FROM key_slots s JOIN key_facts k ON k.base_url = s.base_url AND k.key_id = s.key_id
		WHERE s.profile = ? AND s.key_group = ?`, profile, group)
}

// FactsOfKey is what the gateway at baseURL last said of money for the
// key keyID, whichever profile read it: a second profile on the same key
// starts from them rather than asking the gateway's console again.
func (l *Ledger) FactsOfKey(ctx context.Context, baseURL, keyID string) (f gateway.Facts, ok bool, err error) {
	if baseURL == "" || keyID == "" {
		return gateway.Facts{}, false, nil
	}
	return l.facts(ctx, `SELECT facts FROM key_facts WHERE base_url = ? AND key_id = ?`, baseURL, keyID)
}

func (l *Ledger) facts(ctx context.Context, query string, args ...any) (f gateway.Facts, ok bool, err error) {
	var data string
	err = l.db.QueryRowContext(ctx, query, args...).Scan(&data)
	if err == sql.ErrNoRows {
		return gateway.Facts{}, false, nil
	}
	if err != nil {
		return gateway.Facts{}, false, err
	}
	if json.Unmarshal([]byte(data), &f) != nil {
		return gateway.Facts{}, false, nil
	}
	return f, true, nil
}

// HasBilled reports whether profile's key of group has a billed request
// in the ledger since since: a key that worked, for the words of a later
// refusal.
func (l *Ledger) HasBilled(ctx context.Context, profile, group string, since time.Time) (bool, error) {
	var n int
	err := l.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM ledger WHERE profile = ? AND key_group = ? AND outcome = ? AND at_ms >= ?`,
		profile, group, Billed, sinceMs(since)).Scan(&n)
	return n > 0, err
}

// Entry is ledger entry id; ok is false when there is none.
func (l *Ledger) Entry(ctx context.Context, id int64) (e Entry, ok bool, err error) {
	e, err = scanEntry(l.db.QueryRowContext(ctx, `SELECT `+entryColumns+` FROM ledger WHERE id = ?`, id))
	if err == sql.ErrNoRows {
		return Entry{}, false, nil
	}
	return e, err == nil, err
}

// EntryOfJob is the ledger entry of job; ok is false when it has none.
func (l *Ledger) EntryOfJob(ctx context.Context, job string) (e Entry, ok bool, err error) {
	e, err = scanEntry(l.db.QueryRowContext(ctx, `SELECT `+entryColumns+` FROM ledger WHERE job = ? ORDER BY id DESC LIMIT 1`, job))
	if err == sql.ErrNoRows {
		return Entry{}, false, nil
	}
	return e, err == nil, err
}

// Unsure are the entries that may have been billed (counted at their
// estimate) from since on, oldest first: what the spend view lists apart.
func (l *Ledger) Unsure(ctx context.Context, since time.Time) ([]Entry, error) {
	return l.entries(ctx, `billing = ? AND corrected IS NULL AND settled IS NULL AND at_ms >= ?`, MaybeBilled, sinceMs(since))
}

// ToCheck are the entries of profile ("" for every profile) from since on that a person should
// look at, newest first: figures Easel marked (a note: an impossible
// usage counted at its estimate, a gateway's way of billing), requests
// that may have been billed, those already corrected, with the
// correction, and those the gateway's own figure settled more than 2 %
// away from what Easel wrote. At most limit.
func (l *Ledger) ToCheck(ctx context.Context, profile string, since time.Time, limit int) ([]Entry, error) {
	return l.query(ctx, `SELECT `+entryColumns+` FROM ledger
		WHERE (profile = ? OR ? = '') AND at_ms >= ? AND (note != '' OR billing != '' OR corrected IS NOT NULL
			OR settled IS NOT NULL AND ABS(settled - COALESCE(cost, estimate_high, 0)) > 0.02 * settled)
		ORDER BY at_ms DESC, id DESC LIMIT ?`, profile, profile, sinceMs(since), limit)
}

// MaxCorrection is the largest amount a correction may set: more than any
// request costs, and small enough that no sum of them overflows a budget.
const MaxCorrection = 1e6

// Correct sets the amount entry id counts for, in its own currency, with
// why (the user's words), keeping what Easel wrote beside it. A second
// correction replaces the first. The amount must be a number from 0 (not
// billed after all) to MaxCorrection.
func (l *Ledger) Correct(ctx context.Context, id int64, amount float64, why string, at time.Time) error {
	if l.roErr != nil {
		return l.roErr
	}
	if math.IsNaN(amount) || amount < 0 || amount > MaxCorrection {
		return fmt.Errorf(catalogue.T("a correction is an amount from 0 to %s"), strconv.FormatFloat(MaxCorrection, 'f', -1, 64))
	}
	if r := []rune(why); len(r) > 500 {
		why = string(r[:500])
	}
	return inTx(ctx, l.db, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE ledger SET corrected = ?, corrected_ms = ?, correction = ? WHERE id = ?`, amount, at.UnixMilli(), why, id)
		if err != nil {
			return fmt.Errorf(catalogue.T("library: cannot write what the request cost: %w"), err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf(catalogue.T("the ledger has no entry %d"), id)
		}
		return nil
	})
}

// Uncorrect takes an entry's correction back: it counts as Easel wrote it.
func (l *Ledger) Uncorrect(ctx context.Context, id int64) error {
	if l.roErr != nil {
		return l.roErr
	}
	return inTx(ctx, l.db, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE ledger SET corrected = NULL, corrected_ms = 0, correction = '' WHERE id = ?`, id)
		return err
	})
}

// SpentByKey is what profile's key of group has spent in currency, all
// time: billed, and what may have been billed (at its estimates).
func (l *Ledger) SpentByKey(ctx context.Context, profile, group, currency string) (billed, unsure float64, err error) {
	err = l.db.QueryRowContext(ctx, `SELECT COALESCE(SUM(CASE WHEN billing = '' OR corrected IS NOT NULL OR settled IS NOT NULL THEN `+spentSQL+` ELSE 0 END), 0),
			COALESCE(SUM(CASE WHEN billing != '' AND corrected IS NULL AND settled IS NULL THEN `+spentSQL+` ELSE 0 END), 0)
		FROM ledger WHERE profile = ? AND key_group = ? AND currency = ?`, profile, group, currency).Scan(&billed, &unsure)
	return billed, unsure, err
}

// PerPicture is what a picture of model cost in currency in the
// requests the ledger holds as billed with a known cost (the user's
// correction, the gateway's settlement or the answer's usage; never an
// estimate): the lowest, the highest, and over how many requests. What
// an estimate without a per-picture price shows beside the model's
// token rate.
func (l *Ledger) PerPicture(ctx context.Context, model, currency string) (low, high float64, n int, err error) {
	var lo, hi sql.NullFloat64
	err = l.db.QueryRowContext(ctx, `SELECT MIN(c), MAX(c), COUNT(*) FROM (SELECT COALESCE(corrected, settled, cost) / images AS c FROM ledger
		WHERE model = ? AND currency = ? AND kind != ? AND outcome = ? AND images > 0 AND COALESCE(corrected, settled, cost) IS NOT NULL
		ORDER BY at_ms DESC LIMIT 200)`, model, currency, SpendChat, Billed).Scan(&lo, &hi, &n)
	return lo.Float64, hi.Float64, n, err
}

// Unsettled are the entries in currency written after since and up to
// until, not yet settled nor corrected, oldest first, of profile's key of
// group and of every other profile's slot last read with the same key:
// what one pair of the gateway's readings for the key covers, whichever
// profile sent them.
func (l *Ledger) Unsettled(ctx context.Context, profile, group, currency string, since, until time.Time) ([]Entry, error) {
	return l.query(ctx, `SELECT `+entryColumns+` FROM ledger
		WHERE (profile = ? AND key_group = ? OR (profile, key_group) IN (SELECT o.profile, o.key_group FROM key_slots o
			JOIN key_slots s ON o.base_url = s.base_url AND o.key_id = s.key_id
			WHERE s.profile = ? AND s.key_group = ? AND s.base_url != ''))
		AND currency = ? AND at_ms > ? AND at_ms <= ? AND settled IS NULL AND corrected IS NULL
		ORDER BY at_ms, id`, profile, group, profile, group, currency, since.UnixMilli(), until.UnixMilli())
}

// Settle sets each of the entries ids to its amount, as the gateway's
// own figure for the key settled it, with how many shared the readings.
func (l *Ledger) Settle(ctx context.Context, amounts map[int64]float64, with int, at time.Time) error {
	if l.roErr != nil {
		return l.roErr
	}
	return inTx(ctx, l.db, func(tx *sql.Tx) error {
		for id, v := range amounts {
			if math.IsNaN(v) || v < 0 || v > MaxCorrection {
				continue // a figure no request costs is not a settlement
			}
			if _, err := tx.ExecContext(ctx, `UPDATE ledger SET settled = ?, settled_ms = ?, settled_with = ? WHERE id = ? AND corrected IS NULL`,
				v, at.UnixMilli(), with, id); err != nil {
				return fmt.Errorf(catalogue.T("library: cannot write what the request cost: %w"), err)
			}
		}
		return nil
	})
}
