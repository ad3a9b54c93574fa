package library

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"easel/internal/api"
	"easel/internal/atomicfile"
	"easel/internal/catalogue"
	"easel/internal/honesty"
	"easel/internal/imageio"
)

// Item is one image in the gallery.
type Item struct {
	ID int64
	// File is the image's path inside the library folder.
	File          string
	Format        string
	Width, Height int
	SizeBytes     int64
	// Kind is "generate", "edit", "kept" (an edit's result with the
	// unmasked area put back), "cutout" (a background keyed out on this
	// machine), "imported" or "recovered".
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
	// Honesty is what the answer did of what was asked (schema 6 on):
	// the card's sentences, kept with the image.
	Honesty honesty.Report
	// SourceName is the name of the file an imported picture came from
	// (schema 18 on), "" for one Easel made and for older imports: a
	// picture without a prompt is called by it.
	SourceName string
	// Missing is set when the image's file is not where the row says
	// (moved, deleted by hand, a drive not mounted): the row is kept, with
	// its prompt, until the user locates the file or removes the item.
	Missing bool
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
	// Inputs are the images an edit sent, in order, and Mask its mask:
	// stored with the result (each file once, by its content), so the
	// result shows what it was made from even when the files are gone.
	Inputs []Input
	Mask   *Input
	// Honesty is the answer measured against the request.
	Honesty honesty.Report
	// SourceName is the name of the file an import came from.
	SourceName string
	// Picture, when the saver has the image's pixels decoded already
	// (a masked edit's result, its kept composite), makes the thumbnail
	// now rather than by decoding the file again when it is first shown.
	Picture image.Image
}

const tmpSuffix = atomicfile.TempSuffix

// maxSourceName bounds a kept file name, in bytes: a file system's own
// limit, which no real name passes.
const maxSourceName = 255

// sourceName is what is kept of the name of the file at path: its last
// element alone (the folders may name the user), valid UTF-8 with no
// control characters, at most maxSourceName bytes, cut at a character.
func sourceName(path string) string {
	name := path[strings.LastIndexAny(path, `/\`)+1:]
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(name, ""))
	for len(name) > maxSourceName {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	return strings.TrimSpace(name)
}

// pendingItem is everything a row records but the file's size: written
// as JSON to the pending table before the file, so recovery after a kill
// can record the image with its prompt and settings.
type pendingItem struct {
	Format                                 string
	Width, Height                          int
	Kind, Prompt, RevisedPrompt            string
	Model, Profile                         string
	Params                                 Params
	InputTokens, OutputTokens, TotalTokens int64
	CreatedMs, DurationMs                  int64
	JobID, RequestID                       string
	Parents                                []int64
	// Inputs are the stored inputs and mask to link (schema 3 on).
	Inputs []storedRef `json:",omitempty"`
	// Sha256 is the image's content hash (schema 5 on).
	Sha256 string `json:",omitempty"`
	// Honesty is the answer measured against the request (schema 6 on).
	Honesty *honesty.Report `json:",omitempty"`
	// Credentials is what the file carries of Content Credentials
	// (schema 12 on; "" is read later).
	Credentials string `json:",omitempty"`
	// SourceName is the name of the file an import came from (schema
	// 18 on).
	SourceName string `json:",omitempty"`
}

// Plausible times: a service's created time outside them (a year 10000,
// 1970) would name folders and fix the gallery's order for ever.
var earliest = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

// plausible is created, or the local clock when created is unset or
// implausible (before 2020, or more than two days ahead).
func plausible(created time.Time) time.Time {
	now := time.Now()
	if created.Before(earliest) || created.After(now.Add(48*time.Hour)) {
		return now
	}
	return created
}

// Add stores one image: its prompt and settings as a pending record, then
// the file (temporary name, synced, renamed), then its row in place of the
// pending record. It returns the new item's id.
func (l *Library) Add(ctx context.Context, n NewItem) (int64, error) {
	if l.saveErr != nil {
		return 0, l.saveErr
	}
	if len(n.Image.Data) == 0 {
		return 0, errors.New(catalogue.T("library: no image bytes"))
	}
	created := plausible(n.Created)
	var err error
	p := pendingItem{Format: n.Image.Format, Width: n.Image.Width, Height: n.Image.Height, Kind: n.Kind, Prompt: n.Prompt,
		RevisedPrompt: n.Image.RevisedPrompt, Model: n.Model, Profile: n.Profile, Params: n.Params,
		CreatedMs: created.UnixMilli(), DurationMs: n.Duration.Milliseconds(), JobID: n.JobID, RequestID: n.RequestID, Parents: n.Parents,
		Credentials: credentialsOf(n.Image.Data), SourceName: sourceName(n.SourceName)}
	if u := n.Usage; u != nil {
		p.InputTokens, p.OutputTokens, p.TotalTokens = u.InputTokens, u.OutputTokens, u.TotalTokens
	}
	if len(n.Honesty.Checks) > 0 {
		p.Honesty = &n.Honesty
	}
	sum := sha256.Sum256(n.Image.Data)
	p.Sha256 = hex.EncodeToString(sum[:])
	if p.Inputs, err = l.inputs.storeInputs(n.Inputs, n.Mask); err != nil {
		return 0, err
	}
	rel := l.newName(n.Image.Format, created)
	meta, _ := json.Marshal(p)
	if _, err := l.db.ExecContext(ctx, `INSERT INTO pending (file, item, created_ms) VALUES (?, ?, ?)`, rel, string(meta), time.Now().UnixMilli()); err != nil {
		return 0, fmt.Errorf(catalogue.T("library: cannot record the image: %w"), err)
	}
	var thumb <-chan []byte
	if n.Picture != nil {
		thumb = render(n.Picture, imageio.SpaceOf(n.Image.Data))
	}
	if err := atomicfile.Write(filepath.Join(l.root, filepath.FromSlash(rel)), n.Image.Data); err != nil {
		_, _ = l.db.ExecContext(context.WithoutCancel(ctx), `DELETE FROM pending WHERE file = ?`, rel)
		return 0, fmt.Errorf(catalogue.T("library: cannot save the image: %w"), err)
	}
	var id int64
	err = l.inTx(ctx, func(tx *sql.Tx) (err error) {
		id, err = insertItem(ctx, tx, rel, int64(len(n.Image.Data)), p)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf(catalogue.T("library: cannot record the image: %w"), err)
	}
	if thumb != nil {
		l.thumbnails.put(Item{File: rel}, thumb)
	}
	return id, nil
}

// record turns a pending record whose file is finished into a row.
func (l *Library) record(ctx context.Context, rel string, size int64, p pendingItem) error {
	return l.inTx(ctx, func(tx *sql.Tx) error {
		_, err := insertItem(ctx, tx, rel, size, p)
		return err
	})
}

func (l *Library) inTx(ctx context.Context, f func(*sql.Tx) error) error {
	return inTx(ctx, l.db, f)
}

// inTx runs f in a transaction of db, committed when f succeeds.
func inTx(ctx context.Context, db *sql.DB, f func(*sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit this is a no-op
	if err := f(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// insertItem writes an item's row and its parents and drops its pending
// record, inside tx.
func insertItem(ctx context.Context, tx *sql.Tx, rel string, size int64, p pendingItem) (int64, error) {
	params, _ := json.Marshal(p.Params)
	var sha any
	if p.Sha256 != "" {
		sha = p.Sha256
	}
	report := ""
	if p.Honesty != nil {
		b, _ := json.Marshal(p.Honesty)
		report = string(b)
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO items (file, format, width, height, size_bytes, kind, prompt, revised_prompt,
		model, profile, params, input_tokens, output_tokens, total_tokens, created_ms, duration_ms, job_id, request_id, sha256, honesty, credentials,
		source_name)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		rel, p.Format, p.Width, p.Height, size, p.Kind, p.Prompt, p.RevisedPrompt,
		p.Model, p.Profile, string(params), p.InputTokens, p.OutputTokens, p.TotalTokens, p.CreatedMs, p.DurationMs, p.JobID, p.RequestID, sha, report,
		p.Credentials, p.SourceName)
	if err != nil {
		return 0, err
	}
	id, _ := res.LastInsertId()
	for i, parent := range p.Parents {
		if _, err := tx.ExecContext(ctx, `INSERT INTO parents (item, position, parent) VALUES (?, ?, ?)`, id, i, parent); err != nil {
			return 0, err
		}
	}
	if err := linkInputs(ctx, tx, id, p.Inputs); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM pending WHERE file = ?`, rel); err != nil {
		return 0, err
	}
	return id, nil
}

// newName is a new image's path relative to the library: under
// images/YYYY-MM/, named by its time and 48 random bits, so names never
// collide between jobs or processes.
func (l *Library) newName(format string, created time.Time) string {
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	ext := format
	if ext == "jpeg" {
		ext = "jpg"
	}
	if ext == "" {
		ext = "bin"
	}
	return path.Join("images", created.Format("2006-01"), fmt.Sprintf("%s-%s.%s", created.Format("20060102-150405"), hex.EncodeToString(rnd[:]), ext))
}

const itemColumns = `id, file, format, width, height, size_bytes, kind, prompt, revised_prompt, model, profile, params,
	input_tokens, output_tokens, total_tokens, created_ms, duration_ms, job_id, request_id, favorite, honesty, source_name`

func scanItem(sc interface{ Scan(...any) error }) (Item, error) {
	var it Item
	var params, report string
	var created, dur int64
	err := sc.Scan(&it.ID, &it.File, &it.Format, &it.Width, &it.Height, &it.SizeBytes, &it.Kind, &it.Prompt, &it.RevisedPrompt,
		&it.Model, &it.Profile, &params, &it.InputTokens, &it.OutputTokens, &it.TotalTokens, &created, &dur, &it.JobID, &it.RequestID, &it.Favorite, &report,
		&it.SourceName)
	if err != nil {
		return it, err
	}
	_ = json.Unmarshal([]byte(params), &it.Params)
	if report != "" {
		_ = json.Unmarshal([]byte(report), &it.Honesty)
	}
	it.Created = time.UnixMilli(created)
	it.Duration = time.Duration(dur) * time.Millisecond
	return it, nil
}

// checkMissing sets it.Missing when its file is not there.
func (l *Library) checkMissing(it *Item) {
	_, err := os.Stat(l.Path(*it))
	it.Missing = errors.Is(err, fs.ErrNotExist)
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
	l.checkMissing(&it)
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

// SetFavorite marks or unmarks an item.
func (l *Library) SetFavorite(ctx context.Context, id int64, fav bool) error {
	if l.roErr != nil {
		return l.roErr
	}
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
	if l.roErr != nil {
		return l.roErr
	}
	it, err := l.Get(ctx, id)
	if err != nil {
		return err
	}
	if _, err := l.db.ExecContext(ctx, `DELETE FROM items WHERE id = ?`, id); err != nil {
		return fmt.Errorf("library: %w", err)
	}
	_ = os.Remove(l.thumbnails.thumbPath(it))
	if err := os.Remove(l.Path(it)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf(catalogue.T("library: the image was removed from the gallery but its file stays: %w"), err)
	}
	return nil
}

// MaxLocateBytes bounds a file offered to Locate: no image Easel keeps
// comes near it.
const MaxLocateBytes = 256 << 20

// Locate puts the file at src in place of a missing item's image (the
// user found it elsewhere): the bytes are copied into the library, and
// the row takes the file's format and size. The file must be an image.
func (l *Library) Locate(ctx context.Context, id int64, src string) (Item, error) {
	if l.roErr != nil {
		return Item{}, l.roErr
	}
	it, err := l.Get(ctx, id)
	if err != nil {
		return it, err
	}
	st, err := os.Stat(src)
	if err != nil {
		return it, fmt.Errorf(catalogue.T("library: cannot read %s: %w"), src, err)
	}
	if st.Size() > MaxLocateBytes {
		return it, fmt.Errorf(catalogue.T("library: %s is %d MB, too large to be an image Easel made"), filepath.Base(src), st.Size()>>20)
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return it, fmt.Errorf(catalogue.T("library: cannot read %s: %w"), src, err)
	}
	format, w, h, err := imageio.SniffImage(data)
	if err != nil {
		return it, fmt.Errorf(catalogue.T("library: %s is not a PNG, JPEG or WebP image Easel can read"), filepath.Base(src))
	}
	if err := imageio.CheckPixels(w, h); err != nil {
		return it, fmt.Errorf("library: %s: %w", filepath.Base(src), err)
	}
	if err := atomicfile.Write(l.Path(it), data); err != nil {
		return it, fmt.Errorf(catalogue.T("library: cannot copy %s into the gallery: %w"), filepath.Base(src), err)
	}
	if _, err := l.db.ExecContext(ctx, `UPDATE items SET format = ?, width = ?, height = ?, size_bytes = ? WHERE id = ?`,
		format, w, h, len(data), id); err != nil {
		return it, fmt.Errorf("library: %w", err)
	}
	_ = os.Remove(l.thumbnails.thumbPath(it))
	return l.Get(ctx, id)
}
