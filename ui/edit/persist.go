package edit

import (
	"bytes"
	"context"
	"image"
	"log/slog"
	"path/filepath"
	"slices"
	"sync/atomic"
	"time"

	"easel/internal/editsession"
	"easel/internal/imageio"
	"easel/internal/markup"
	"easel/internal/mask"
	"easel/internal/roles"
	"easel/internal/work"
	"easel/ui/dialogs"
)

// saveDelay is how long Edit's session waits after a change before it is
// written: the strokes of one gesture and the tiles of one drop are one
// write.
const saveDelay = 400 * time.Millisecond

// sessionKeeper keeps Edit's work (editsession) as it changes, in a
// folder beside the gallery, and brings the last session back when Edit
// opens on an empty strip: the references in order, each one's mask, the
// marks on the first. It reads the strip and the painter it was given and
// owns only when a save is due.
type sessionKeeper struct {
	host  Host
	strip *refStrip
	mask  *maskTools
	// due is set while a save waits: changes meanwhile join it.
	// Atomic: a layout pass may report a painter change from the
	// goroutine that resizes the window (Fyne's test driver does).
	due atomic.Bool
	// restored is set once the last session was read (or there was
	// none): nothing is saved before, or an empty strip at start would
	// write over the session it is about to bring back.
	restored atomic.Bool
	// superseded is set when images were handed to Edit (files given at
	// start, a drop, Edit this) before the last session came back: what
	// the designer just asked for wins, and the old session is not put
	// in front of it.
	superseded atomic.Bool
}

// supersede says images were handed to Edit: a session still being read
// is not brought back.
// Nil before Edit is built: nothing to bring back then.
func (k *sessionKeeper) supersede() {
	if k != nil {
		k.superseded.Store(true)
	}
}

// dir is the session's folder: beside the gallery, as what it holds
// (gallery pictures by id, stored bytes) belongs to it.
func (k *sessionKeeper) dir() string {
	if lib := k.host.Library(); lib != nil {
		return filepath.Join(lib.Root(), "edit-session")
	}
	return ""
}

// changed asks for the session to be written shortly.
func (k *sessionKeeper) changed() {
	if !k.restored.Load() || k.dir() == "" || !k.due.CompareAndSwap(false, true) {
		return
	}
	k.host.Work().Go(func(ctx context.Context) {
		select {
		case <-time.After(saveDelay):
		case <-ctx.Done():
			k.due.Store(false)
			return
		}
		k.host.Work().Do(func() {
			k.due.Store(false)
			snap, dir := k.snapshot(), k.dir()
			work.Run(k.host.Work(), func(context.Context) error { return editsession.Save(dir, snap.session()) }, func(err error) {
				if err != nil {
					slog.Warn("edit: the session could not be kept", "err", err)
				}
			})
		})
	})
}

// snapshot is the session as it stands, taken on the UI goroutine: the
// inputs (their bytes shared, never changed in place) and a copy of each
// painted mask, encoded later off it.
func (k *sessionKeeper) snapshot() snapshot {
	var s snapshot
	for i := range k.strip.inputs {
		in := &k.strip.inputs[i]
		e := editsession.Input{Name: in.Image.Name, ContentType: in.Image.ContentType, Item: in.Item, Path: in.Image.Path, Role: string(in.Role)}
		if e.Item == 0 && e.Path == "" {
			e.Data = in.Image.Data
		}
		var painted *image.Alpha
		if m := k.mask.masks[key(in)]; m != nil && m.IsPainted() {
			a := m.Alpha()
			painted = &image.Alpha{Pix: slices.Clone(a.Pix), Stride: a.Stride, Rect: a.Rect}
		}
		s.inputs, s.masks = append(s.inputs, e), append(s.masks, painted)
	}
	if marks := k.mask.painter.Marks.All(); !marks.Empty() {
		marks.Items = slices.Clone(marks.Items)
		s.marks = &marks
	}
	return s
}

// snapshot is a session before its masks are encoded.
type snapshot struct {
	inputs []editsession.Input
	masks  []*image.Alpha
	marks  *markup.Marks
}

// session encodes the masks: off the UI goroutine (a 4K mask's PNG takes
// a moment).
func (s snapshot) session() editsession.Session {
	for i, a := range s.masks {
		if a != nil {
			s.inputs[i].Mask, _ = mask.FromAlpha(a).PNG()
		}
	}
	return editsession.Session{Inputs: s.inputs, Marks: s.marks}
}

// restore brings the last session back when the strip is empty, reading
// its pictures off the UI goroutine; what is gone is said.
func (k *sessionKeeper) restore() {
	dir := k.dir()
	if dir == "" || len(k.strip.inputs) > 0 {
		k.restored.Store(true)
		return
	}
	work.Load(k.host.Work(), func(ctx context.Context) (kept, error) {
		s, err := editsession.Load(dir)
		return k.read(ctx, s), err
	}, func(r kept, err error) {
		k.restored.Store(true)
		if err != nil {
			k.strip.say(err.Error())
		}
		if k.superseded.Load() || len(k.strip.inputs) > 0 || len(r.inputs) == 0 {
			return // the designer began another meanwhile
		}
		k.put(r)
	})
}

// read makes a session's inputs and masks again, off the UI goroutine;
// an input that is gone is left out.
func (k *sessionKeeper) read(ctx context.Context, s editsession.Session) kept {
	r := kept{inputs: make([]Input, 0, len(s.Inputs)), masks: make([]*mask.Mask, 0, len(s.Inputs)), marks: s.Marks}
	for _, e := range s.Inputs {
		in, ok := k.input(ctx, e)
		if !ok {
			r.lost = append(r.lost, e.Name)
			continue
		}
		in.Role = roles.Role(e.Role)
		var m *mask.Mask
		if img, derr := imageio.DecodeBounded(bytes.NewReader(e.Mask), imageio.MaxPixels); e.Mask != nil && derr == nil {
			m = mask.FromImage(img)
		}
		r.inputs, r.masks = append(r.inputs, in), append(r.masks, m)
	}
	return r
}

// put shows a session read back after the inputs there: each mask with
// its image, the marks on the first once the painter shows it.
func (k *sessionKeeper) put(r kept) {
	for i := range r.inputs {
		if r.masks[i] != nil {
			k.mask.masks[key(&r.inputs[i])] = r.masks[i]
		}
	}
	k.mask.pendingMarks = r.marks
	k.strip.add(r.inputs...)
}

// kept is a session read back: its inputs made again, each one's mask
// (nil: none painted), and the marks.
type kept struct {
	inputs []Input
	masks  []*mask.Mask
	marks  *markup.Marks
	// lost names the inputs that could not be read.
	lost []string
}

// input is a session's input made again: a gallery picture read from
// the gallery, a file checked as when it was added, kept bytes as they
// were; ok is false for one that is gone.
func (k *sessionKeeper) input(ctx context.Context, e editsession.Input) (Input, bool) {
	lib := k.host.Library()
	switch {
	case e.Item != 0:
		it, err := lib.Get(ctx, e.Item)
		if err != nil {
			return Input{}, false
		}
		data, err := imageio.ReadFile(lib.Path(it))
		if err != nil {
			return Input{}, false
		}
		return NewInput(dialogs.ExportName(it, it.Format), "image/"+it.Format, data, it.ID, nil), true
	case e.Path != "":
		p, err := imageio.PrepareFile(e.Path, e.Name)
		if err != nil {
			return Input{}, false
		}
		in, err := NewFileInput(p, e.Name)
		return in, err == nil
	case len(e.Data) > 0:
		return NewInput(e.Name, e.ContentType, e.Data, 0, nil), true
	}
	return Input{}, false
}
