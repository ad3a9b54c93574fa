package conversations

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/imageio"
	"easel/internal/library"
)

func scanMessage(sc interface{ Scan(...any) error }) (Message, error) {
	var m Message
	var state string
	var created int64
	err := sc.Scan(&m.ID, &m.Conversation, &m.Parent, &m.Role, &m.Content, &m.Reasoning, &state, &m.ErrorKind, &m.ErrorText, &m.Model,
		&m.InputTokens, &m.OutputTokens, &created)
	m.State, m.Created = State(state), time.UnixMilli(created)
	return m, err
}

// parentArg is a parent id as SQL: NULL for none.
func parentArg(p int64) any {
	if p == 0 {
		return nil
	}
	return p
}

// add inserts a message under parent, makes it the conversation's leaf
// and touches the conversation, inside tx.
func add(ctx context.Context, tx *sql.Tx, m Message) (int64, error) {
	res, err := tx.ExecContext(ctx, `INSERT INTO messages (conversation, parent, role, content, reasoning, state, model, created_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		m.Conversation, parentArg(m.Parent), m.Role, m.Content, m.Reasoning, string(m.State), m.Model, now())
	if err != nil {
		return 0, err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, err
	}
	_, err = tx.ExecContext(ctx, `UPDATE conversations SET leaf = ?, updated_ms = ? WHERE id = ?`, id, now(), m.Conversation)
	return id, err
}

// NewImage is an image attached to a message being sent.
type NewImage struct {
	Name string
	Data []byte
}

// AddUser adds a user's message after parent (0: the first), with its
// images stored in the library, and makes it the branch shown.
func (s *Store) AddUser(ctx context.Context, conv, parent int64, text string, images []NewImage) (int64, error) {
	if err := s.writable(); err != nil {
		return 0, err
	}
	var stored []Image
	for _, img := range images {
		in, err := s.lib.Inputs().Keep(library.Input{Name: img.Name, Data: img.Data})
		if err != nil {
			return 0, fmt.Errorf("conversations: %w", err)
		}
		stored = append(stored, Image{Name: img.Name, StoredInput: in})
	}
	var id int64
	err := s.inTx(ctx, func(tx *sql.Tx) (err error) {
		id, err = add(ctx, tx, Message{Conversation: conv, Parent: parent, Role: api.RoleUser, Content: text, State: Done})
		if err != nil {
			return err
		}
		for i, img := range stored {
			if err := library.RecordInput(ctx, tx, img.StoredInput); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO message_images (message, position, hash, name) VALUES (?, ?, ?, ?)`, id, i, img.Hash, img.Name); err != nil {
				return err
			}
		}
		return nil
	})
	return id, err
}

// StartReply adds an empty assistant message, streaming, after parent,
// and makes it the branch shown.
func (s *Store) StartReply(ctx context.Context, conv, parent int64, model string) (int64, error) {
	var id int64
	err := s.inTx(ctx, func(tx *sql.Tx) (err error) {
		id, err = add(ctx, tx, Message{Conversation: conv, Parent: parent, Role: api.RoleAssistant, State: Streaming, Model: model})
		return err
	})
	return id, err
}

// Stream writes what has arrived of a streaming reply. The window calls
// it before it shows that text, so whatever was shown survives a kill.
func (s *Store) Stream(ctx context.Context, id int64, content, reasoning string) error {
	if err := s.writable(); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, `UPDATE messages SET content = ?, reasoning = ? WHERE id = ? AND state = ?`, content, reasoning, id, string(Streaming))
	if err != nil {
		return fmt.Errorf("conversations: %w", err)
	}
	return nil
}

// Ending is how a reply ended.
type Ending struct {
	State              State
	Content, Reasoning string
	Model              string
	// Usage is the reply's token usage, when the service reported it.
	Usage *api.Usage
	// ErrorKind and ErrorText say what went wrong, for Failed and Cut.
	ErrorKind, ErrorText string
}

// Finish records how a reply ended, with its whole text.
func (s *Store) Finish(ctx context.Context, id int64, e Ending) error {
	var in, out int64
	if e.Usage != nil {
		in, out = e.Usage.InputTokens, e.Usage.OutputTokens
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		q := `UPDATE messages SET state = ?, content = ?, reasoning = ?, input_tokens = ?, output_tokens = ?, error_kind = ?, error_text = ?`
		args := []any{string(e.State), e.Content, e.Reasoning, in, out, e.ErrorKind, e.ErrorText}
		if e.Model != "" {
			q += `, model = ?`
			args = append(args, e.Model)
		}
		_, err := tx.ExecContext(ctx, q+` WHERE id = ?`, append(args, id)...)
		return err
	})
}

// Path is the branch shown of a conversation: from its first message to
// its leaf, each with its images and versions.
func (s *Store) Path(ctx context.Context, conv int64) ([]Message, error) {
	rows, err := s.db.QueryContext(ctx, `WITH RECURSIVE path(id, depth) AS (
			SELECT leaf, 0 FROM conversations WHERE id = ? AND leaf IS NOT NULL
			UNION ALL
			SELECT m.parent, p.depth + 1 FROM messages m JOIN path p ON m.id = p.id WHERE m.parent IS NOT NULL
		)
		SELECT m.id, m.conversation, COALESCE(m.parent, 0), m.role, m.content, m.reasoning, m.state, m.error_kind, m.error_text, m.model,
			m.input_tokens, m.output_tokens, m.created_ms FROM path JOIN messages m ON m.id = path.id ORDER BY path.depth DESC`, conv)
	if err != nil {
		return nil, fmt.Errorf("conversations: %w", err)
	}
	var path []Message
	for rows.Next() {
		m, err := scanMessage(rows)
		if err != nil {
			_ = rows.Close()
			return nil, fmt.Errorf("conversations: %w", err)
		}
		path = append(path, m)
	}
	_ = rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("conversations: %w", err)
	}
	if err := s.fill(ctx, conv, path); err != nil {
		return nil, err
	}
	return path, nil
}

// fill adds each message's versions and images.
func (s *Store) fill(ctx context.Context, conv int64, path []Message) error {
	// Versions: the children of each parent on the path, in order.
	siblings := map[int64][]int64{}
	rows, err := s.db.QueryContext(ctx, `SELECT id, COALESCE(parent, 0) FROM messages WHERE conversation = ? ORDER BY id`, conv)
	if err != nil {
		return fmt.Errorf("conversations: %w", err)
	}
	for rows.Next() {
		var id, parent int64
		if err := rows.Scan(&id, &parent); err != nil {
			_ = rows.Close()
			return fmt.Errorf("conversations: %w", err)
		}
		siblings[parent] = append(siblings[parent], id)
	}
	_ = rows.Close()
	index := map[int64]int{}
	for i := range path {
		m := &path[i]
		m.Siblings = siblings[m.Parent]
		m.Versions = len(m.Siblings)
		for k, id := range m.Siblings {
			if id == m.ID {
				m.Version = k
			}
		}
		index[m.ID] = i
	}
	imgs, err := s.db.QueryContext(ctx, `SELECT mi.message, mi.name, i.hash, i.file, i.format, i.width, i.height, i.size_bytes
		FROM message_images mi JOIN inputs i ON i.hash = mi.hash JOIN messages m ON m.id = mi.message
		WHERE m.conversation = ? ORDER BY mi.message, mi.position`, conv)
	if err != nil {
		return fmt.Errorf("conversations: %w", err)
	}
	defer imgs.Close()
	for imgs.Next() {
		var msg int64
		var img Image
		if err := imgs.Scan(&msg, &img.Name, &img.Hash, &img.File, &img.Format, &img.Width, &img.Height, &img.SizeBytes); err != nil {
			return fmt.Errorf("conversations: %w", err)
		}
		img.StoredInput.Name, img.Role = img.Name, "image"
		if i, ok := index[msg]; ok {
			path[i].Images = append(path[i].Images, img)
		}
	}
	return imgs.Err()
}

// ShowVersion makes the branch through message id the one shown: its
// leaf is the newest message at the end of id's own branch.
func (s *Store) ShowVersion(ctx context.Context, conv, id int64) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		leaf := id
		for {
			var child int64
			err := tx.QueryRowContext(ctx, `SELECT id FROM messages WHERE parent = ? ORDER BY id DESC LIMIT 1`, leaf).Scan(&child)
			if err == sql.ErrNoRows {
				break
			}
			if err != nil {
				return err
			}
			leaf = child
		}
		_, err := tx.ExecContext(ctx, `UPDATE conversations SET leaf = ? WHERE id = ?`, leaf, conv)
		return err
	})
}

// DeleteMessage removes a message and everything after it on every
// branch; the branch shown ends at its parent's newest other branch, or
// at its parent.
func (s *Store) DeleteMessage(ctx context.Context, conv, id int64) error {
	var parent sql.NullInt64
	if err := s.db.QueryRowContext(ctx, `SELECT parent FROM messages WHERE id = ? AND conversation = ?`, id, conv).Scan(&parent); err != nil {
		return fmt.Errorf("conversations: %w", err)
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		// ON DELETE CASCADE on parent removes the subtree; the FTS rows
		// go through the delete trigger of each.
		_, err := tx.ExecContext(ctx, `DELETE FROM messages WHERE id = ?`, id)
		if err != nil {
			return err
		}
		var leaf sql.NullInt64
		if parent.Valid {
			leaf = parent
		}
		_, err = tx.ExecContext(ctx, `UPDATE conversations SET leaf = ?, updated_ms = ? WHERE id = ?`, leaf, now(), conv)
		return err
	})
	if err != nil {
		return err
	}
	// Show the newest branch left under the parent, if any.
	var next int64
	q := `SELECT id FROM messages WHERE conversation = ? AND parent IS NULL ORDER BY id DESC LIMIT 1`
	args := []any{conv}
	if parent.Valid {
		q = `SELECT id FROM messages WHERE parent = ? ORDER BY id DESC LIMIT 1`
		args = []any{parent.Int64}
	}
	if s.db.QueryRowContext(ctx, q, args...).Scan(&next) == nil {
		return s.ShowVersion(ctx, conv, next)
	}
	return nil
}

// Request is what to send for the reply that follows path: the system
// prompt, then each message, its images read back from the library.
// With bare, only the model and the last user message go, as the spec
// advises for a retry after a failure.
func (s *Store) Request(c Conversation, path []Message, bare bool) (api.ChatRequest, error) {
	req := api.ChatRequest{Model: c.Model, Stream: true, IncludeUsage: true}
	if !bare {
		req.Temperature, req.MaxTokens = c.Temperature, c.MaxTokens
		if strings.TrimSpace(c.System) != "" {
			req.Messages = append(req.Messages, api.Message{Role: api.RoleSystem, Content: c.System})
		}
	}
	for i, m := range path {
		if bare && (i != len(path)-1 || m.Role != api.RoleUser) {
			continue
		}
		if m.Role == api.RoleAssistant && (m.State == Failed || m.Content == "") {
			continue // nothing was said
		}
		msg := api.Message{Role: m.Role, Content: m.Content}
		for _, img := range m.Images {
			data, err := imageio.ReadFile(s.lib.Inputs().Path(img.StoredInput))
			if err != nil {
				return req, fmt.Errorf(catalogue.T("the image %s attached to an earlier message cannot be read: %w"), img.Name, err)
			}
			msg.Images = append(msg.Images, api.InputImage{Name: img.Name, ContentType: "image/" + img.Format, Data: data})
		}
		req.Messages = append(req.Messages, msg)
	}
	return req, nil
}
