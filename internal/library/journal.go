package library

import (
	"context"
	"database/sql"
	"easel/internal/catalogue"
	"encoding/json"
	"errors"
	"image"
	"net/http"
	"os"
	"time"

	"easel/internal/api"
)

// Journalled is an image job written down before it was sent: its
// prompt, settings, inputs and lineage. A job whose end is never
// recorded was cut off by a kill or a close while the service worked on
// it (and may have charged for it): the next start lists it as
// interrupted, with a Retry.
type Journalled struct {
	Job     string
	Profile string
	Started time.Time
	// Exactly one of Generate and Edit is set; an edit's images and mask
	// are stored in the library (by content), read back by Interrupted.
	Generate *api.GenerateRequest
	Edit     *api.EditRequest
	// Parents and KeepFeather are the job's lineage and, when it kept
	// the unmasked area, its feather.
	Parents     []int64
	KeepFeather *int
	// KeepFrame is where the user's picture sits in a padded first
	// input (see jobs.Keep); nil for none.
	KeepFrame *image.Rectangle
}

// journalRequest is a journalled job's row, without its input files.
type journalRequest struct {
	Kind          string
	Prompt        string
	Options       api.ImageOptions
	InputFidelity string `json:",omitempty"`
	Parents       []int64
	KeepFeather   *int             `json:",omitempty"`
	KeepFrame     *image.Rectangle `json:",omitempty"`
}

// Begin writes a job down before it is sent. An edit's inputs are kept
// by content, as an item's are.
func (l *Library) Begin(ctx context.Context, j Journalled) error {
	if l.saveErr != nil {
		return l.saveErr
	}
	r := journalRequest{Kind: "generate", Parents: j.Parents, KeepFeather: j.KeepFeather, KeepFrame: j.KeepFrame}
	var refs []storedRef
	switch {
	case j.Generate != nil:
		r.Prompt, r.Options = j.Generate.Prompt, j.Generate.ImageOptions
	case j.Edit != nil:
		r.Kind, r.Prompt, r.Options, r.InputFidelity = "edit", j.Edit.Prompt, j.Edit.ImageOptions, j.Edit.InputFidelity
		var err error
		if refs, err = l.storeInputs(EditInputs(j.Edit)); err != nil {
			return err
		}
	default:
		return errors.New(catalogue.T("library: a journalled job needs a request"))
	}
	row, _ := json.Marshal(r)
	return l.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO journal (job, profile, request, started_ms) VALUES (?, ?, ?, ?)`,
			j.Job, j.Profile, string(row), j.Started.UnixMilli()); err != nil {
			return err
		}
		for _, ref := range refs {
			if err := recordInput(ctx, tx, ref); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO journal_inputs (job, role, position, hash, name) VALUES (?, ?, ?, ?, ?)`,
				j.Job, ref.Role, ref.Position, ref.Hash, ref.Name); err != nil {
				return err
			}
		}
		return nil
	})
}

// End crosses a job out of the journal: it finished, failed or was
// cancelled, and the window said so.
func (l *Library) End(ctx context.Context, job string) error {
	if l.saveErr != nil {
		return nil
	}
	_, err := l.db.ExecContext(ctx, `DELETE FROM journal WHERE job = ?`, job)
	return err
}

// Interrupted takes the jobs whose end was never recorded out of the
// journal and returns them, oldest first, with their inputs read back:
// the window lists each once, at the start after the kill or close. A
// job whose input files are gone comes back as far as they allow.
func (l *Library) Interrupted(ctx context.Context) ([]Journalled, error) {
	if l.saveErr != nil {
		return nil, nil
	}
	rows, err := l.db.QueryContext(ctx, `SELECT job, profile, request, started_ms FROM journal ORDER BY started_ms`)
	if err != nil {
		return nil, err
	}
	var out []Journalled
	for rows.Next() {
		var j Journalled
		var row string
		var started int64
		if err := rows.Scan(&j.Job, &j.Profile, &row, &started); err != nil {
			rows.Close()
			return nil, err
		}
		var r journalRequest
		if json.Unmarshal([]byte(row), &r) != nil {
			continue // a row this Easel cannot read: dropped below
		}
		j.Started, j.Parents, j.KeepFeather, j.KeepFrame = time.UnixMilli(started), r.Parents, r.KeepFeather, r.KeepFrame
		if r.Kind == "edit" {
			j.Edit = &api.EditRequest{Prompt: r.Prompt, ImageOptions: r.Options, InputFidelity: r.InputFidelity}
		} else {
			j.Generate = &api.GenerateRequest{Prompt: r.Prompt, ImageOptions: r.Options}
		}
		out = append(out, j)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		if out[i].Edit != nil {
			if err := l.journalInputs(ctx, &out[i]); err != nil {
				return nil, err
			}
		}
	}
	if _, err := l.db.ExecContext(ctx, `DELETE FROM journal`); err != nil {
		return nil, err
	}
	return out, nil
}

// journalInputs reads an interrupted edit's images and mask back.
func (l *Library) journalInputs(ctx context.Context, j *Journalled) error {
	rows, err := l.db.QueryContext(ctx, `SELECT ji.role, ji.name, i.file FROM journal_inputs ji JOIN inputs i ON i.hash = ji.hash
		WHERE ji.job = ? ORDER BY ji.role = 'mask', ji.position`, j.Job)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var role, name, file string
		if err := rows.Scan(&role, &name, &file); err != nil {
			return err
		}
		data, err := os.ReadFile(l.Path(Item{File: file}))
		if err != nil {
			continue
		}
		in := api.InputImage{Name: name, ContentType: http.DetectContentType(data), Data: data}
		if role == RoleMask {
			j.Edit.Mask = &in
		} else {
			j.Edit.Images = append(j.Edit.Images, in)
		}
	}
	return rows.Err()
}
