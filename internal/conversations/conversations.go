// Package conversations keeps the Chat tab's conversations in the
// gallery's SQLite database (its tables are migration 4 of the library's
// schema): titles and settings, messages as a tree so that a regenerated
// reply or an edited question keeps the earlier branch as a version, the
// images a message carried (stored once by content, as an edit's inputs
// are), search across titles and text, and system prompt presets. A reply
// is written as it streams, before it is shown, so a crash, a kill or
// Stop keeps what arrived; a reply that never finished is marked as cut
// when the library is next opened alone. It knows nothing of windows.
package conversations

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"easel/internal/catalogue"
	"easel/internal/library"
)

// State is how a message ended.
type State string

// The states of a message.
const (
	// Done is a finished message.
	Done State = "done"
	// Streaming is a reply arriving now.
	Streaming State = "streaming"
	// Stopped is a reply the user stopped: what arrived is kept.
	Stopped State = "stopped"
	// Cut is a reply that ended early: the service failed mid-stream, or
	// Easel was closed or killed while it streamed.
	Cut State = "cut"
	// Failed is a reply that never came; its error says why.
	Failed State = "failed"
)

// Conversation is one conversation and its settings.
type Conversation struct {
	ID    int64
	Title string
	// Model, System, Temperature and MaxTokens are sent with each reply;
	// Temperature and MaxTokens only when set.
	Model       string
	System      string
	Temperature *float64
	MaxTokens   *int
	Pinned      bool
	Created     time.Time
	Updated     time.Time
	// Leaf is the last message of the branch shown.
	Leaf int64
}

// Image is an image a message carries, stored in the library's inputs.
type Image struct {
	Name string
	library.StoredInput
}

// Message is one message of a conversation.
type Message struct {
	ID, Conversation int64
	// Parent is the message this one answers or follows, 0 for the first.
	Parent    int64
	Role      string
	Content   string
	Reasoning string
	State     State
	// ErrorKind and ErrorText say why a reply failed or was cut.
	ErrorKind, ErrorText string
	Model                string
	InputTokens          int64
	OutputTokens         int64
	Created              time.Time
	Images               []Image
	// Version is this message's place among its versions (siblings, in
	// the order made), from 0; Versions is how many there are.
	Version, Versions int
	// Siblings are the ids of all its versions, in order.
	Siblings []int64
}

// Store keeps conversations in a library's database.
type Store struct {
	lib *library.Library
	db  *sql.DB
}

// ErrReadOnly is returned by writes when the library cannot be written.
var ErrReadOnly = errors.New("the gallery's database cannot be written, so conversations are read-only")

// Open opens the conversations of lib. When this process has the library
// alone, replies left streaming by a process that died are marked cut:
// their text so far is kept.
func Open(ctx context.Context, lib *library.Library) (*Store, error) {
	s := &Store{lib: lib, db: lib.DB()}
	if lib.Alone() && lib.SaveErr() == nil {
		if _, err := s.db.ExecContext(ctx, `UPDATE messages SET state = ?, error_text = CASE WHEN error_text = '' THEN ? ELSE error_text END WHERE state = ?`,
			string(Cut), "Easel closed before this reply finished; the text that had arrived is kept.", string(Streaming)); err != nil {
			return nil, fmt.Errorf("conversations: %w", err)
		}
		// Deleted conversations are kept only until the app closes, for
		// Undo; what one left behind is removed now.
		if _, err := s.db.ExecContext(ctx, `DELETE FROM conversations WHERE deleted_ms IS NOT NULL`); err != nil {
			return nil, fmt.Errorf("conversations: %w", err)
		}
	}
	return s, nil
}

func (s *Store) writable() error {
	if err := s.lib.SaveErr(); err != nil {
		return fmt.Errorf("%w: %v", ErrReadOnly, err)
	}
	return nil
}

func now() int64 { return time.Now().UnixMilli() }

func (s *Store) inTx(ctx context.Context, f func(*sql.Tx) error) error {
	if err := s.writable(); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("conversations: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit this is a no-op
	if err := f(tx); err != nil {
		return fmt.Errorf("conversations: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("conversations: %w", err)
	}
	return nil
}

// MaxTitle is how long a title made from a first message is, in letters.
const MaxTitle = 60

// TitleFrom is a new conversation's title, made from its first message:
// its first line, cut at a word near MaxTitle letters.
func TitleFrom(text string) string {
	line := strings.TrimSpace(text)
	if i := strings.IndexAny(line, "\r\n"); i >= 0 {
		line = strings.TrimSpace(line[:i])
	}
	line = strings.Join(strings.Fields(line), " ")
	if line == "" {
		return catalogue.T("New chat")
	}
	if utf8.RuneCountInString(line) <= MaxTitle {
		return line
	}
	r := []rune(line)[:MaxTitle]
	cut := string(r)
	if i := strings.LastIndex(cut, " "); i > MaxTitle/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,.;:") + "…"
}

// Create starts a conversation and returns its id.
func (s *Store) Create(ctx context.Context, c Conversation) (int64, error) {
	var id int64
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		t := now()
		res, err := tx.ExecContext(ctx, `INSERT INTO conversations (title, model, system_prompt, temperature, max_tokens, pinned, created_ms, updated_ms)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, c.Title, c.Model, c.System, c.Temperature, c.MaxTokens, c.Pinned, t, t)
		if err != nil {
			return err
		}
		id, err = res.LastInsertId()
		return err
	})
	return id, err
}

const convColumns = `id, title, model, system_prompt, temperature, max_tokens, pinned, COALESCE(leaf, 0), created_ms, updated_ms`

func scanConversation(sc interface{ Scan(...any) error }) (Conversation, error) {
	var c Conversation
	var temp sql.NullFloat64
	var maxTok sql.NullInt64
	var created, updated int64
	if err := sc.Scan(&c.ID, &c.Title, &c.Model, &c.System, &temp, &maxTok, &c.Pinned, &c.Leaf, &created, &updated); err != nil {
		return c, err
	}
	if temp.Valid {
		c.Temperature = &temp.Float64
	}
	if maxTok.Valid {
		n := int(maxTok.Int64)
		c.MaxTokens = &n
	}
	c.Created, c.Updated = time.UnixMilli(created), time.UnixMilli(updated)
	return c, nil
}

// Get reads one conversation.
func (s *Store) Get(ctx context.Context, id int64) (Conversation, error) {
	c, err := scanConversation(s.db.QueryRowContext(ctx, `SELECT `+convColumns+` FROM conversations WHERE id = ? AND deleted_ms IS NULL`, id))
	if err != nil {
		return c, fmt.Errorf("conversations: %w", err)
	}
	return c, nil
}

// List is the conversations, pinned first, then the most recently
// updated; search, when not blank, keeps those that hold every word of
// it, each in the title or in a message (anywhere in a word, or inside
// Chinese text: library.SearchTerms).
func (s *Store) List(ctx context.Context, search string) ([]Conversation, error) {
	q := `SELECT ` + convColumns + ` FROM conversations WHERE deleted_ms IS NULL`
	var args []any
	for _, t := range library.SearchTerms(search) {
		title, a := library.TermCondition(t, "conversations_fts", "title")
		message, b := library.TermCondition(t, "messages_fts", "content")
		if t.Short() {
			message += ` AND state != 'streaming'`
		}
		// #nosec G202 -- built from fixed fragments; every value is a ? argument
		q += ` AND (` + title + ` OR id IN (SELECT conversation FROM messages WHERE ` + message + `))`
		args = append(args, a, b)
	}
	q += ` ORDER BY pinned DESC, updated_ms DESC, id DESC`
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("conversations: %w", err)
	}
	defer rows.Close()
	var out []Conversation
	for rows.Next() {
		c, err := scanConversation(rows)
		if err != nil {
			return nil, fmt.Errorf("conversations: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// Rename changes a conversation's title.
func (s *Store) Rename(ctx context.Context, id int64, title string) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE conversations SET title = ? WHERE id = ?`, strings.TrimSpace(title), id)
		return err
	})
}

// SetPinned pins a conversation to the top of the list, or unpins it.
func (s *Store) SetPinned(ctx context.Context, id int64, pinned bool) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE conversations SET pinned = ? WHERE id = ?`, pinned, id)
		return err
	})
}

// SetSettings saves a conversation's model, system prompt, temperature
// and max tokens.
func (s *Store) SetSettings(ctx context.Context, c Conversation) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE conversations SET model = ?, system_prompt = ?, temperature = ?, max_tokens = ? WHERE id = ?`,
			c.Model, c.System, c.Temperature, c.MaxTokens, c.ID)
		return err
	})
}

// Delete hides a conversation; Restore brings it back. It is removed for
// good when the library is next opened alone (the app's next start), so
// Undo works until the app closes.
func (s *Store) Delete(ctx context.Context, id int64) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE conversations SET deleted_ms = ? WHERE id = ?`, now(), id)
		return err
	})
}

// Restore undoes Delete.
func (s *Store) Restore(ctx context.Context, id int64) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE conversations SET deleted_ms = NULL WHERE id = ?`, id)
		return err
	})
}

// Purge removes deleted conversations for good: the app calls it as it
// closes.
func (s *Store) Purge(ctx context.Context) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM conversations WHERE deleted_ms IS NOT NULL`)
		return err
	})
}
