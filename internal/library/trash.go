package library

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/imageio"
)

// Trash holds the items deleted in this session, hidden from the
// gallery: their files and rows go only with Empty, which the app runs
// as it closes (and recovery at the next start, after a crash), so a
// delete can be undone (Restore) until then.
type Trash struct {
	db *sql.DB
	// roErr, when set, is why the database cannot be written.
	roErr error
	// delete removes an item for good: its row, file and thumbnail.
	delete func(ctx context.Context, id int64) error
}

// Trash holds the items deleted in this session (see Trash).
func (l *Library) Trash() *Trash { return l.trash }

// Put hides items from the gallery.
func (l *Trash) Put(ctx context.Context, ids []int64) error {
	return l.setDeleted(ctx, ids, time.Now().UnixMilli())
}

// Restore brings trashed items back.
func (l *Trash) Restore(ctx context.Context, ids []int64) error {
	return l.setDeleted(ctx, ids, nil)
}

func (l *Trash) setDeleted(ctx context.Context, ids []int64, v any) error {
	if l.roErr != nil {
		return l.roErr
	}
	return inTx(ctx, l.db, func(tx *sql.Tx) error {
		for _, id := range ids {
			if _, err := tx.ExecContext(ctx, `UPDATE items SET deleted_ms = ? WHERE id = ?`, v, id); err != nil {
				return fmt.Errorf("library: %w", err)
			}
		}
		return nil
	})
}

// Count is how many items wait in the trash.
func (l *Trash) Count(ctx context.Context) (int, error) {
	var n int
	err := l.db.QueryRowContext(ctx, `SELECT count(*) FROM items WHERE deleted_ms IS NOT NULL`).Scan(&n)
	return n, err
}

// Empty deletes the trashed items for good: rows, files, thumbnails.
func (l *Trash) Empty(ctx context.Context) error {
	if l.roErr != nil {
		return nil
	}
	rows, err := l.db.QueryContext(ctx, `SELECT id FROM items WHERE deleted_ms IS NOT NULL`)
	if err != nil {
		return fmt.Errorf("library: %w", err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			_ = rows.Close()
			return fmt.Errorf("library: %w", err)
		}
		ids = append(ids, id)
	}
	_ = rows.Close()
	var errs []string
	for _, id := range ids {
		if err := l.delete(ctx, id); err != nil && !errors.Is(err, ErrNotFound) {
			errs = append(errs, err.Error())
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf(catalogue.T("library: emptying the trash: %s"), strings.Join(errs, "; "))
	}
	return nil
}

// Imported is what Import did with a file.
type Imported struct {
	ID int64
	// Existing is set when the gallery already held the same bytes:
	// nothing new was stored.
	Existing bool
}

// Import adds the bytes of the image file at path to the gallery as an
// imported item made when the file was, unless the same content is
// there already.
func (l *Library) Import(ctx context.Context, path string, data []byte) (Imported, error) {
	name := path
	format, w, h, err := imageio.SniffImage(data)
	if err != nil {
		return Imported{}, fmt.Errorf("%s: %w", name, err)
	}
	sum := sha256.Sum256(data)
	var id int64
	err = l.db.QueryRowContext(ctx, `SELECT id FROM items WHERE sha256 = ? AND deleted_ms IS NULL LIMIT 1`, hex.EncodeToString(sum[:])).Scan(&id)
	if err == nil {
		return Imported{ID: id, Existing: true}, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return Imported{}, fmt.Errorf("library: %w", err)
	}
	// An import joins the gallery now: it goes where new pictures go
	// (first, newest first), not back among the file's old date.
	id, err = l.Add(ctx, NewItem{Image: api.Image{Data: data, Format: format, Width: w, Height: h}, Kind: "imported", Created: time.Now(),
		SourceName: path})
	return Imported{ID: id}, err
}
