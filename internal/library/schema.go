package library

import (
	"context"
	"database/sql"
	"fmt"

	"easel/internal/catalogue"
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
	{4, "chat conversations, their messages as a tree of versions, message search, images attached, system prompt presets (internal/conversations owns these tables)", `
CREATE TABLE conversations (
	id            INTEGER PRIMARY KEY,
	title         TEXT NOT NULL,
	model         TEXT NOT NULL DEFAULT '',
	system_prompt TEXT NOT NULL DEFAULT '',
	temperature   REAL,
	max_tokens    INTEGER,
	pinned        INTEGER NOT NULL DEFAULT 0,
	leaf          INTEGER,
	created_ms    INTEGER NOT NULL,
	updated_ms    INTEGER NOT NULL,
	deleted_ms    INTEGER
);
CREATE INDEX conversations_order ON conversations(pinned DESC, updated_ms DESC);
CREATE TABLE messages (
	id            INTEGER PRIMARY KEY,
	conversation  INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
	parent        INTEGER REFERENCES messages(id) ON DELETE CASCADE,
	role          TEXT NOT NULL,
	content       TEXT NOT NULL DEFAULT '',
	reasoning     TEXT NOT NULL DEFAULT '',
	state         TEXT NOT NULL DEFAULT 'done',
	error_kind    TEXT NOT NULL DEFAULT '',
	error_text    TEXT NOT NULL DEFAULT '',
	model         TEXT NOT NULL DEFAULT '',
	input_tokens  INTEGER NOT NULL DEFAULT 0,
	output_tokens INTEGER NOT NULL DEFAULT 0,
	created_ms    INTEGER NOT NULL
);
CREATE INDEX messages_parent ON messages(conversation, parent);
CREATE TABLE message_images (
	message  INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
	position INTEGER NOT NULL,
	hash     TEXT NOT NULL REFERENCES inputs(hash),
	name     TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (message, position)
);
CREATE INDEX message_images_hash ON message_images(hash);
CREATE TABLE presets (
	id            INTEGER PRIMARY KEY,
	name          TEXT NOT NULL UNIQUE,
	system_prompt TEXT NOT NULL
);
CREATE VIRTUAL TABLE conversations_fts USING fts5(title, content='conversations', content_rowid='id');
CREATE TRIGGER conversations_ai AFTER INSERT ON conversations BEGIN
	INSERT INTO conversations_fts(rowid, title) VALUES (new.id, new.title);
END;
CREATE TRIGGER conversations_ad AFTER DELETE ON conversations BEGIN
	INSERT INTO conversations_fts(conversations_fts, rowid, title) VALUES ('delete', old.id, old.title);
END;
CREATE TRIGGER conversations_au AFTER UPDATE OF title ON conversations BEGIN
	INSERT INTO conversations_fts(conversations_fts, rowid, title) VALUES ('delete', old.id, old.title);
	INSERT INTO conversations_fts(rowid, title) VALUES (new.id, new.title);
END;
-- A reply is indexed once it stops streaming: re-indexing it twenty
-- times a second as it grows would cost more than the stream.
CREATE VIRTUAL TABLE messages_fts USING fts5(content, content='messages', content_rowid='id');
CREATE TRIGGER messages_ai AFTER INSERT ON messages WHEN new.state != 'streaming' BEGIN
	INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER messages_ad AFTER DELETE ON messages WHEN old.state != 'streaming' BEGIN
	INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
END;
CREATE TRIGGER messages_au_old AFTER UPDATE ON messages WHEN old.state != 'streaming' BEGIN
	INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
END;
CREATE TRIGGER messages_au_new AFTER UPDATE ON messages WHEN new.state != 'streaming' BEGIN
	INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
END;
`},
	{5, "deleting can be undone until Easel closes (deleted_ms), and an image's content hash (sha256) so one imported twice is kept once", `
ALTER TABLE items ADD COLUMN deleted_ms INTEGER;
ALTER TABLE items ADD COLUMN sha256 TEXT;
CREATE INDEX items_sha256 ON items(sha256);
`},
	{6, "what each answer did of what was asked (honesty), what each service honours per profile and model (service_traits), and the jobs out at the service (journal), so one a kill or a close cut off is listed at the next start", `
ALTER TABLE items ADD COLUMN honesty TEXT NOT NULL DEFAULT '';
CREATE TABLE service_traits (
	profile  TEXT NOT NULL,
	model    TEXT NOT NULL,
	trait    TEXT NOT NULL,
	honoured INTEGER NOT NULL,
	times    INTEGER NOT NULL,
	first_ms INTEGER NOT NULL,
	last_ms  INTEGER NOT NULL,
	asked    TEXT NOT NULL DEFAULT '',
	got      TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (profile, model, trait)
);
CREATE TABLE journal (
	job        TEXT PRIMARY KEY,
	profile    TEXT NOT NULL,
	request    TEXT NOT NULL,
	started_ms INTEGER NOT NULL
);
CREATE TABLE journal_inputs (
	job      TEXT NOT NULL REFERENCES journal(job) ON DELETE CASCADE,
	role     TEXT NOT NULL,
	position INTEGER NOT NULL,
	hash     TEXT NOT NULL,
	name     TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (job, role, position)
);
`},
	{7, "what each request that may have been billed cost (ledger), the images each one made (ledger_items), and each profile's balance as its service last reported it, or that it reports none (balances)", `
CREATE TABLE ledger (
	id            INTEGER PRIMARY KEY,
	at_ms         INTEGER NOT NULL,
	profile       TEXT NOT NULL,
	model         TEXT NOT NULL,
	kind          TEXT NOT NULL,
	outcome       TEXT NOT NULL,
	job           TEXT NOT NULL DEFAULT '',
	options       TEXT NOT NULL DEFAULT '',
	usage         TEXT NOT NULL DEFAULT '',
	images        INTEGER NOT NULL DEFAULT 0,
	estimate_low  REAL,
	estimate_high REAL,
	cost          REAL,
	currency      TEXT NOT NULL
);
-- The spend view sums by period and group from a covering index: it
-- never reads the rows themselves.
CREATE INDEX ledger_at ON ledger(at_ms, profile, model, kind, currency, cost, estimate_high, images);
CREATE INDEX ledger_profile_at ON ledger(profile, at_ms);
CREATE TABLE ledger_items (
	entry INTEGER NOT NULL REFERENCES ledger(id) ON DELETE CASCADE,
	item  INTEGER NOT NULL,
	PRIMARY KEY (item, entry)
);
CREATE TABLE balances (
	profile    TEXT PRIMARY KEY,
	reported   INTEGER NOT NULL,
	credit     REAL NOT NULL DEFAULT 0,
	used       REAL NOT NULL DEFAULT 0,
	checked_ms INTEGER NOT NULL
);
`},
	{8, "search finds words inside Chinese text (and inside words): the prompt, title and message indexes use SQLite's trigram tokenizer", `
DROP TABLE items_fts;
CREATE VIRTUAL TABLE items_fts USING fts5(prompt, content='items', content_rowid='id', tokenize='trigram');
INSERT INTO items_fts(rowid, prompt) SELECT id, prompt FROM items;
DROP TABLE conversations_fts;
CREATE VIRTUAL TABLE conversations_fts USING fts5(title, content='conversations', content_rowid='id', tokenize='trigram');
INSERT INTO conversations_fts(rowid, title) SELECT id, title FROM conversations;
-- A reply still streaming is not indexed (the triggers index it once it
-- stops), so it is not indexed here either.
DROP TABLE messages_fts;
CREATE VIRTUAL TABLE messages_fts USING fts5(content, content='messages', content_rowid='id', tokenize='trigram');
INSERT INTO messages_fts(rowid, content) SELECT id, content FROM messages WHERE state != 'streaming';
`},
	{9, "the prompt library: prompts and styles kept to use again, searchable like the gallery", `
CREATE TABLE prompts (
	id         INTEGER PRIMARY KEY,
	kind       TEXT NOT NULL DEFAULT 'prompt',
	name       TEXT NOT NULL DEFAULT '',
	text       TEXT NOT NULL,
	placement  TEXT NOT NULL DEFAULT 'after',
	favorite   INTEGER NOT NULL DEFAULT 0,
	source     TEXT NOT NULL DEFAULT '',
	created_ms INTEGER NOT NULL,
	used_ms    INTEGER NOT NULL DEFAULT 0,
	uses       INTEGER NOT NULL DEFAULT 0
);
CREATE VIRTUAL TABLE prompts_fts USING fts5(name, text, content='prompts', content_rowid='id', tokenize='trigram');
CREATE TRIGGER prompts_ai AFTER INSERT ON prompts BEGIN
	INSERT INTO prompts_fts(rowid, name, text) VALUES (new.id, new.name, new.text);
END;
CREATE TRIGGER prompts_ad AFTER DELETE ON prompts BEGIN
	INSERT INTO prompts_fts(prompts_fts, rowid, name, text) VALUES ('delete', old.id, old.name, old.text);
END;
CREATE TRIGGER prompts_au AFTER UPDATE OF name, text ON prompts BEGIN
	INSERT INTO prompts_fts(prompts_fts, rowid, name, text) VALUES ('delete', old.id, old.name, old.text);
	INSERT INTO prompts_fts(rowid, name, text) VALUES (new.id, new.name, new.text);
END;
`},
	{10, "what Easel learns of a service is kept per key (the gateway's account group) and endpoint; a gateway's own figures per key (gateway_facts); the ledger says which key a request went on, where its figure came from and whether it was surely billed; balances are per key; the journal says which process a job is out from", `
CREATE TABLE service_traits_by_key (
	profile   TEXT NOT NULL,
	key_group TEXT NOT NULL,
	model     TEXT NOT NULL,
	endpoint  TEXT NOT NULL,
	trait     TEXT NOT NULL,
	honoured  INTEGER NOT NULL,
	times     INTEGER NOT NULL,
	first_ms  INTEGER NOT NULL,
	last_ms   INTEGER NOT NULL,
	asked     TEXT NOT NULL DEFAULT '',
	got       TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (profile, key_group, model, endpoint, trait)
);
-- Learnt before keys and endpoints were told apart: '*' holds for any
-- key and endpoint of the profile and model until one learns its own.
INSERT INTO service_traits_by_key SELECT profile, '*', model, '*', trait, honoured, times, first_ms, last_ms, asked, got FROM service_traits;
DROP TABLE service_traits;
ALTER TABLE service_traits_by_key RENAME TO service_traits;
CREATE TABLE balances_by_key (
	profile    TEXT NOT NULL,
	key_group  TEXT NOT NULL,
	reported   INTEGER NOT NULL,
	credit     REAL NOT NULL DEFAULT 0,
	used       REAL NOT NULL DEFAULT 0,
	checked_ms INTEGER NOT NULL,
	PRIMARY KEY (profile, key_group)
);
INSERT INTO balances_by_key SELECT profile, '', reported, credit, used, checked_ms FROM balances;
DROP TABLE balances;
ALTER TABLE balances_by_key RENAME TO balances;
CREATE TABLE gateway_facts (
	profile    TEXT NOT NULL,
	key_group  TEXT NOT NULL,
	facts      TEXT NOT NULL,
	checked_ms INTEGER NOT NULL,
	PRIMARY KEY (profile, key_group)
);
ALTER TABLE ledger ADD COLUMN key_group TEXT NOT NULL DEFAULT '';
-- Where cost came from: 'answer' (the usage it reported at the profile's
-- prices), 'gateway' (at the gateway's own prices for the key), '' (older
-- entries: the answer's).
ALTER TABLE ledger ADD COLUMN source TEXT NOT NULL DEFAULT '';
-- 'maybe' for a request that may have been billed and is counted at its
-- estimate; '' for one billed.
ALTER TABLE ledger ADD COLUMN billing TEXT NOT NULL DEFAULT '';
ALTER TABLE ledger ADD COLUMN note TEXT NOT NULL DEFAULT '';
-- '' is the window's job; 'cli' the command line's, whose process holds
-- journal/<job>.lock while it is out.
ALTER TABLE journal ADD COLUMN owner TEXT NOT NULL DEFAULT '';
ALTER TABLE journal ADD COLUMN noticed_ms INTEGER;
`},
	{11, "a ledger entry the user found wrong is corrected beside what Easel wrote: the amount the user gives counts in totals and budgets, and the original figure and why it changed are kept", `
-- NULL: not corrected. Otherwise the amount, in the entry's currency.
ALTER TABLE ledger ADD COLUMN corrected REAL;
ALTER TABLE ledger ADD COLUMN corrected_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ledger ADD COLUMN correction TEXT NOT NULL DEFAULT '';
`},
	{12, "each image's Content Credentials are remembered, so the gallery can be filtered by them", `
-- What the item's file carries of Content Credentials (library's
-- Credentials* values); '' not read yet: an item saved before this
-- version, read from its file after the upgrade (ReadCredentials).
ALTER TABLE items ADD COLUMN credentials TEXT NOT NULL DEFAULT '';
CREATE INDEX items_credentials ON items (credentials);
`},
	{13, "credentials stored as signed are read again: signed now means a certificate that chains to a root Easel trusts, and a self-signed one is only a claim", `
-- Read again from the file after the upgrade (ReadCredentials), against
-- the trust list: a self-signed "OpenAI" is then unverified.
UPDATE items SET credentials = '' WHERE credentials = 'signed';
`},
	{14, "a ledger entry is settled against the gateway's own running figure for its key: what that figure moved by for it (shared out by what each wrote, when several requests fell between two readings), kept beside what Easel wrote", `
-- NULL: not settled. Otherwise the amount, in the entry's currency.
ALTER TABLE ledger ADD COLUMN settled REAL;
ALTER TABLE ledger ADD COLUMN settled_ms INTEGER NOT NULL DEFAULT 0;
-- How many entries shared the readings it was settled by (1: its own).
ALTER TABLE ledger ADD COLUMN settled_with INTEGER NOT NULL DEFAULT 0;
`},
	{15, "a designer's iterations are kept as threads: each edit that continues a picture is a turn after it, an edit from an earlier turn a branch, with the way it was sent and how much it changed outside the marks", `
CREATE TABLE turns (
	-- The picture the turn made (its result chosen: the kept copy of a
	-- masked edit that kept its unmasked area, else the service's).
	item       INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
	-- The picture the thread started from: its own turn's item.
	thread     INTEGER NOT NULL,
	-- The turn this one continued; NULL for the start.
	parent     INTEGER,
	-- How it was sent: 'images' (an edit of the parent's picture),
	-- 'responses' (the Responses API, the service keeping the context);
	-- '' for the start. note: why it was not sent the way asked.
	way        TEXT NOT NULL DEFAULT '',
	note       TEXT NOT NULL DEFAULT '',
	-- The Responses API's id of the answer, for the next turn.
	response   TEXT NOT NULL DEFAULT '',
	-- The share (0-1) of the parent's picture the service changed outside
	-- the marks (everywhere, without a mask); NULL when not measured.
	drift      REAL,
	created_ms INTEGER NOT NULL
);
CREATE INDEX turns_thread ON turns (thread, created_ms, item);
CREATE INDEX turns_parent ON turns (parent);
`},
	{16, "what a gateway says of a key is kept per gateway and key, whichever profiles use that key: one cache, one count of console reads, one running figure settling all their requests", `
CREATE TABLE key_facts (
	-- The gateway's base URL and the key's id (api.Client.KeyID, 64 bits
	-- of SHA-256 of the key); facts kept before they were named are their
	-- slot's alone: base_url '', key_id 'slot:' profile U+001F group.
	base_url   TEXT NOT NULL,
	key_id     TEXT NOT NULL,
	facts      TEXT NOT NULL,
	checked_ms INTEGER NOT NULL,
	PRIMARY KEY (base_url, key_id)
);
-- Which key each profile's key slot (its own key, or a group's) was last
-- read with.
CREATE TABLE key_slots (
	profile   TEXT NOT NULL,
	key_group TEXT NOT NULL,
	base_url  TEXT NOT NULL,
	key_id    TEXT NOT NULL,
	PRIMARY KEY (profile, key_group)
);
CREATE INDEX key_slots_key ON key_slots (base_url, key_id);
INSERT INTO key_slots (profile, key_group, base_url, key_id)
	SELECT profile, key_group,
		CASE WHEN COALESCE(json_extract(facts, '$.base_url'), '') != '' AND COALESCE(json_extract(facts, '$.key_id'), '') != ''
			THEN json_extract(facts, '$.base_url') ELSE '' END,
		CASE WHEN COALESCE(json_extract(facts, '$.base_url'), '') != '' AND COALESCE(json_extract(facts, '$.key_id'), '') != ''
			THEN json_extract(facts, '$.key_id') ELSE 'slot:' || profile || char(31) || key_group END
	FROM gateway_facts WHERE json_valid(facts);
-- Two slots read with the same key keep the newer facts.
INSERT INTO key_facts (base_url, key_id, facts, checked_ms)
	SELECT s.base_url, s.key_id, g.facts, g.checked_ms
	FROM gateway_facts g JOIN key_slots s ON s.profile = g.profile AND s.key_group = g.key_group
	WHERE true ORDER BY g.checked_ms
	ON CONFLICT (base_url, key_id) DO UPDATE SET facts = excluded.facts, checked_ms = excluded.checked_ms
		WHERE excluded.checked_ms >= key_facts.checked_ms;
DROP TABLE gateway_facts;
`},
	{17, "work sent through the Batch API is kept from the moment the batch is made: the batch, and each of its requests with the journal entry that holds it until its pictures are in the gallery", `
CREATE TABLE batches (
	-- The service's id of the batch.
	id         TEXT PRIMARY KEY,
	profile    TEXT NOT NULL,
	key_group  TEXT NOT NULL DEFAULT '',
	model      TEXT NOT NULL,
	endpoint   TEXT NOT NULL,
	-- The request file the service was given.
	input_file TEXT NOT NULL,
	-- The status last read (validating … completed, expired, cancelled,
	-- failed) and the counts with it.
	status     TEXT NOT NULL,
	total      INTEGER NOT NULL,
	completed  INTEGER NOT NULL DEFAULT 0,
	failed     INTEGER NOT NULL DEFAULT 0,
	-- What the designer sent (a template's prompt), for the listing.
	label      TEXT NOT NULL DEFAULT '',
	-- '' the window's, 'cli' the command line's, and the folder the
	-- command line writes the pictures into besides the gallery.
	owner      TEXT NOT NULL DEFAULT '',
	out        TEXT NOT NULL DEFAULT '',
	created_ms INTEGER NOT NULL,
	expires_ms INTEGER NOT NULL DEFAULT 0,
	checked_ms INTEGER NOT NULL DEFAULT 0,
	-- Set once everything the batch will bring is in the gallery; what
	-- it did not bring is then listed with a resend.
	ended_ms   INTEGER
);
CREATE TABLE batch_requests (
	batch     TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
	custom_id TEXT NOT NULL,
	-- The journal entry holding the request and its inputs, crossed out
	-- once its pictures are in the gallery.
	job       TEXT NOT NULL,
	-- '' waiting, 'landed', 'failed' (error: the service's words).
	state     TEXT NOT NULL DEFAULT '',
	error     TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (batch, custom_id)
);
CREATE INDEX batch_requests_job ON batch_requests (job);
`},
	{18, "an imported picture keeps the name of the file it came from, which Edit and exports call it by", `
-- The file's own name (no folder), '' for a picture Easel made.
ALTER TABLE items ADD COLUMN source_name TEXT NOT NULL DEFAULT '';
-- The search reads the names of imported pictures alone.
CREATE INDEX items_imported ON items (source_name) WHERE source_name != '';
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
	return catalogue.F("the gallery in %s was written by a newer Easel (library version %d; this Easel knows up to %d). It is shown read-only and new images cannot be saved to it: update Easel to work in it again", e.Dir, e.Found, e.Known)
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
			return fmt.Errorf(catalogue.T("cannot bring the library to version %d (%s): %w"), m.version, m.what, err)
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
