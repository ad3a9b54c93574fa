package library

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"easel/internal/catalogue"
	"easel/internal/imageio"
)

// The names Easel gives its files: recovery removes only temporary files
// with these names (its own, half-written) and thumbnails of these names
// whose image is gone. Anything else in the folders is the user's.
var (
	ownTemp  = regexp.MustCompile(`^\d{8,}-\d{6}-[0-9a-f]{12}\.[a-z]{3,4}\.\d+\.tmp$`)
	ownThumb = regexp.MustCompile(`^(\d{8,}-\d{6}-[0-9a-f]{12})\.png$`)
)

// recovery repairs what a crash left in a library, at its opening.
type recovery struct {
	db           *sql.DB
	root, images string
	trash        *Trash
	inputs       *InputStore
	thumbs       *Thumbnails
	// record records a finished file from its pending record.
	record func(ctx context.Context, rel string, size int64, p pendingItem) error
}

// run repairs what a crash left, and runs only while this process
// holds the library alone: it removes Easel's half-written files, records
// finished images whose row never committed (with their prompt, from the
// pending record written before the file), adopts images it finds without
// any record, and drops thumbnails of images no row holds. It never
// deletes a row, nor a file it cannot read. It returns how many images it
// adopted without a prompt.
func (l *recovery) run(ctx context.Context) (int, error) {
	known := map[string]bool{}
	bases := map[string]bool{}
	rows, err := l.db.QueryContext(ctx, `SELECT file FROM items`)
	if err != nil {
		return 0, fmt.Errorf("library: %w", err)
	}
	for rows.Next() {
		var file string
		if err := rows.Scan(&file); err != nil {
			_ = rows.Close()
			return 0, fmt.Errorf("library: %w", err)
		}
		known[file] = true
		bases[strings.TrimSuffix(path.Base(file), path.Ext(file))] = true
	}
	_ = rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("library: %w", err)
	}

	adopted := 0
	err = filepath.WalkDir(l.images, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(l.root, p)
		rel = filepath.ToSlash(rel)
		switch {
		case ownTemp.MatchString(d.Name()):
			return removeIfThere(p)
		case known[rel]:
			return nil
		}
		done, err := l.finishPending(ctx, rel)
		if err != nil || done {
			return err
		}
		ok, err := l.adopt(ctx, rel)
		if ok {
			adopted++
			bases[strings.TrimSuffix(path.Base(rel), path.Ext(rel))] = true
		}
		return err
	})
	if err != nil {
		return adopted, fmt.Errorf(catalogue.T("library: cannot repair %s: %w"), l.images, err)
	}
	// Every pending record left has no file (its save died before the
	// rename) or has just been recorded: this process is alone, so none
	// is another's save in flight.
	if _, err := l.db.ExecContext(ctx, `DELETE FROM pending`); err != nil {
		return adopted, fmt.Errorf("library: %w", err)
	}
	// Images deleted in a session that ended without emptying its
	// trash (a crash) go now: Undo lasted until that Easel closed.
	if err := l.trash.Empty(ctx); err != nil {
		return adopted, err
	}
	if err := l.inputs.clean(ctx); err != nil {
		return adopted, fmt.Errorf(catalogue.T("library: cannot tidy the stored inputs: %w"), err)
	}
	return adopted, l.thumbs.clean(bases)
}

// finishPending records a finished file from the pending record written
// before it, and reports whether there was one.
func (l *recovery) finishPending(ctx context.Context, rel string) (bool, error) {
	var meta string
	err := l.db.QueryRowContext(ctx, `SELECT item FROM pending WHERE file = ?`, rel).Scan(&meta)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var p pendingItem
	if err := json.Unmarshal([]byte(meta), &p); err != nil {
		return false, nil // not ours to read: adopt the file as it is
	}
	st, err := os.Stat(filepath.Join(l.root, filepath.FromSlash(rel)))
	if err != nil {
		return false, err
	}
	return true, l.record(ctx, rel, st.Size(), p)
}

// adopt records an image found with no record at all (a crash of an
// Easel from before pending records, or a file put there by hand): its
// bytes are kept, its settings are not known. A file that is not an image
// Easel can read is left where it is.
func (l *recovery) adopt(ctx context.Context, rel string) (bool, error) {
	full := filepath.Join(l.root, filepath.FromSlash(rel))
	data, err := os.ReadFile(full)
	if err != nil {
		return false, nil // unreadable: not ours to judge
	}
	format, w, h, err := imageio.SniffImage(data)
	if err != nil {
		return false, nil
	}
	info, err := os.Stat(full)
	if err != nil {
		return false, nil
	}
	sum := sha256.Sum256(data)
	_, err = l.db.ExecContext(ctx, `INSERT INTO items (file, format, width, height, size_bytes, kind, prompt, created_ms, sha256)
		VALUES (?, ?, ?, ?, ?, 'recovered', '', ?, ?)`, rel, format, w, h, len(data), info.ModTime().UnixMilli(), hex.EncodeToString(sum[:]))
	return err == nil, err
}

// clean removes half-written thumbnails and thumbnails of images no row
// holds.
func (l *Thumbnails) clean(bases map[string]bool) error {
	entries, err := os.ReadDir(l.dir)
	if err != nil {
		return nil // no thumbnails yet
	}
	for _, e := range entries {
		name := e.Name()
		m := ownThumb.FindStringSubmatch(name)
		stale := m != nil && !bases[m[1]]
		if ownTemp.MatchString(name) || stale {
			if err := removeIfThere(filepath.Join(l.dir, name)); err != nil {
				return err
			}
		}
	}
	return nil
}

func removeIfThere(p string) error {
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
