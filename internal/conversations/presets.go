package conversations

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"easel/internal/api"
	"easel/internal/catalogue"
)

// Preset is a saved system prompt.
type Preset struct {
	ID   int64
	Name string
	// System is the system prompt it sets.
	System string
	// BuiltIn presets come with Easel and cannot be deleted.
	BuiltIn bool
}

// PromptWriter is the built-in preset that turns a rough idea into an
// image prompt covering what the image API's guide lists.
var PromptWriter = Preset{Name: "Prompt writer", BuiltIn: true, System: `You write prompts for an image generation model (gpt-image). The user gives a rough idea; answer with one finished prompt, ready to paste, and nothing else.

Cover, in plain descriptive sentences:
- Subject: who or what, with the details that matter (materials, colours, expressions, counts).
- Scene: where and when; the background and what surrounds the subject.
- Style: the medium (photograph, watercolour, 3D render, flat vector…), references to movements or techniques rather than living artists.
- Composition: framing and viewpoint (close-up, wide, overhead, eye level), where the subject sits, aspect (square, landscape, portrait).
- Lighting and colour: the light's source, direction, time of day, mood; the palette.
- Quality: the level of detail and finish wanted.
- What to avoid: anything that must not appear (text, watermarks, extra limbs, clutter).
Keep any text that must appear in the image in quotes, exactly. Do not add commentary before or after the prompt.`}

// Presets are the built-in presets, then the saved ones by name.
func (s *Store) Presets(ctx context.Context) ([]Preset, error) {
	out := []Preset{PromptWriter}
	rows, err := s.db.QueryContext(ctx, `SELECT id, name, system_prompt FROM presets ORDER BY name COLLATE NOCASE`)
	if err != nil {
		return nil, fmt.Errorf("conversations: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var p Preset
		if err := rows.Scan(&p.ID, &p.Name, &p.System); err != nil {
			return nil, fmt.Errorf("conversations: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// SavePreset saves a system prompt under a name, replacing one of that
// name.
func (s *Store) SavePreset(ctx context.Context, name, system string) error {
	name = strings.TrimSpace(name)
	if name == "" {
		return errors.New(catalogue.T("a preset needs a name"))
	}
	if strings.EqualFold(name, PromptWriter.Name) {
		return fmt.Errorf(catalogue.T("%q is Easel's own preset: choose another name"), name)
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO presets (name, system_prompt) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET system_prompt = excluded.system_prompt`, name, system)
		return err
	})
}

// DeletePreset removes a saved preset.
func (s *Store) DeletePreset(ctx context.Context, id int64) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM presets WHERE id = ?`, id)
		return err
	})
}

// Markdown is a conversation as a Markdown document: its title, its
// settings, and each message of the branch shown under its speaker, with
// a reply's thinking as a quote and how each ended when not whole.
func Markdown(c Conversation, path []Message) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", c.Title)
	meta := []string{"Model: " + orDash(c.Model), "Saved: " + c.Updated.Format(time.DateTime)}
	if c.Temperature != nil {
		meta = append(meta, fmt.Sprintf("Temperature: %g", *c.Temperature))
	}
	if c.MaxTokens != nil {
		meta = append(meta, catalogue.F("Max tokens: %d", *c.MaxTokens))
	}
	b.WriteString("_" + strings.Join(meta, " · ") + "_\n\n")
	if strings.TrimSpace(c.System) != "" {
		b.WriteString("## System\n\n" + strings.TrimSpace(c.System) + "\n\n")
	}
	for _, m := range path {
		who := "You"
		if m.Role == api.RoleAssistant {
			who = "Assistant"
			if m.Model != "" {
				who += " (" + m.Model + ")"
			}
		}
		fmt.Fprintf(&b, "## %s\n\n", who)
		if m.Reasoning != "" {
			b.WriteString("> **Thinking**\n>\n")
			for _, l := range strings.Split(strings.TrimSpace(m.Reasoning), "\n") {
				b.WriteString("> " + l + "\n")
			}
			b.WriteString("\n")
		}
		if m.Content != "" {
			b.WriteString(strings.TrimSpace(m.Content) + "\n\n")
		}
		for _, img := range m.Images {
			b.WriteString("_" + catalogue.F("Image attached: %s (%d×%d)", img.Name, img.Width, img.Height) + "_\n\n")
		}
		switch m.State {
		case Stopped:
			b.WriteString("_Stopped before the end._\n\n")
		case Cut:
			b.WriteString("_Cut short: " + m.ErrorText + "_\n\n")
		case Failed:
			b.WriteString("_Failed: " + m.ErrorText + "_\n\n")
		}
	}
	return b.String()
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
