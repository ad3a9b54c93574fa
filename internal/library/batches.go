package library

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// OwnerBatch marks a journalled job that went into a batch of the Batch
// API: it is at work while its batch is, and what the batch did not
// bring is listed, with a resend, once the batch has ended.
const OwnerBatch = "batch"

// The states of a batch's request.
const (
	BatchWaiting = ""
	BatchLanded  = "landed"
	BatchFailed  = "failed"
)

// BatchRecord is a batch as Easel keeps it: what it was made of and what
// the service last said of it.
type BatchRecord struct {
	ID, Profile, Group, Model, Endpoint, InputFile string
	Status                                         string
	Total, Completed, Failed                       int
	Label, Owner                                   string
	// Out is the folder the command line writes the pictures into too.
	Out                       string
	Created, Expires, Checked time.Time
	// Ended is when everything the batch will bring was in the gallery;
	// zero while it is at work.
	Ended time.Time
}

// BatchRequest is one request of a batch: its line's custom_id and the
// journal entry that holds it.
type BatchRequest struct {
	CustomID, Job, State, Error string
}

// BatchBook keeps the batches sent through the Batch API, from the moment
// each is made: a restart, a kill or a closed laptop finds them here and
// goes on waiting. It shares the library's database.
type BatchBook struct {
	db *sql.DB
}

// Batches is the book of batches sent through the Batch API.
func (l *Journal) Batches() *BatchBook { return &BatchBook{db: l.db} }

// Add keeps a batch the service has just made, with its requests (each
// already in the journal, owned by OwnerBatch).
func (b *BatchBook) Add(ctx context.Context, r BatchRecord, reqs []BatchRequest) error {
	return inTx(ctx, b.db, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO batches (id, profile, key_group, model, endpoint, input_file, status, total, completed, failed, label, owner, out, created_ms, expires_ms, checked_ms)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			r.ID, r.Profile, r.Group, r.Model, r.Endpoint, r.InputFile, r.Status, r.Total, r.Completed, r.Failed, r.Label, r.Owner, r.Out,
			r.Created.UnixMilli(), r.Expires.UnixMilli(), time.Now().UnixMilli()); err != nil {
			return err
		}
		for _, q := range reqs {
			if _, err := tx.ExecContext(ctx, `INSERT INTO batch_requests (batch, custom_id, job) VALUES (?, ?, ?)`, r.ID, q.CustomID, q.Job); err != nil {
				return err
			}
		}
		return nil
	})
}

// Checked keeps what the service said of batch id now.
func (b *BatchBook) Checked(ctx context.Context, id, status string, total, completed, failed int) error {
	_, err := b.db.ExecContext(ctx, `UPDATE batches SET status = ?, total = ?, completed = ?, failed = ?, checked_ms = ? WHERE id = ?`,
		status, total, completed, failed, time.Now().UnixMilli(), id)
	return err
}

// Settle marks one request of batch id as landed (its pictures are in
// the gallery) or failed, with the service's words.
func (b *BatchBook) Settle(ctx context.Context, id, customID, state, why string) error {
	_, err := b.db.ExecContext(ctx, `UPDATE batch_requests SET state = ?, error = ? WHERE batch = ? AND custom_id = ?`, state, why, id, customID)
	return err
}

// End marks batch id as ended: all it brought is in the gallery, and its
// requests still in the journal are listed with a resend.
func (b *BatchBook) End(ctx context.Context, id string) error {
	_, err := b.db.ExecContext(ctx, `UPDATE batches SET ended_ms = ? WHERE id = ? AND ended_ms IS NULL`, time.Now().UnixMilli(), id)
	return err
}

// ErrNoBatch is a batch the book does not hold.
var ErrNoBatch = errors.New("library: no such batch")

// Get is batch id as kept.
func (b *BatchBook) Get(ctx context.Context, id string) (BatchRecord, error) {
	out, err := b.list(ctx, `WHERE id = ?`, id)
	if err != nil {
		return BatchRecord{}, err
	}
	if len(out) == 0 {
		return BatchRecord{}, ErrNoBatch
	}
	return out[0], nil
}

// Pending are the batches at work, oldest first: what a start, `easel
// jobs` and `easel jobs --wait` go on waiting for.
func (b *BatchBook) Pending(ctx context.Context) ([]BatchRecord, error) {
	return b.list(ctx, `WHERE ended_ms IS NULL`)
}

// Recent are the newest batches, at work or ended, newest first.
func (b *BatchBook) Recent(ctx context.Context, limit int) ([]BatchRecord, error) {
	out, err := b.list(ctx, `WHERE 1 = 1`)
	if err != nil {
		return nil, err
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out[:min(len(out), limit)], nil
}

func (b *BatchBook) list(ctx context.Context, where string, args ...any) ([]BatchRecord, error) {
	// #nosec G202 -- built from fixed fragments; every value is a ? argument
	rows, err := b.db.QueryContext(ctx, `SELECT id, profile, key_group, model, endpoint, input_file, status, total, completed, failed, label, owner, out,
		created_ms, expires_ms, checked_ms, COALESCE(ended_ms, 0) FROM batches `+where+` ORDER BY created_ms, id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []BatchRecord
	for rows.Next() {
		var r BatchRecord
		var created, expires, checked, ended int64
		if err := rows.Scan(&r.ID, &r.Profile, &r.Group, &r.Model, &r.Endpoint, &r.InputFile, &r.Status, &r.Total, &r.Completed, &r.Failed,
			&r.Label, &r.Owner, &r.Out, &created, &expires, &checked, &ended); err != nil {
			return nil, err
		}
		r.Created, r.Expires, r.Checked = time.UnixMilli(created), time.UnixMilli(expires), time.UnixMilli(checked)
		if ended > 0 {
			r.Ended = time.UnixMilli(ended)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Requests are batch id's requests, in the order they were sent.
func (b *BatchBook) Requests(ctx context.Context, id string) ([]BatchRequest, error) {
	rows, err := b.db.QueryContext(ctx, `SELECT custom_id, job, state, error FROM batch_requests WHERE batch = ? ORDER BY rowid`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []BatchRequest
	for rows.Next() {
		var q BatchRequest
		if err := rows.Scan(&q.CustomID, &q.Job, &q.State, &q.Error); err != nil {
			return nil, err
		}
		out = append(out, q)
	}
	return out, rows.Err()
}

// inBatchAtWork reports whether job is a request of a batch that has not
// ended.
func (b *BatchBook) inBatchAtWork(job string) bool {
	var n int
	err := b.db.QueryRow(`SELECT COUNT(*) FROM batch_requests q JOIN batches b ON b.id = q.batch WHERE q.job = ? AND b.ended_ms IS NULL`, job).Scan(&n)
	return err == nil && n > 0
}

// LeftBy is why a request of an ended batch was not made, in the
// service's words, "" when it is not one.
func (b *BatchBook) LeftBy(ctx context.Context, job string) (batch, why string) {
	_ = b.db.QueryRowContext(ctx, `SELECT q.batch, q.error FROM batch_requests q WHERE q.job = ?`, job).Scan(&batch, &why)
	return batch, why
}
