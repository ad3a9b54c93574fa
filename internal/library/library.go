// Package library is Easel's gallery on disk: every image ever made, with
// the bytes the server sent (never re-encoded), its prompt and every
// setting, in a SQLite index (WAL mode, FTS5 for prompt search) beside the
// image files and a cache of thumbnails.
//
// An image file is written under a temporary name, synced and renamed
// before its row is committed, so every row has its file; Open cleans up
// after a crash: half-written files are removed, and a finished file whose
// row never committed is adopted rather than thrown away, because it was
// paid for.
package library

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"
)

// Library is an open gallery. It is safe for concurrent use.
type Library struct {
	db     *sql.DB
	root   string
	images string
	thumbs string
}

// Dir is where the library lives: $EASEL_HOME when set (tests, portable
// use), else the user's data folder.
func Dir() (string, error) {
	if h := os.Getenv("EASEL_HOME"); h != "" {
		return h, nil
	}
	if x := os.Getenv("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, "easel"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "share", "easel"), nil
}

const schema = `
CREATE TABLE IF NOT EXISTS items (
	id            INTEGER PRIMARY KEY,
	file          TEXT NOT NULL UNIQUE,
	format        TEXT NOT NULL,
	width         INTEGER NOT NULL,
	height        INTEGER NOT NULL,
	size_bytes    INTEGER NOT NULL,
	kind          TEXT NOT NULL,
	prompt        TEXT NOT NULL,
	revised_prompt TEXT NOT NULL DEFAULT '',
	model         TEXT NOT NULL DEFAULT '',
	profile       TEXT NOT NULL DEFAULT '',
	params        TEXT NOT NULL DEFAULT '{}',
	input_tokens  INTEGER NOT NULL DEFAULT 0,
	output_tokens INTEGER NOT NULL DEFAULT 0,
	total_tokens  INTEGER NOT NULL DEFAULT 0,
	created_ms    INTEGER NOT NULL,
	duration_ms   INTEGER NOT NULL DEFAULT 0,
	job_id        TEXT NOT NULL DEFAULT '',
	request_id    TEXT NOT NULL DEFAULT '',
	favorite      INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS items_newest ON items(created_ms DESC, id DESC);
CREATE TABLE IF NOT EXISTS parents (
	item     INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
	position INTEGER NOT NULL,
	parent   INTEGER NOT NULL,
	PRIMARY KEY (item, position)
);
CREATE VIRTUAL TABLE IF NOT EXISTS items_fts USING fts5(prompt, content='items', content_rowid='id');
CREATE TRIGGER IF NOT EXISTS items_ai AFTER INSERT ON items BEGIN
	INSERT INTO items_fts(rowid, prompt) VALUES (new.id, new.prompt);
END;
CREATE TRIGGER IF NOT EXISTS items_ad AFTER DELETE ON items BEGIN
	INSERT INTO items_fts(items_fts, rowid, prompt) VALUES ('delete', old.id, old.prompt);
END;
`

// Open opens (or creates) the library in dir and repairs what a crash
// left behind.
func Open(dir string) (*Library, error) {
	l := &Library{root: dir, images: filepath.Join(dir, "images"), thumbs: filepath.Join(dir, "thumbs")}
	for _, d := range []string{l.images, l.thumbs} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("library: cannot create %s: %w", d, err)
		}
	}
	dsn := "file:" + filepath.Join(dir, "library.db") +
		"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("library: %w", err)
	}
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("library: cannot prepare the database in %s: %w", dir, err)
	}
	l.db = db
	if err := l.recover(context.Background()); err != nil {
		db.Close()
		return nil, err
	}
	return l, nil
}

// Close closes the database.
func (l *Library) Close() error { return l.db.Close() }

// Root is the library's folder.
func (l *Library) Root() string { return l.root }

// recover removes half-written files, rows whose file is gone, and adopts
// finished files that have no row.
func (l *Library) recover(ctx context.Context) error {
	known := map[string]bool{}
	rows, err := l.db.QueryContext(ctx, `SELECT id, file FROM items`)
	if err != nil {
		return fmt.Errorf("library: %w", err)
	}
	var missing []int64
	for rows.Next() {
		var id int64
		var file string
		if err := rows.Scan(&id, &file); err != nil {
			rows.Close()
			return fmt.Errorf("library: %w", err)
		}
		known[file] = true
		if _, err := os.Stat(filepath.Join(l.root, file)); errors.Is(err, os.ErrNotExist) {
			missing = append(missing, id)
		}
	}
	rows.Close()
	for _, id := range missing {
		if _, err := l.db.ExecContext(ctx, `DELETE FROM items WHERE id = ?`, id); err != nil {
			return fmt.Errorf("library: %w", err)
		}
	}
	return filepath.WalkDir(l.images, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(l.root, path)
		switch {
		case strings.HasSuffix(path, tmpSuffix):
			return os.Remove(path)
		case !known[filepath.ToSlash(rel)]:
			return l.adopt(ctx, filepath.ToSlash(rel))
		}
		return nil
	})
}
