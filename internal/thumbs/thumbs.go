// Package thumbs decodes the gallery's thumbnails for the grid and keeps
// the most recently used ones in memory. A grid binds and re-binds its
// cells as it scrolls: each cell asks for the item it shows now and
// cancels the load it asked for before, so a fast scroll over ten
// thousand images decodes only what stays on screen (the way
// dweymouth/supersonic's grid loads its covers), and the cache holds a
// bounded number of images however far the grid goes.
package thumbs

import (
	"context"
	"image"
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"

	"easel/internal/imageio"
	"easel/internal/library"
)

// CacheSize bounds the decoded thumbnails kept: each is at most
// library.ThumbSize pixels square (256 KB as NRGBA), so the cache holds
// at most about 64 MB, several screens of the largest grid.
const CacheSize = 256

// loaders is how many thumbnails decode at once: the grid's cells of one
// screen share the cores with the UI goroutine.
const loaders = 4

// Thumb is a decoded thumbnail and whether it is opaque, found once as it
// loads: a cell is bound again at every scroll, and looking at every
// pixel each time was a third of the gallery's first screen.
type Thumb struct {
	Image  image.Image
	Opaque bool
}

// NewThumb wraps img, looking once at whether it is opaque.
func NewThumb(img image.Image) Thumb {
	return Thumb{Image: img, Opaque: img == nil || imageio.IsOpaque(img)}
}

// Source makes an item's thumbnail file (the library does).
type Source interface {
	Thumbnail(it library.Item) (string, error)
}

// Service loads thumbnails for the grid. Safe for concurrent use.
type Service struct {
	src   Source
	cache *lru.Cache[int64, Thumb]
	slots chan struct{}
	// loads counts the loads under way, for Wait.
	loads sync.WaitGroup
}

// New makes a Service over a source of thumbnail files.
func New(src Source) *Service {
	cache, _ := lru.New[int64, Thumb](CacheSize) // only a size < 1 fails
	return &Service{src: src, cache: cache, slots: make(chan struct{}, loaders)}
}

// Cached returns an item's thumbnail if it is in memory.
func (s *Service) Cached(id int64) (Thumb, bool) { return s.cache.Get(id) }

// Forget drops an item's thumbnail from memory: its image changed (a
// missing file was located), and the next Load makes it again.
func (s *Service) Forget(id int64) { s.cache.Remove(id) }

// Len is how many thumbnails are in memory.
func (s *Service) Len() int { return s.cache.Len() }

// Load decodes an item's thumbnail in the background and calls done with
// it, on the loading goroutine, unless ctx is cancelled first (the cell
// was bound to another item): then done is not called and, if the load
// had not started decoding, nothing is decoded. A thumbnail that cannot
// be made is reported as a Thumb with no image.
func (s *Service) Load(ctx context.Context, it library.Item, done func(Thumb)) {
	s.loads.Add(1)
	go func() {
		defer s.loads.Done()
		select {
		case s.slots <- struct{}{}:
		case <-ctx.Done():
			return
		}
		defer func() { <-s.slots }()
		if ctx.Err() != nil {
			return
		}
		th, ok := s.cache.Get(it.ID)
		if !ok {
			if p, err := s.src.Thumbnail(it); err == nil {
				img, _ := imageio.DecodeFileFit(p, library.ThumbSize)
				th = NewThumb(img)
			}
			if th.Image != nil {
				s.cache.Add(it.ID, th)
			}
		}
		if ctx.Err() == nil {
			done(th)
		}
	}()
}

// Wait waits for the loads under way (a thumbnail being made is written
// to the library's folder), before the library is closed or removed.
func (s *Service) Wait() { s.loads.Wait() }

// Cells tracks which load each grid cell waits for, so binding a cell to
// another item cancels its old load. Its methods are called on the UI
// goroutine; K is the cell's identity (a fyne.CanvasObject in the grid).
type Cells[K comparable] struct {
	mu     sync.Mutex
	cancel map[K]context.CancelFunc
	item   map[K]int64
}

// NewCells makes an empty tracker.
func NewCells[K comparable]() *Cells[K] {
	return &Cells[K]{cancel: map[K]context.CancelFunc{}, item: map[K]int64{}}
}

// Bind records that cell now shows item id and returns the context of its
// load, cancelling the load the cell waited for before.
func (c *Cells[K]) Bind(cell K, id int64) context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cancel := c.cancel[cell]; cancel != nil {
		cancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel[cell], c.item[cell] = cancel, id
	return ctx
}

// Shows reports whether cell still shows item id.
func (c *Cells[K]) Shows(cell K, id int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	got, ok := c.item[cell]
	return ok && got == id
}

// Reset cancels every load, for a grid that shows other items now.
func (c *Cells[K]) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for cell, cancel := range c.cancel {
		cancel()
		delete(c.cancel, cell)
		delete(c.item, cell)
	}
}
