package library

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"easel/internal/catalogue"
)

// Lineage is how pictures came from each other: the items an edit was
// made from (its parents), and the threads a designer iterates in. A
// thread starts from a picture (generated, edited or imported); each edit
// that continues a picture of it is a turn after that picture's turn, and
// an edit from an earlier turn starts a branch beside the later ones.
type Lineage struct {
	db    *sql.DB
	roErr error
	items func(ctx context.Context, query string, args ...any) ([]Item, error)
}

// Lineage is how pictures came from each other (see Lineage).
func (l *Library) Lineage() *Lineage { return l.lineage }

// Children are the items made from item id (its edits, its kept twin),
// newest first.
func (l *Lineage) Children(ctx context.Context, id int64) ([]Item, error) {
	return l.items(ctx, `SELECT `+itemColumns+` FROM items WHERE deleted_ms IS NULL
		AND id IN (SELECT item FROM parents WHERE parent = ?) ORDER BY created_ms DESC, id DESC LIMIT 100`, id)
}

// Turn is one step of a thread: the picture it made and the turn it
// continued.
type Turn struct {
	// Item is the picture the turn made; Thread the picture the thread
	// started from (the start's Item); Parent the turn it continued (0
	// for the start).
	Item, Thread, Parent int64
	// Way is how it was sent (WayImages, WayResponses; "" for the
	// start), Note why not the way asked, Response the Responses API's
	// id of its answer.
	Way, Note, Response string
	// Drift is the share (0–1) of the parent's picture the service
	// changed outside the marks (everywhere, without a mask); nil when
	// it could not be measured.
	Drift   *float64
	Created time.Time
	// Number is the turn's place in its thread, from 1 (the start), in
	// the order the turns were made; set by Thread.
	Number int
}

// Numbers are the turns' places by their pictures: what a turn's
// "after N" names, its parent's number.
func Numbers(turns []Turn) map[int64]int {
	number := make(map[int64]int, len(turns))
	for _, t := range turns {
		number[t.Item] = t.Number
	}
	return number
}

// DriftPercent is the drift in whole percent, as every place says it;
// 0 when it was not measured.
func (t Turn) DriftPercent() int {
	if t.Drift == nil {
		return 0
	}
	return int(*t.Drift*100 + 0.5)
}

// WaySaid is how the turn went, in words, as the card, the gallery and
// the command line say it: in the service's conversation, why not when
// the service ruled it out, or what was done here; "" for the start
// and a plain edit.
func (t Turn) WaySaid() string {
	switch {
	case t.Way == WayResponses && t.Note != "":
		return catalogue.T("sent in the service's conversation") + " (" + t.Note + ")"
	case t.Way == WayResponses:
		return catalogue.T("sent in the service's conversation")
	}
	return t.Note
}

// The ways a turn is sent. The values are stored: never renamed.
const (
	// WayImages: an edit of the parent's picture through the Images API.
	WayImages = "images"
	// WayResponses: the Responses API's image tool, the service keeping
	// the conversation (previous_response_id).
	WayResponses = "responses"
	// WayRestored: made on this machine, nothing sent: a painted area
	// taken back from an earlier turn (saver.Restore).
	WayRestored = "restored"
)

// KindRestored is the kind of a picture made by taking a painted area
// back from an earlier turn of its thread.
const KindRestored = "restored"

// maxThread bounds the turns read of one thread: a designer's day of
// iterating is far fewer.
const maxThread = 1000

// AddTurn records t, a turn after t.Parent's picture. A parent not yet
// in a thread starts one: its own turn, the start. t.Thread and
// t.Created are filled in.
func (l *Lineage) AddTurn(ctx context.Context, t Turn) error {
	if l.roErr != nil {
		return l.roErr
	}
	if t.Created.IsZero() {
		t.Created = time.Now()
	}
	return inTx(ctx, l.db, func(tx *sql.Tx) error {
		var thread int64
		err := tx.QueryRowContext(ctx, `SELECT thread FROM turns WHERE item = ?`, t.Parent).Scan(&thread)
		if errors.Is(err, sql.ErrNoRows) {
			var created int64
			if err := tx.QueryRowContext(ctx, `SELECT created_ms FROM items WHERE id = ?`, t.Parent).Scan(&created); err != nil {
				return fmt.Errorf(catalogue.T("library: the picture continued (%d): %w"), t.Parent, err)
			}
			thread = t.Parent
			if _, err := tx.ExecContext(ctx, `INSERT INTO turns (item, thread, created_ms) VALUES (?, ?, ?)`, thread, thread, created); err != nil {
				return err
			}
		} else if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO turns (item, thread, parent, way, note, response, drift, created_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (item) DO NOTHING`,
			t.Item, thread, t.Parent, t.Way, t.Note, t.Response, t.Drift, t.Created.UnixMilli())
		return err
	})
}

// StartThread records item, made through the Responses API as answer
// response, as the start of a thread the service keeps: the first turn
// after it names response (previous_response_id) rather than starting a
// conversation from its picture. A picture already in a thread is left
// as it is.
func (l *Lineage) StartThread(ctx context.Context, item int64, response string) error {
	if l.roErr != nil {
		return l.roErr
	}
	_, err := l.db.ExecContext(ctx, `INSERT INTO turns (item, thread, way, response, created_ms)
		SELECT id, id, ?, ?, created_ms FROM items WHERE id = ? ON CONFLICT (item) DO NOTHING`, WayResponses, response, item)
	return err
}

// Thread is every turn of the thread item belongs to, numbered in the
// order they were made (the start first); nil when item is in none. A
// turn whose picture is in the trash is left out (a turn after it names
// it as its parent still).
func (l *Lineage) Thread(ctx context.Context, item int64) ([]Turn, error) {
	rows, err := l.db.QueryContext(ctx, `SELECT item, thread, COALESCE(parent, 0), way, note, response, drift, created_ms FROM turns
		WHERE thread = (SELECT thread FROM turns WHERE item = ?) AND item IN (SELECT id FROM items WHERE deleted_ms IS NULL)
		ORDER BY created_ms, item LIMIT ?`, item, maxThread)
	if err != nil {
		return nil, fmt.Errorf("library: %w", err)
	}
	defer rows.Close()
	var out []Turn
	for rows.Next() {
		var t Turn
		var created int64
		if err := rows.Scan(&t.Item, &t.Thread, &t.Parent, &t.Way, &t.Note, &t.Response, &t.Drift, &created); err != nil {
			return nil, fmt.Errorf("library: %w", err)
		}
		t.Created, t.Number = time.UnixMilli(created), len(out)+1
		out = append(out, t)
	}
	return out, rows.Err()
}

// ResponseOf is the Responses API's id of the answer item's turn came
// from: what the next turn names as previous_response_id; "" when the
// turn went another way or item is in no thread.
func (l *Lineage) ResponseOf(ctx context.Context, item int64) (string, error) {
	var id string
	err := l.db.QueryRowContext(ctx, `SELECT response FROM turns WHERE item = ?`, item).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return id, err
}

// ItemOf is the gallery's picture holding exactly data (a file Easel
// wrote, wherever it was copied); ok is false when none does.
func (l *Lineage) ItemOf(ctx context.Context, data []byte) (id int64, ok bool, err error) {
	sum := sha256.Sum256(data)
	err = l.db.QueryRowContext(ctx, `SELECT id FROM items WHERE sha256 = ? AND deleted_ms IS NULL ORDER BY id LIMIT 1`, hex.EncodeToString(sum[:])).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return id, err == nil, err
}
