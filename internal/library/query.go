package library

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Orientation is an image's shape, for the gallery's filter.
type Orientation int

// The orientations.
const (
	AnyOrientation Orientation = iota
	Square
	Landscape
	Portrait
)

// Query selects items for the gallery. Every filter is part of the SQL:
// the gallery never reads items to throw them away.
type Query struct {
	// Search matches words of the prompt (prefixes too), or of the name
	// of the file an imported picture came from.
	Search string
	// Favorites keeps only favourites.
	Favorites bool
	// Model and Profile keep items made by one model, or on one
	// account; empty keeps all.
	Model, Profile string
	// Kinds keeps items of these kinds ("generate", "edit", "kept",
	// "recovered", "imported"); empty keeps all.
	Kinds []string
	// Threaded keeps the pictures that are turns of a thread (Lineage).
	Threaded bool
	// Format keeps one file format ("png", "jpeg", "webp").
	Format string
	// Credentials keeps items whose files carry Content Credentials in
	// one state (CredentialsSigned, ...); items not read yet are in none.
	Credentials string
	// Orientation keeps square, landscape or portrait images.
	Orientation Orientation
	// From and To keep items made in [From, To); zero is open.
	From, To time.Time
	// Oldest lists oldest first; the default is newest first.
	Oldest bool
	// Limit is the page's size; After continues after an item (keyset
	// paging: the next page starts where the last ended, at any depth,
	// at the cost of one page); Offset skips items (for a jump).
	Limit, Offset int
	After         *Key
}

// Key is an item's place in the gallery's order.
type Key struct {
	CreatedMs, ID int64
}

// Key is the item's place in the gallery's order.
func (it Item) Key() Key { return Key{CreatedMs: it.Created.UnixMilli(), ID: it.ID} }

// filter is q's conditions, without paging.
func (q Query) filter() ([]string, []any) {
	conds := []string{`deleted_ms IS NULL`} // in the trash until Easel closes
	var args []any
	for _, t := range SearchTerms(q.Search) {
		// The prompt, or an imported picture's file name (read through
		// the index of imported pictures alone, a few in a gallery).
		c, a := termCondition(t, "items_fts", "prompt")
		conds = append(conds, `(`+c+` OR id IN (SELECT id FROM items WHERE source_name != '' AND source_name LIKE ? ESCAPE '\'))`)
		args = append(args, a, t.Like())
	}
	if q.Favorites {
		conds = append(conds, `favorite = 1`)
	}
	if q.Model != "" {
		conds, args = append(conds, `model = ?`), append(args, q.Model)
	}
	if q.Profile != "" {
		conds, args = append(conds, `profile = ?`), append(args, q.Profile)
	}
	if len(q.Kinds) > 0 {
		conds = append(conds, `kind IN (?`+strings.Repeat(`, ?`, len(q.Kinds)-1)+`)`)
		for _, k := range q.Kinds {
			args = append(args, k)
		}
	}
	if q.Threaded {
		// A thread of more than its start: a picture made through the
		// Responses API starts one the moment it is saved.
		conds = append(conds, `id IN (SELECT item FROM turns WHERE thread IN (SELECT thread FROM turns WHERE parent IS NOT NULL))`)
	}
	if q.Credentials != "" {
		conds, args = append(conds, `credentials = ?`), append(args, q.Credentials)
	}
	if q.Format != "" {
		conds, args = append(conds, `format = ?`), append(args, q.Format)
	}
	switch q.Orientation {
	case Square:
		conds = append(conds, `width = height`)
	case Landscape:
		conds = append(conds, `width > height`)
	case Portrait:
		conds = append(conds, `width < height`)
	}
	if !q.From.IsZero() {
		conds, args = append(conds, `created_ms >= ?`), append(args, q.From.UnixMilli())
	}
	if !q.To.IsZero() {
		conds, args = append(conds, `created_ms < ?`), append(args, q.To.UnixMilli())
	}
	return conds, args
}

func where(conds []string) string {
	return " WHERE " + strings.Join(conds, " AND ")
}

// Term is one word of a search. The index (SQLite's trigram tokenizer,
// schema 8) finds any run of three or more characters anywhere in the
// text — inside a Chinese sentence, which has no spaces between words, or
// inside an English word; a shorter term (most Chinese words are two
// characters, "海报") is looked for with LIKE instead.
type Term struct {
	Text string
}

// Short reports a term the index cannot find: fewer than three
// characters.
func (t Term) Short() bool { return utf8.RuneCountInString(t.Text) < 3 }

// Phrase is the term as an FTS5 phrase, any quote taken literally.
func (t Term) Phrase() string { return `"` + strings.ReplaceAll(t.Text, `"`, `""`) + `"` }

// Like is the term as a LIKE pattern (with ESCAPE '\'), any % or _
// taken literally.
func (t Term) Like() string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(t.Text) + "%"
}

// SearchTerms splits what the user typed into terms: runs of letters,
// digits, '_' and '-' (any script), split at spaces and punctuation,
// Chinese punctuation included.
func SearchTerms(s string) []Term {
	var out []Term
	for _, w := range strings.FieldsFunc(s, func(r rune) bool {
		return !(r == '_' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r))
	}) {
		out = append(out, Term{Text: w})
	}
	return out
}

// termCondition is the condition that text column col of the table (the
// one the FTS table fts indexes, by rowid = id) holds term.
func termCondition(t Term, fts, col string) (string, any) {
	if t.Short() {
		return col + ` LIKE ? ESCAPE '\'`, t.Like()
	}
	return `id IN (SELECT rowid FROM ` + fts + ` WHERE ` + fts + ` MATCH ?)`, t.Phrase()
}

// TermCondition is termCondition for other stores of the database
// (conversations), whose tables follow the same pattern.
func TermCondition(t Term, fts, col string) (string, any) { return termCondition(t, fts, col) }

// List returns a page of items in q's order.
func (l *Library) List(ctx context.Context, q Query) ([]Item, error) {
	conds, args := q.filter()
	order, cmp := `DESC`, `<`
	if q.Oldest {
		order, cmp = `ASC`, `>`
	}
	if q.After != nil {
		conds = append(conds, `(created_ms, id) `+cmp+` (?, ?)`)
		args = append(args, q.After.CreatedMs, q.After.ID)
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 100
	}
	args = append(args, limit, q.Offset)
	return l.items(ctx, `SELECT `+itemColumns+` FROM items`+where(conds)+
		` ORDER BY created_ms `+order+`, id `+order+` LIMIT ? OFFSET ?`, args...)
}

// items runs a query of items, each marked when its file is missing.
func (l *Library) items(ctx context.Context, query string, args ...any) ([]Item, error) {
	rows, err := l.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("library: %w", err)
	}
	defer rows.Close()
	var out []Item
	for rows.Next() {
		it, err := scanItem(rows)
		if err != nil {
			return nil, fmt.Errorf("library: %w", err)
		}
		l.checkMissing(&it)
		out = append(out, it)
	}
	return out, rows.Err()
}

// Count is how many items match q (paging is ignored).
func (l *Library) Count(ctx context.Context, q Query) (int, error) {
	conds, args := q.filter()
	var n int
	err := l.db.QueryRowContext(ctx, `SELECT count(*) FROM items`+where(conds), args...).Scan(&n)
	return n, err
}

// Facets are the values the gallery's filters offer: the models, the
// accounts and the formats items have, each in order.
type Facets struct {
	Models, Profiles, Formats []string
}

// Facets reads the filters' choices.
func (l *Library) Facets(ctx context.Context) (Facets, error) {
	var f Facets
	for _, c := range []struct {
		col string
		dst *[]string
	}{{"model", &f.Models}, {"profile", &f.Profiles}, {"format", &f.Formats}} {
		// #nosec G202 -- built from fixed fragments; every value is a ? argument
		rows, err := l.db.QueryContext(ctx, `SELECT DISTINCT `+c.col+` FROM items WHERE `+c.col+` != '' AND deleted_ms IS NULL ORDER BY `+c.col)
		if err != nil {
			return f, fmt.Errorf("library: %w", err)
		}
		for rows.Next() {
			var v string
			if err := rows.Scan(&v); err != nil {
				_ = rows.Close()
				return f, fmt.Errorf("library: %w", err)
			}
			*c.dst = append(*c.dst, v)
		}
		_ = rows.Close()
	}
	return f, nil
}
