package library

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gofrs/flock"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/markup"
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
	// Continues is the picture the edit continues (jobs.Request's).
	Continues int64
	// KeepFrame is where the user's picture sits in a padded first
	// input (see jobs.Keep); nil for none.
	KeepFrame *image.Rectangle
	// Owner is "" for the window's job, OwnerCLI for the command line's,
	// whose process holds the job's lock (HoldJob) while it is out.
	Owner string
	// Group is the account group of the key it went on.
	Group string `json:"-"`
	// Arrived are the images that had arrived when the job was cut off
	// (KeepArrived): paid for, to be put in the gallery.
	Arrived []api.Image `json:"-"`
}

// Options are the job's image options, whichever kind it is.
func (j Journalled) Options() api.ImageOptions {
	if j.Edit != nil {
		return j.Edit.ImageOptions
	}
	if j.Generate != nil {
		return j.Generate.ImageOptions
	}
	return api.ImageOptions{}
}

// OwnerCLI marks a job the command line sent.
const OwnerCLI = "cli"

// Journal is the record of image jobs under way: each is written down
// before it is sent (Begin) and struck off once its images are kept
// (End), so a kill or a close leaves its line for the next start
// (Interrupted); what had arrived of it is kept beside it (KeepArrived).
// It shares the library's database and folder, and keeps an edit's
// inputs in the library's store.
type Journal struct {
	db   *sql.DB
	root string
	// saveErr is why nothing may be written now (the library's).
	saveErr func() error
	// storeInput keeps an input file in the library's store, by content;
	// path is an item's file.
	storeInput func(Input) (storedRef, error)
	path       func(Item) string
	// storing holds, by job, a channel closed once a journalled edit's
	// reference files are in the store (storeLater); stores counts them.
	storing sync.Map
	stores  sync.WaitGroup
}

// inTx runs f in a transaction of the library's database.
func (l *Journal) inTx(ctx context.Context, f func(*sql.Tx) error) error { return inTx(ctx, l.db, f) }

// journalRequest is a journalled job's row, without its input files.
type journalRequest struct {
	Kind          string
	Prompt        string
	Options       api.ImageOptions
	InputFidelity string `json:",omitempty"`
	Parents       []int64
	Continues     int64            `json:",omitempty"`
	KeepFeather   *int             `json:",omitempty"`
	KeepFrame     *image.Rectangle `json:",omitempty"`
	Group         string           `json:",omitempty"`
}

// Begin writes a job down before it is sent. An edit's inputs are kept
// by content, as an item's are.
func (l *Journal) Begin(ctx context.Context, j Journalled) error {
	if l.saveErr() != nil {
		return l.saveErr()
	}
	r := journalRequest{Kind: "generate", Parents: j.Parents, Continues: j.Continues, KeepFeather: j.KeepFeather, KeepFrame: j.KeepFrame, Group: j.Group}
	var refs []storedRef
	var later []placedInput
	switch {
	case j.Generate != nil:
		r.Prompt, r.Options = j.Generate.Prompt, j.Generate.ImageOptions
	case j.Edit != nil:
		r.Kind, r.Prompt, r.Options, r.InputFidelity = "edit", j.Edit.Prompt, j.Edit.ImageOptions, j.Edit.InputFidelity
		// What Easel made (a padded first image, a mask) is kept now;
		// the user's own files, which are still where they were, are
		// copied in while the request goes out (storeLater).
		for _, p := range placeInputs(EditInputs(j.Edit)) {
			if p.in.Data == nil && p.in.Path != "" {
				later = append(later, p)
				continue
			}
			ref, err := l.storeInput(p.in)
			if err != nil {
				return err
			}
			ref.Role, ref.Position = p.role, p.pos
			refs = append(refs, ref)
		}
	default:
		return errors.New(catalogue.T("library: a journalled job needs a request"))
	}
	row, _ := json.Marshal(r)
	err := l.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO journal (job, profile, request, started_ms, owner) VALUES (?, ?, ?, ?, ?)`,
			j.Job, j.Profile, string(row), j.Started.UnixMilli(), j.Owner); err != nil {
			return err
		}
		return journalRefs(ctx, tx, j.Job, refs)
	})
	if err == nil && len(later) > 0 {
		l.storeLater(j.Job, later)
	}
	return err
}

// journalRefs links a journalled job's stored inputs inside tx.
func journalRefs(ctx context.Context, tx *sql.Tx, job string, refs []storedRef) error {
	for _, ref := range refs {
		if err := recordInput(ctx, tx, ref); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO journal_inputs (job, role, position, hash, name) VALUES (?, ?, ?, ?, ?)`,
			job, ref.Role, ref.Position, ref.Hash, ref.Name); err != nil {
			return err
		}
	}
	return nil
}

// storeLater copies a journalled edit's reference files into the store
// and links them to its job, while the request goes out: hashing and
// copying 800 MB before the upload began would hold the upload back by
// a third. A kill before they are linked loses only the way to send the
// job again, at a moment when the service had not the whole request.
// End and Close wait for it.
func (l *Journal) storeLater(job string, later []placedInput) {
	done := make(chan struct{})
	l.storing.Store(job, done)
	l.stores.Go(func() {
		defer func() {
			l.storing.Delete(job)
			close(done)
		}()
		for _, p := range later {
			ref, err := l.storeInput(p.in)
			if err == nil {
				ref.Role, ref.Position = p.role, p.pos
				err = l.inTx(context.Background(), func(tx *sql.Tx) error { return journalRefs(context.Background(), tx, job, []storedRef{ref}) })
			}
			if err != nil {
				slog.Warn("journal: a reference could not be kept to send again", "job", job, "input", p.in.Name, "err", err)
			}
		}
	})
}

// stored waits until job's references are in the store.
func (l *Journal) stored(job string) {
	if done, ok := l.storing.Load(job); ok {
		<-done.(chan struct{})
	}
}

// End crosses a job out of the journal: it finished, failed or was
// cancelled, and the window said so.
func (l *Journal) End(ctx context.Context, job string) error {
	if l.saveErr() != nil {
		return nil
	}
	l.stored(job)
	_, err := l.db.ExecContext(ctx, `DELETE FROM journal WHERE job = ?`, job)
	if err == nil {
		l.dropArrived(job)
	}
	return err
}

// Interrupted takes the jobs whose end was never recorded out of the
// journal and returns them, oldest first, with their inputs read back:
// the window lists each once, at the start after the kill or close. A
// job whose input files are gone comes back as far as they allow. A
// command line's job whose process is still at work is left alone.
func (l *Journal) Interrupted(ctx context.Context) ([]Journalled, error) {
	if l.saveErr() != nil {
		return nil, nil
	}
	out, err := l.cutOff(ctx, `1 = 1`)
	if err != nil {
		return nil, err
	}
	return out, l.drop(ctx, out)
}

// Orphans are the command line's jobs a kill cut off that no run has told
// of yet: each is returned once (then marked told) for the next run to
// say, and stays in the journal for `easel jobs` and the window.
func (l *Journal) Orphans(ctx context.Context) ([]Journalled, error) {
	if l.saveErr() != nil {
		return nil, nil
	}
	out, err := l.cutOff(ctx, `owner = '`+OwnerCLI+`' AND noticed_ms IS NULL`)
	if err != nil {
		return nil, err
	}
	now := time.Now().UnixMilli()
	for _, j := range out {
		if _, err := l.db.ExecContext(ctx, `UPDATE journal SET noticed_ms = ? WHERE job = ?`, now, j.Job); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// CutOff are the command line's jobs a kill cut off, told of or not,
// and the requests ended batches did not bring, oldest first, left in
// the journal: what `easel jobs` lists.
func (l *Journal) CutOff(ctx context.Context) ([]Journalled, error) {
	return l.cutOff(ctx, `owner IN ('`+OwnerCLI+`', '`+OwnerBatch+`')`)
}

// drop crosses jobs out of the journal.
// Their arrived images stay until the caller has put them in the
// gallery (DropArrived): the bytes read back are all there is of them.
func (l *Journal) drop(ctx context.Context, jobs []Journalled) error {
	for _, j := range jobs {
		if _, err := l.db.ExecContext(ctx, `DELETE FROM journal WHERE job = ?`, j.Job); err != nil {
			return err
		}
	}
	return nil
}

// DropArrived removes the images that arrived before job was cut off,
// once they are in the gallery.
func (l *Journal) DropArrived(job string) { l.dropArrived(job) }

// cutOff reads the journal's jobs that match where and whose process is
// gone. A row this Easel cannot read is crossed out.
func (l *Journal) cutOff(ctx context.Context, where string) ([]Journalled, error) {
	// #nosec G202 -- built from fixed fragments; every value is a ? argument
	rows, err := l.db.QueryContext(ctx, `SELECT job, profile, request, started_ms, owner FROM journal WHERE `+where+` ORDER BY started_ms`)
	if err != nil {
		return nil, err
	}
	var out []Journalled
	var unreadable []string
	for rows.Next() {
		var j Journalled
		var row string
		var started int64
		if err := rows.Scan(&j.Job, &j.Profile, &row, &started, &j.Owner); err != nil {
			_ = rows.Close()
			return nil, err
		}
		if !j.read(row, started) {
			unreadable = append(unreadable, j.Job)
			continue
		}
		if l.atWork(j) {
			continue
		}
		out = append(out, j)
	}
	_ = rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, job := range unreadable {
		if err := l.End(ctx, job); err != nil {
			return nil, err
		}
	}
	for i := range out {
		if out[i].Edit != nil {
			if err := l.journalInputs(ctx, &out[i]); err != nil {
				return nil, err
			}
		}
		out[i].Arrived = l.arrived(out[i].Job)
	}
	return out, nil
}

// read fills j from its journal row; false for a row this Easel cannot
// read.
func (j *Journalled) read(row string, started int64) bool {
	var r journalRequest
	if json.Unmarshal([]byte(row), &r) != nil {
		return false
	}
	j.Started, j.Parents, j.KeepFeather, j.KeepFrame, j.Group = time.UnixMilli(started), r.Parents, r.KeepFeather, r.KeepFrame, r.Group
	j.Continues = r.Continues
	if r.Kind == "edit" {
		j.Edit = &api.EditRequest{Prompt: r.Prompt, ImageOptions: r.Options, InputFidelity: r.InputFidelity}
	} else {
		j.Generate = &api.GenerateRequest{Prompt: r.Prompt, ImageOptions: r.Options}
	}
	return true
}

// Entry is job as the journal holds it, with its inputs read back, at
// work or not: a batch's request, when its answer has come.
func (l *Journal) Entry(ctx context.Context, job string) (Journalled, error) {
	j := Journalled{Job: job}
	var row string
	var started int64
	err := l.db.QueryRowContext(ctx, `SELECT profile, request, started_ms, owner FROM journal WHERE job = ?`, job).Scan(&j.Profile, &row, &started, &j.Owner)
	if err != nil {
		return Journalled{}, err
	}
	if !j.read(row, started) {
		return Journalled{}, errors.New(catalogue.T("library: a journalled job this Easel cannot read"))
	}
	if j.Edit != nil {
		if err := l.journalInputs(ctx, &j); err != nil {
			return Journalled{}, err
		}
	}
	return j, nil
}

// HoldJob takes the lock of a command line's job for as long as its
// process has it out: the lock goes with the process, however it ends,
// so another process can tell a job at work from one a kill cut off.
func (l *Journal) HoldJob(job string) (release func(), err error) {
	if err := os.MkdirAll(filepath.Join(l.root, "journal"), 0o700); err != nil {
		return nil, err
	}
	fl := l.jobLock(job)
	ok, err := fl.TryLock()
	if err != nil || !ok {
		return nil, fmt.Errorf(catalogue.T("library: cannot hold job %s: %v"), job, err)
	}
	return func() {
		_ = fl.Unlock()
		_ = os.Remove(fl.Path())
	}, nil
}

func (l *Journal) jobLock(job string) *flock.Flock {
	return flock.New(filepath.Join(l.root, "journal", filepath.Base(job)+".lock"), flock.SetPermissions(0o600))
}

// atWork reports whether j is still at work: a request of a batch that
// has not ended; a command line's job whose process still holds it. Only a command
// line's job has a process of its own to ask.
func (l *Journal) atWork(j Journalled) bool {
	if j.Owner == OwnerBatch {
		return l.Batches().inBatchAtWork(j.Job)
	}
	if j.Owner != OwnerCLI {
		return false
	}
	fl := l.jobLock(j.Job)
	ok, err := fl.TryLock()
	if err != nil || !ok {
		return err == nil
	}
	_ = fl.Unlock()
	_ = os.Remove(fl.Path())
	return false
}

// journalInputs reads an interrupted edit's images and mask back.
func (l *Journal) journalInputs(ctx context.Context, j *Journalled) error {
	rows, err := l.db.QueryContext(ctx, `SELECT ji.role, ji.name, i.file, i.format FROM journal_inputs ji JOIN inputs i ON i.hash = ji.hash
		WHERE ji.job = ? ORDER BY ji.role = 'mask', ji.role = 'marks', ji.position`, j.Job)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var role, name, file, format string
		if err := rows.Scan(&role, &name, &file, &format); err != nil {
			return err
		}
		full := l.path(Item{File: file})
		if role != RoleMask && role != RoleMarks {
			// A reference is sent again from the stored file, as the
			// first time from the user's, never held whole.
			if st, err := os.Stat(full); err == nil {
				in := api.InputImage{Name: name, ContentType: "image/" + format, Path: full, Size: st.Size()}
				j.Edit.Images = append(j.Edit.Images, in)
			}
			continue
		}
		data, err := os.ReadFile(full)
		if err != nil {
			continue
		}
		in := api.InputImage{Name: name, ContentType: http.DetectContentType(data), Data: data}
		if role == RoleMask {
			j.Edit.Mask = &in
		} else {
			j.Edit.Markup = &in
			if alpha, err := markup.AlphaPNG(data); err == nil {
				j.Edit.MarkupAlpha = &api.InputImage{Name: "markup_alpha.png", ContentType: "image/png", Data: alpha}
			}
		}
	}
	return rows.Err()
}
