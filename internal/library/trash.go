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

// Trash hides items from the gallery; Restore brings them back. Their
// files and rows go only with EmptyTrash, which the app runs as it
// closes (and recovery at the next start, after a crash): a delete can
// be undone until then.
func (l *Library) Trash(ctx context.Context, ids []int64) error {
	return l.setDeleted(ctx, ids, time.Now().UnixMilli())
}

// Restore brings trashed items back.
func (l *Library) Restore(ctx context.Context, ids []int64) error {
	return l.setDeleted(ctx, ids, nil)
}

func (l *Library) setDeleted(ctx context.Context, ids []int64, v any) error {
	if l.roErr != nil {
		return l.roErr
	}
	return l.inTx(ctx, func(tx *sql.Tx) error {
		for _, id := range ids {
			if _, err := tx.ExecContext(ctx, `UPDATE items SET deleted_ms = ? WHERE id = ?`, v, id); err != nil {
				return fmt.Errorf("library: %w", err)
			}
		}
		return nil
	})
}

// Trashed is how many items wait in the trash.
func (l *Library) Trashed(ctx context.Context) (int, error) {
	var n int
	err := l.db.QueryRowContext(ctx, `SELECT count(*) FROM items WHERE deleted_ms IS NOT NULL`).Scan(&n)
	return n, err
}

// EmptyTrash deletes the trashed items for good: rows, files, thumbnails.
func (l *Library) EmptyTrash(ctx context.Context) error {
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
		if err := l.Delete(ctx, id); err != nil && !errors.Is(err, ErrNotFound) {
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
	id, err = l.Add(ctx, NewItem{Image: api.Image{Data: data, Format: format, Width: w, Height: h}, Kind: "imported", Created: time.Now()})
	return Imported{ID: id}, err
}
