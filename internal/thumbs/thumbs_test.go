package thumbs

import (
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"easel/internal/library"
)

// fileSource makes every item's thumbnail the same small PNG and counts
// the calls; block, when set, holds each call until it is closed.
type fileSource struct {
	path  string
	calls atomic.Int32
	block chan struct{}
}

func (s *fileSource) Thumbnail(library.Item) (string, error) {
	s.calls.Add(1)
	if s.block != nil {
		<-s.block
	}
	return s.path, nil
}

func newSource(t *testing.T) *fileSource {
	img := image.NewNRGBA(image.Rect(0, 0, 4, 4))
	img.SetNRGBA(0, 0, color.NRGBA{A: 0x80})
	p := filepath.Join(t.TempDir(), "t.png")
	f, _ := os.Create(p)
	_ = png.Encode(f, img)
	f.Close()
	return &fileSource{path: p}
}

func load(t *testing.T, s *Service, id int64) Thumb {
	t.Helper()
	got := make(chan Thumb, 1)
	s.Load(context.Background(), library.Item{ID: id}, func(th Thumb) { got <- th })
	select {
	case th := <-got:
		return th
	case <-time.After(5 * time.Second):
		t.Fatal("no thumbnail")
		return Thumb{}
	}
}

func TestTheCacheKeepsTheMostRecentlyUsedAndStaysBounded(t *testing.T) {
	s := New(newSource(t))
	th := load(t, s, 1)
	if th.Image == nil || th.Opaque {
		t.Fatalf("thumb %+v: want an image found translucent", th)
	}
	for id := int64(2); id <= CacheSize+50; id++ {
		load(t, s, id)
		if id == CacheSize/2 {
			s.Cached(1) // used again: stays
		}
	}
	if s.Len() != CacheSize {
		t.Errorf("%d thumbnails held, want the bound %d", s.Len(), CacheSize)
	}
	if _, ok := s.Cached(1); !ok {
		t.Error("a thumbnail used recently was dropped")
	}
	if _, ok := s.Cached(2); ok {
		t.Error("the least recently used thumbnail is still held")
	}
}

// A cell bound to another item cancels its old load: the old load's
// callback never runs, and loads waiting for a slot decode nothing.
func TestRebindingACellCancelsItsLoad(t *testing.T) {
	src := newSource(t)
	src.block = make(chan struct{})
	s := New(src)
	cells := NewCells[int]()
	var mu sync.Mutex
	var shown []int64
	show := func(id int64) func(Thumb) {
		return func(Thumb) { mu.Lock(); shown = append(shown, id); mu.Unlock() }
	}
	// Fill every slot with loads that block, then queue one more and
	// rebind its cell before a slot frees.
	for i := 0; i < loaders; i++ {
		s.Load(cells.Bind(100+i, int64(100+i)), library.Item{ID: int64(100 + i)}, show(int64(100+i)))
	}
	ctx := cells.Bind(1, 7)
	s.Load(ctx, library.Item{ID: 7}, show(7))
	ctx2 := cells.Bind(1, 8) // scrolled: the cell shows item 8 now
	s.Load(ctx2, library.Item{ID: 8}, show(8))
	if ctx.Err() == nil {
		t.Fatal("rebinding did not cancel the old load")
	}
	if !cells.Shows(1, 8) || cells.Shows(1, 7) {
		t.Fatal("the cell does not say it shows item 8")
	}
	close(src.block)
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := len(shown)
		mu.Unlock()
		if n == loaders+1 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	for _, id := range shown {
		if id == 7 {
			t.Error("the cancelled load still called back")
		}
	}
	if got := src.calls.Load(); got != loaders+1 {
		t.Errorf("%d thumbnails made, want %d (the cancelled one not at all)", got, loaders+1)
	}
}
