package library

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"easel/internal/api"
	"easel/internal/atomicfile"
)

// Item is one image in the gallery.
type Item struct {
	ID int64
	// File is the image's path inside the library folder.
	File          string
	Format        string
	Width, Height int
	SizeBytes     int64
	// Kind is "generate", "edit" or "recovered".
	Kind          string
	Prompt        string
	RevisedPrompt string
	Model         string
	Profile       string
	// Params are every request option, as sent.
	Params                                 Params
	InputTokens, OutputTokens, TotalTokens int64
	Created                                time.Time
	Duration                               time.Duration
	JobID, RequestID                       string
	Favorite                               bool
	// Parents are the library items an edit started from, in order.
	Parents []int64
}

// Params are the request's settings, kept so "reuse settings" can fill
// the form again.
type Params struct {
	api.ImageOptions
	InputFidelity string `json:",omitempty"`
	HasMask       bool   `json:",omitempty"`
}

// NewItem is what a finished job hands to Add.
type NewItem struct {
	Image     api.Image
	Kind      string
	Prompt    string
	Model     string
	Profile   string
	Params    Params
	Usage     *api.Usage
	Created   time.Time
	Duration  time.Duration
	JobID     string
	RequestID string
	Parents   []int64
}

const tmpSuffix = atomicfile.TempSuffix

// Add stores one image: the file first (temporary name, synced, renamed),
// then its row. It returns the new item's id.
func (l *Library) Add(ctx context.Context, n NewItem) (int64, error) {
	if len(n.Image.Data) == 0 {
		return 0, errors.New("library: no image bytes")
	}
	created := n.Created
	if created.IsZero() || created.Unix() <= 0 {
		created = time.Now()
	}
	rel, err := l.writeImage(n.Image.Data, n.Image.Format, created)
	if err != nil {
		return 0, err
	}
	params, _ := json.Marshal(n.Params)
	var in, out, total int64
	if n.Usage != nil {
		in, out, total = n.Usage.InputTokens, n.Usage.OutputTokens, n.Usage.TotalTokens
	}
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("library: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit this is a no-op
	res, err := tx.ExecContext(ctx, `INSERT INTO items (file, format, width, height, size_bytes, kind, prompt, revised_prompt,
		model, profile, params, input_tokens, output_tokens, total_tokens, created_ms, duration_ms, job_id, request_id)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		rel, n.Image.Format, n.Image.Width, n.Image.Height, len(n.Image.Data), n.Kind, n.Prompt, n.Image.RevisedPrompt,
		n.Model, n.Profile, string(params), in, out, total, created.UnixMilli(), n.Duration.Milliseconds(), n.JobID, n.RequestID)
	if err != nil {
		return 0, fmt.Errorf("library: cannot record the image: %w", err)
	}
	id, _ := res.LastInsertId()
	for i, p := range n.Parents {
		if _, err := tx.ExecContext(ctx, `INSERT INTO parents (item, position, parent) VALUES (?, ?, ?)`, id, i, p); err != nil {
			return 0, fmt.Errorf("library: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("library: cannot record the image: %w", err)
	}
	return id, nil
}

// writeImage writes data under images/YYYY-MM/ and returns its path
// relative to the library.
func (l *Library) writeImage(data []byte, format string, created time.Time) (string, error) {
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	ext := format
	if ext == "jpeg" {
		ext = "jpg"
	}
	if ext == "" {
		ext = "bin"
	}
	month := created.Format("2006-01")
	rel := filepath.ToSlash(filepath.Join("images", month, fmt.Sprintf("%s-%s.%s", created.Format("20060102-150405"), hex.EncodeToString(rnd[:]), ext)))
	if err := atomicfile.Write(filepath.Join(l.root, rel), data); err != nil {
		return "", fmt.Errorf("library: cannot save the image: %w", err)
	}
	return rel, nil
}

// adopt records a finished file that has no row (a crash came between the
// rename and the commit): its bytes are kept, its settings are lost.
func (l *Library) adopt(ctx context.Context, rel string) error {
	data, err := os.ReadFile(filepath.Join(l.root, rel))
	if err != nil {
		return err
	}
	format, w, h, err := api.SniffImage(data)
	if err != nil { // not an image: nothing worth keeping
		return os.Remove(filepath.Join(l.root, rel))
	}
	info, err := os.Stat(filepath.Join(l.root, rel))
	if err != nil {
		return fmt.Errorf("library: cannot look at %s: %w", rel, err)
	}
	_, err = l.db.ExecContext(ctx, `INSERT INTO items (file, format, width, height, size_bytes, kind, prompt, created_ms)
		VALUES (?, ?, ?, ?, ?, 'recovered', '', ?)`, rel, format, w, h, len(data), info.ModTime().UnixMilli())
	return err
}

const itemColumns = `id, file, format, width, height, size_bytes, kind, prompt, revised_prompt, model, profile, params,
	input_tokens, output_tokens, total_tokens, created_ms, duration_ms, job_id, request_id, favorite`

func scanItem(sc interface{ Scan(...any) error }) (Item, error) {
	var it Item
	var params string
	var created, dur int64
	err := sc.Scan(&it.ID, &it.File, &it.Format, &it.Width, &it.Height, &it.SizeBytes, &it.Kind, &it.Prompt, &it.RevisedPrompt,
		&it.Model, &it.Profile, &params, &it.InputTokens, &it.OutputTokens, &it.TotalTokens, &created, &dur, &it.JobID, &it.RequestID, &it.Favorite)
	if err != nil {
		return it, err
	}
	_ = json.Unmarshal([]byte(params), &it.Params)
	it.Created = time.UnixMilli(created)
	it.Duration = time.Duration(dur) * time.Millisecond
	return it, nil
}

// ErrNotFound is returned for an id the library does not hold.
var ErrNotFound = errors.New("library: no such image")

// Get returns one item with its parents.
func (l *Library) Get(ctx context.Context, id int64) (Item, error) {
	it, err := scanItem(l.db.QueryRowContext(ctx, `SELECT `+itemColumns+` FROM items WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return it, ErrNotFound
	}
	if err != nil {
		return it, fmt.Errorf("library: %w", err)
	}
	rows, err := l.db.QueryContext(ctx, `SELECT parent FROM parents WHERE item = ? ORDER BY position`, id)
	if err != nil {
		return it, fmt.Errorf("library: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var p int64
		if err := rows.Scan(&p); err != nil {
			return it, err
		}
		it.Parents = append(it.Parents, p)
	}
	return it, rows.Err()
}

// Path is the absolute path of an item's image file.
func (l *Library) Path(it Item) string { return filepath.Join(l.root, filepath.FromSlash(it.File)) }

// Query selects items for the gallery.
type Query struct {
	// Search matches words of the prompt (prefixes too).
	Search string
	// Favorites keeps only favourites.
	Favorites bool
	// Limit and Offset page through the result, newest first.
	Limit, Offset int
}

func (q Query) where() (string, []any) {
	var conds []string
	var args []any
	if m := ftsQuery(q.Search); m != "" {
		conds = append(conds, `id IN (SELECT rowid FROM items_fts WHERE items_fts MATCH ?)`)
		args = append(args, m)
	}
	if q.Favorites {
		conds = append(conds, `favorite = 1`)
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// ftsQuery turns what the user typed into an FTS5 query: every word must
// appear, as a prefix, and nothing typed can be FTS5 syntax.
func ftsQuery(s string) string {
	var terms []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool {
		return !(r == '_' || r == '-' || r > 127 || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) {
		terms = append(terms, `"`+strings.ReplaceAll(w, `"`, `""`)+`"*`)
	}
	return strings.Join(terms, " ")
}

// List returns a page of items, newest first.
func (l *Library) List(ctx context.Context, q Query) ([]Item, error) {
	where, args := q.where()
	limit := q.Limit
	if limit <= 0 {
		limit = 100
	}
	args = append(args, limit, q.Offset)
	rows, err := l.db.QueryContext(ctx, `SELECT `+itemColumns+` FROM items`+where+` ORDER BY created_ms DESC, id DESC LIMIT ? OFFSET ?`, args...)
	if err != nil {
		return nil, fmt.Errorf("library: %w", err)
	}
	defer rows.Close()
	var out []Item
	for rows.Next() {
		it, err := scanItem(rows)
		if err != nil {
			return nil, fmt.Errorf("library: %w", err)
		}
		out = append(out, it)
	}
	return out, rows.Err()
}

// Count is how many items match q (Limit and Offset are ignored).
func (l *Library) Count(ctx context.Context, q Query) (int, error) {
	where, args := q.where()
	var n int
	err := l.db.QueryRowContext(ctx, `SELECT count(*) FROM items`+where, args...).Scan(&n)
	return n, err
}

// SetFavorite marks or unmarks an item.
func (l *Library) SetFavorite(ctx context.Context, id int64, fav bool) error {
	res, err := l.db.ExecContext(ctx, `UPDATE items SET favorite = ? WHERE id = ?`, fav, id)
	if err != nil {
		return fmt.Errorf("library: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// Delete removes an item's row, then its file and thumbnail. Edits made
// from it keep their own images.
func (l *Library) Delete(ctx context.Context, id int64) error {
	it, err := l.Get(ctx, id)
	if err != nil {
		return err
	}
	if _, err := l.db.ExecContext(ctx, `DELETE FROM items WHERE id = ?`, id); err != nil {
		return fmt.Errorf("library: %w", err)
	}
	_ = os.Remove(l.thumbPath(it))
	if err := os.Remove(l.Path(it)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("library: the image was removed from the gallery but its file stays: %w", err)
	}
	return nil
}
