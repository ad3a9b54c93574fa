package library

import (
	"context"
	"fmt"
	"strings"
	"time"
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
	// Search matches words of the prompt (prefixes too).
	Search string
	// Favorites keeps only favourites.
	Favorites bool
	// Model and Profile keep items made by one model, or on one
	// account; empty keeps all.
	Model, Profile string
	// Kinds keeps items of these kinds ("generate", "edit", "kept",
	// "recovered", "imported"); empty keeps all.
	Kinds []string
	// Format keeps one file format ("png", "jpeg", "webp").
	Format string
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
	if m := ftsQuery(q.Search); m != "" {
		conds = append(conds, `id IN (SELECT rowid FROM items_fts WHERE items_fts MATCH ?)`)
		args = append(args, m)
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

// ftsQuery turns what the user typed into an FTS5 query: every word must
// appear, as a prefix, and nothing typed can be FTS5 syntax.
func ftsQuery(s string) string {
	var terms []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool {
		return !(r == '_' || r == '-' || r > 127 || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) {
		terms = append(terms, `"`+strings.ReplaceAll(w, `"`, `""`)+`"*`)
	}
	return strings.Join(terms, " ")
}

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
		rows, err := l.db.QueryContext(ctx, `SELECT DISTINCT `+c.col+` FROM items WHERE `+c.col+` != '' AND deleted_ms IS NULL ORDER BY `+c.col)
		if err != nil {
			return f, fmt.Errorf("library: %w", err)
		}
		for rows.Next() {
			var v string
			if err := rows.Scan(&v); err != nil {
				rows.Close()
				return f, fmt.Errorf("library: %w", err)
			}
			*c.dst = append(*c.dst, v)
		}
		rows.Close()
	}
	return f, nil
}

// Children are the items made from item id (its edits, its kept twin),
// newest first.
func (l *Library) Children(ctx context.Context, id int64) ([]Item, error) {
	return l.items(ctx, `SELECT `+itemColumns+` FROM items WHERE deleted_ms IS NULL
		AND id IN (SELECT item FROM parents WHERE parent = ?) ORDER BY created_ms DESC, id DESC LIMIT 100`, id)
}
