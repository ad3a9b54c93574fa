// Package prompts is the prompt library: the prompts that worked and the
// styles a designer adds to any prompt (a style is text put before or
// after it), kept in the gallery's database so they travel with it,
// searched like the gallery, ranked by use, and exported or imported as
// JSON to share them.
package prompts

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"easel/internal/batch"
	"easel/internal/catalogue"
	"easel/internal/library"
)

// Kind says how an entry is used.
type Kind string

const (
	// Prompt replaces the prompt it is used in.
	Prompt Kind = "prompt"
	// Style is added to the prompt it is used in, before or after it.
	Style Kind = "style"
)

// Placement is where a style goes.
type Placement string

const (
	Before Placement = "before"
	After  Placement = "after"
)

// Entry is one kept prompt or style.
type Entry struct {
	ID        int64     `json:"-"`
	Kind      Kind      `json:"kind"`
	Name      string    `json:"name,omitempty"`
	Text      string    `json:"text"`
	Placement Placement `json:"placement,omitempty"`
	Favorite  bool      `json:"favorite,omitempty"`
	// Source says where it was kept from ("gallery item 12", "chat"),
	// for the designer's memory.
	Source   string    `json:"source,omitempty"`
	Created  time.Time `json:"created"`
	LastUsed time.Time `json:"-"`
	Uses     int       `json:"-"`
}

// Vars are the {variables} the entry's text names, which a batch fills.
func (e Entry) Vars() []string { return batch.Vars(e.Text) }

// Title is the entry's name, or the start of its text.
func (e Entry) Title() string {
	if e.Name != "" {
		return e.Name
	}
	r := []rune(strings.Join(strings.Fields(e.Text), " "))
	if len(r) > 60 {
		return string(r[:59]) + "…"
	}
	return string(r)
}

// Apply is prompt with style s added where it goes; a prompt entry
// replaces it.
func (e Entry) Apply(prompt string) string {
	prompt = strings.TrimSpace(prompt)
	switch {
	case e.Kind != Style:
		return e.Text
	case prompt == "":
		return e.Text
	case e.Placement == Before:
		return e.Text + " " + prompt
	default:
		return joinSentence(prompt, e.Text)
	}
}

// joinSentence puts b after a, with a comma when a ends without a stop.
func joinSentence(a, b string) string {
	if strings.ContainsAny(a[len(a)-1:], ".,;:!?，。；：！？") {
		return a + " " + b
	}
	return a + ", " + b
}

// MaxText bounds one entry's text: a prompt, not a book.
const MaxText = 32 << 10

// Store is the library's prompts.
type Store struct{ db *sql.DB }

// Open is the prompt library of lib (schema 9 and later).
func Open(lib *library.Library) *Store { return &Store{db: lib.DB()} }

// Save adds e, or updates it when it has an ID, and returns its ID.
func (s *Store) Save(ctx context.Context, e Entry) (int64, error) {
	e.Text = strings.TrimSpace(e.Text)
	if e.Text == "" {
		return 0, errors.New(catalogue.T("an empty prompt is not kept"))
	}
	if len(e.Text) > MaxText {
		return 0, fmt.Errorf(catalogue.T("the prompt is %d KiB, more than the library keeps (%d KiB)"), len(e.Text)>>10, MaxText>>10)
	}
	if e.Kind != Style {
		e.Kind = Prompt
	}
	if e.Placement != Before {
		e.Placement = After
	}
	if e.Created.IsZero() {
		e.Created = time.Now()
	}
	if e.ID != 0 {
		_, err := s.db.ExecContext(ctx, `UPDATE prompts SET kind = ?, name = ?, text = ?, placement = ?, favorite = ?, source = ? WHERE id = ?`,
			e.Kind, e.Name, e.Text, e.Placement, e.Favorite, e.Source, e.ID)
		return e.ID, err
	}
	r, err := s.db.ExecContext(ctx, `INSERT INTO prompts (kind, name, text, placement, favorite, source, created_ms) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		e.Kind, e.Name, e.Text, e.Placement, e.Favorite, e.Source, e.Created.UnixMilli())
	if err != nil {
		return 0, err
	}
	return r.LastInsertId()
}

// Delete removes an entry.
func (s *Store) Delete(ctx context.Context, id int64) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM prompts WHERE id = ?`, id)
	return err
}

// Used counts one use of an entry: the most used come first.
func (s *Store) Used(ctx context.Context, id int64) error {
	_, err := s.db.ExecContext(ctx, `UPDATE prompts SET uses = uses + 1, used_ms = ? WHERE id = ?`, time.Now().UnixMilli(), id)
	return err
}

// Query is what List looks for.
type Query struct {
	// Search is words the name or text holds, as the gallery searches.
	Search string
	// Favorites keeps favourites only; Kind keeps one kind ("" both).
	Favorites bool
	Kind      Kind
	Limit     int
}

// List returns the entries q asks for: favourites first, then the most
// used, then the newest.
func (s *Store) List(ctx context.Context, q Query) ([]Entry, error) {
	conds, args := []string{"1"}, []any{}
	for _, t := range library.SearchTerms(q.Search) {
		c, a := library.TermCondition(t, "prompts_fts", `(name || ' ' || text)`)
		conds, args = append(conds, c), append(args, a)
	}
	if q.Favorites {
		conds = append(conds, `favorite = 1`)
	}
	if q.Kind != "" {
		conds, args = append(conds, `kind = ?`), append(args, q.Kind)
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 500
	}
	// #nosec G202 -- built from fixed fragments; every value is a ? argument
	rows, err := s.db.QueryContext(ctx, `SELECT id, kind, name, text, placement, favorite, source, created_ms, used_ms, uses FROM prompts WHERE `+
		strings.Join(conds, " AND ")+` ORDER BY favorite DESC, uses DESC, created_ms DESC, id DESC LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		var e Entry
		var created, used int64
		if err := rows.Scan(&e.ID, &e.Kind, &e.Name, &e.Text, &e.Placement, &e.Favorite, &e.Source, &created, &used, &e.Uses); err != nil {
			return nil, err
		}
		e.Created = time.UnixMilli(created)
		if used > 0 {
			e.LastUsed = time.UnixMilli(used)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// file is the library as exported: a version, so a later Easel can read
// an older file.
type file struct {
	Easel   string  `json:"easel"`
	Version int     `json:"version"`
	Entries []Entry `json:"prompts"`
}

// Export writes every entry as JSON.
func (s *Store) Export(ctx context.Context, w io.Writer) (int, error) {
	all, err := s.List(ctx, Query{Limit: 1 << 20})
	if err != nil {
		return 0, err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return len(all), enc.Encode(file{Easel: "prompt library", Version: 1, Entries: all})
}

// MaxImport bounds an imported file.
const MaxImport = 16 << 20

// Import adds a file's entries, skipping those already kept (the same
// kind and text); it returns how many were added and skipped. A file that
// is not a prompt library changes nothing.
func (s *Store) Import(ctx context.Context, r io.Reader) (added, skipped int, err error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxImport+1))
	if err != nil {
		return 0, 0, err
	}
	if len(data) > MaxImport {
		return 0, 0, fmt.Errorf(catalogue.T("the file is over %d MiB: not a prompt library"), MaxImport>>20)
	}
	var f file
	if err := json.Unmarshal(data, &f); err != nil || f.Version < 1 {
		return 0, 0, errors.New(catalogue.T("the file is not a prompt library exported by Easel"))
	}
	have, err := s.List(ctx, Query{Limit: 1 << 20})
	if err != nil {
		return 0, 0, err
	}
	seen := map[string]bool{}
	for _, e := range have {
		seen[string(e.Kind)+"\x00"+e.Text] = true
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit this is a no-op
	for _, e := range f.Entries {
		e.Text = strings.TrimSpace(e.Text)
		if e.Kind != Style {
			e.Kind = Prompt
		}
		k := string(e.Kind) + "\x00" + e.Text
		if e.Text == "" || len(e.Text) > MaxText || seen[k] {
			skipped++
			continue
		}
		if e.Placement != Before {
			e.Placement = After
		}
		if e.Created.IsZero() {
			e.Created = time.Now()
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO prompts (kind, name, text, placement, favorite, source, created_ms) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			e.Kind, e.Name, e.Text, e.Placement, e.Favorite, e.Source, e.Created.UnixMilli()); err != nil {
			return 0, 0, err
		}
		seen[k] = true
		added++
	}
	return added, skipped, tx.Commit()
}
