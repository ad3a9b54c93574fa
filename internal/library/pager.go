package library

import (
	"context"
	"slices"
	"sync"
)

// MaxPages is how many pages a Pager keeps: a grid scrolled through a
// hundred thousand images holds a screenful of pages, not the library.
const MaxPages = 16

// Pager reads a query's items by their place in it, for a grid that shows
// every one of them: in pages, each found by keyset from a neighbouring
// page when one is loaded (scrolling costs one page, at any depth), else
// from whichever end of the order is nearer (the last image is as quick
// to reach as the first). It is safe for concurrent use.
type Pager struct {
	lib  *Library
	q    Query
	size int

	mu    sync.Mutex
	total int
	pages map[int][]Item
	used  []int // pages, least recently used first
}

// NewPager pages through q's items, size at a time.
func (l *Library) NewPager(q Query, size int) *Pager {
	q.Limit, q.Offset, q.After = 0, 0, nil
	return &Pager{lib: l, q: q, size: max(size, 1), total: -1, pages: map[int][]Item{}}
}

// Query is the query paged.
func (p *Pager) Query() Query { return p.q }

// PageSize is how many items a page holds.
func (p *Pager) PageSize() int { return p.size }

// Count counts the query's items; the grid's length.
func (p *Pager) Count(ctx context.Context) (int, error) {
	n, err := p.lib.Count(ctx, p.q)
	if err == nil {
		p.mu.Lock()
		p.total = n
		p.mu.Unlock()
	}
	return n, err
}

// Total is the count last read, -1 before Count.
func (p *Pager) Total() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.total
}

// Page is the page that holds item i.
func (p *Pager) Page(i int) int { return i / p.size }

// Item is item i when its page is loaded.
func (p *Pager) Item(i int) (Item, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	page, ok := p.pages[i/p.size]
	if !ok || i%p.size >= len(page) {
		return Item{}, false
	}
	p.touch(i / p.size)
	return page[i%p.size], true
}

// Loaded reports whether page n is loaded.
func (p *Pager) Loaded(n int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.pages[n]
	return ok
}

// Find is the place of item id among the loaded pages.
func (p *Pager) Find(id int64) (int, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for n, page := range p.pages {
		for k, it := range page {
			if it.ID == id {
				return n*p.size + k, true
			}
		}
	}
	return 0, false
}

func (p *Pager) touch(n int) {
	if i := slices.Index(p.used, n); i >= 0 {
		p.used = append(p.used[:i], p.used[i+1:]...)
	}
	p.used = append(p.used, n)
}

// Load reads page n, unless it is loaded.
func (p *Pager) Load(ctx context.Context, n int) error {
	p.mu.Lock()
	if _, ok := p.pages[n]; ok {
		p.mu.Unlock()
		return nil
	}
	total := p.total
	prev, hasPrev := p.pages[n-1]
	next, hasNext := p.pages[n+1]
	p.mu.Unlock()

	q := p.q
	q.Limit = p.size
	reverse := false
	switch {
	case hasPrev && len(prev) == p.size:
		k := prev[len(prev)-1].Key()
		q.After = &k
	case hasNext && len(next) > 0:
		// From the page after, backwards.
		k := next[0].Key()
		q.After, q.Oldest, reverse = &k, !q.Oldest, true
	default:
		start := n * p.size
		fromEnd := total - (n+1)*p.size
		if total < 0 || start <= fromEnd {
			q.Offset = start
		} else {
			// Nearer the end: read from there, backwards.
			q.Oldest, reverse = !q.Oldest, true
			q.Offset = max(0, fromEnd)
			q.Limit = min(p.size, total-start)
		}
	}
	if q.Limit <= 0 {
		q.Limit = p.size
	}
	items, err := p.lib.List(ctx, q)
	if err != nil {
		return err
	}
	if reverse {
		slices.Reverse(items)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pages[n] = items
	p.touch(n)
	for len(p.used) > MaxPages {
		delete(p.pages, p.used[0])
		p.used = p.used[1:]
	}
	return nil
}
