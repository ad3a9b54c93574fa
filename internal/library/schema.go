package library

import (
	"context"
	"database/sql"
	"fmt"
)

// A migration takes the database from the version before it to its own.
// Migrations are never edited once released: a user's library may be at
// any of them. A new schema is a new migration at the end, with a fixture
// of the version before it in testdata/ (see testdata/v0/README.md).
type migration struct {
	version int
	what    string
	sql     string
}

// migrations are the library's schema, in order. Libraries made before
// versions existed read user_version 0 and already hold migration 1's
// tables, so 1 creates only what is missing.
var migrations = []migration{
	{1, "the gallery as first released: items, their parents, prompt search", `
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
`},
	{2, "saves in flight: an image's prompt and settings are written before its file, so a kill between the file and its row loses neither", `
CREATE TABLE pending (
	file       TEXT PRIMARY KEY,
	item       TEXT NOT NULL,
	created_ms INTEGER NOT NULL
);
`},
	{3, "an edit's inputs and mask, each file stored once by its content hash", `
CREATE TABLE inputs (
	hash       TEXT PRIMARY KEY,
	file       TEXT NOT NULL,
	format     TEXT NOT NULL,
	width      INTEGER NOT NULL,
	height     INTEGER NOT NULL,
	size_bytes INTEGER NOT NULL
);
CREATE TABLE item_inputs (
	item     INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
	role     TEXT NOT NULL,
	position INTEGER NOT NULL,
	hash     TEXT NOT NULL REFERENCES inputs(hash),
	name     TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (item, role, position)
);
CREATE INDEX item_inputs_hash ON item_inputs(hash);
`},
}

// SchemaVersion is the newest schema this Easel knows.
var SchemaVersion = migrations[len(migrations)-1].version

// NewerError says the library was written by a newer Easel: it is shown
// but never written to, so the newer Easel finds it as it left it.
type NewerError struct {
	Dir          string
	Found, Known int
}

func (e *NewerError) Error() string {
	return fmt.Sprintf("the gallery in %s was written by a newer Easel (library version %d; this Easel knows up to %d). It is shown read-only and new images cannot be saved to it: update Easel to work in it again", e.Dir, e.Found, e.Known)
}

// userVersion reads the schema version.
func userVersion(ctx context.Context, db *sql.DB) (int, error) {
	var v int
	err := db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v)
	return v, err
}

// migrate brings the database up to SchemaVersion, one migration per
// transaction: a kill or a failure leaves it at the last version that
// finished. Each step reads the version again inside its transaction, so
// two processes opening an old library at once migrate it once.
func migrate(ctx context.Context, db *sql.DB) error {
	for _, m := range migrations {
		if err := step(ctx, db, m); err != nil {
			return fmt.Errorf("cannot bring the library to version %d (%s): %w", m.version, m.what, err)
		}
	}
	return nil
}

func step(ctx context.Context, db *sql.DB, m migration) error {
	tx, err := db.BeginTx(ctx, nil) // immediate: the DSN's _txlock
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit this is a no-op
	var v int
	if err := tx.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v); err != nil {
		return err
	}
	if v >= m.version {
		return nil
	}
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, m.version)); err != nil {
		return err
	}
	return tx.Commit()
}
