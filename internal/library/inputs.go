package library

import (
	"bufio"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"easel/internal/api"
	"easel/internal/atomicfile"
	"easel/internal/catalogue"
	"easel/internal/imageio"
)

// Input is an image an edit was made from, or its mask, as it was sent.
type Input struct {
	Name string
	Data []byte
	// Path, instead of Data, is a file the input is copied from without
	// being held in memory (api.InputImage.Path).
	Path string
	// Role is RoleMarks for a markup edit's marks among the images,
	// RoleOriginal for the user's own first picture; "" is an image.
	Role string
}

// The roles an input plays.
const (
	RoleImage = "image"
	RoleMask  = "mask"
	// RoleMarks is a markup edit's marks (api.EditRequest.Markup),
	// kept with the images they were drawn over.
	RoleMarks = "marks"
	// RoleOriginal is the first image as the user gave it, where the one
	// sent differs (padded to a shape the model makes, marks drawn on
	// it): what a kept edit is compared with. It was not sent.
	RoleOriginal = "original"
)

// StoredInput is one of the files an item was made from.
type StoredInput struct {
	// Role is RoleImage or RoleMask; Position is an image's place among
	// the inputs (0 is the first, the one the mask was painted on).
	Role     string
	Position int
	// Name is the file's name as the user had it.
	Name string
	// Hash is the SHA-256 of its bytes: the same file sent ten times is
	// stored once.
	Hash          string
	File          string
	Format        string
	Width, Height int
	SizeBytes     int64
}

// storedRef is an input as the pending record and the rows hold it.
type storedRef struct {
	Role, Name, Hash, File, Format string
	Position, Width, Height        int
	Size                           int64
}

// InputStore keeps the files edits were made from and chat messages
// carried, once each by content under inputs/, and the rows that link
// them. It shares the library's database and folder, and owns the
// hashes of the files it has already read.
type InputStore struct {
	db   *sql.DB
	root string
	// saveErr is why nothing may be written now (the library's).
	saveErr func() error
	// hashed remembers the SHA-256 of input files already hashed, by
	// fileStamp, so one is not read again to be kept twice.
	hashed sync.Map
}

// Inputs are the files items were made from (see InputStore).
func (l *Library) Inputs() *InputStore { return l.inputs }

// ownInput is the name Easel gives a stored input: its hash.
var ownInput = regexp.MustCompile(`^[0-9a-f]{64}\.[a-z]{3,4}$`)

// storeInputs writes each input's file under inputs/, named by its
// content, unless it is there already, and returns what the row will
// link. It runs before the pending record, so a kill leaves at most a
// file no row names, which recovery removes.
func (l *InputStore) storeInputs(images []Input, mask *Input) ([]storedRef, error) {
	var refs []storedRef
	for _, p := range placeInputs(images, mask) {
		ref, err := l.storeInput(p.in)
		if err != nil {
			return nil, err
		}
		ref.Role, ref.Position = p.role, p.pos
		refs = append(refs, ref)
	}
	return refs, nil
}

// placedInput is an input with its role and its place among its role's.
type placedInput struct {
	in   Input
	role string
	pos  int
}

// placeInputs gives each input its role (an image unless it says) and
// its position among that role's, in order; the mask last.
func placeInputs(images []Input, mask *Input) []placedInput {
	var out []placedInput
	pos := map[string]int{}
	for _, in := range images {
		role := in.Role
		if role == "" {
			role = RoleImage
		}
		out = append(out, placedInput{in, role, pos[role]})
		pos[role]++
	}
	if mask != nil {
		out = append(out, placedInput{*mask, RoleMask, 0})
	}
	return out
}

// storeInput writes one input's file under inputs/, named by its
// content, unless it is there already. A file input is never held
// whole: it is hashed and copied, each as a stream.
func (l *InputStore) storeInput(in Input) (storedRef, error) {
	if in.Data == nil && in.Path != "" {
		return l.storeInputFile(in)
	}
	format, w, h, err := imageio.SniffImage(in.Data)
	if err != nil {
		return storedRef{}, fmt.Errorf(catalogue.T("library: input %q: %w"), in.Name, err)
	}
	sum := sha256.Sum256(in.Data)
	ref := inputRef(in.Name, hex.EncodeToString(sum[:]), format, w, h, int64(len(in.Data)))
	full := filepath.Join(l.root, filepath.FromSlash(ref.File))
	if st, err := os.Stat(full); err != nil || st.Size() != ref.Size {
		if err := atomicfile.Write(full, in.Data); err != nil {
			return storedRef{}, fmt.Errorf(catalogue.T("library: cannot keep the input %q: %w"), in.Name, err)
		}
	}
	return ref, nil
}

func (l *InputStore) storeInputFile(in Input) (storedRef, error) {
	f, err := os.Open(in.Path)
	if err != nil {
		return storedRef{}, fmt.Errorf(catalogue.T("library: cannot keep the input %q: %w"), in.Name, err)
	}
	defer f.Close()
	cfg, format, err := image.DecodeConfig(bufio.NewReader(f))
	if err != nil {
		return storedRef{}, fmt.Errorf(catalogue.T("library: input %q: %w"), in.Name, err)
	}
	hash, size, err := l.hashFile(f)
	if err != nil {
		return storedRef{}, fmt.Errorf(catalogue.T("library: cannot keep the input %q: %w"), in.Name, err)
	}
	ref := inputRef(in.Name, hash, format, cfg.Width, cfg.Height, size)
	full := filepath.Join(l.root, filepath.FromSlash(ref.File))
	if st, err := os.Stat(full); err != nil || st.Size() != ref.Size {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return storedRef{}, err
		}
		if err := atomicfile.CopyUnsynced(full, io.LimitReader(f, size)); err != nil {
			return storedRef{}, fmt.Errorf(catalogue.T("library: cannot keep the input %q: %w"), in.Name, err)
		}
	}
	return ref, nil
}

// fileStamp names a file's content for the hashes already taken: the
// same path, size and modification time.
type fileStamp struct {
	path string
	size int64
	mod  time.Time
}

// hashFile is f's SHA-256 and size. A file hashed before in this
// process, unchanged since, is not read again: an edit's 800 MB of
// references are hashed once for the journal, not again for the
// gallery's item when the answer comes.
func (l *InputStore) hashFile(f *os.File) (string, int64, error) {
	st, err := f.Stat()
	if err != nil {
		return "", 0, err
	}
	stamp := fileStamp{f.Name(), st.Size(), st.ModTime()}
	if h, ok := l.hashed.Load(stamp); ok {
		return h.(string), st.Size(), nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", 0, err
	}
	h := sha256.New()
	size, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	sum := hex.EncodeToString(h.Sum(nil))
	if size == st.Size() {
		l.hashed.Store(stamp, sum)
	}
	return sum, size, nil
}

// inputRef is where an input of this content is kept.
func inputRef(name, hash, format string, w, h int, size int64) storedRef {
	ext := format
	if ext == "jpeg" {
		ext = "jpg"
	}
	rel := path.Join("inputs", hash[:2], hash+"."+ext)
	return storedRef{Name: name, Hash: hash, File: rel, Format: format, Width: w, Height: h, Size: size}
}

// Keep keeps an image a chat message carries, like an edit's inputs:
// its file once under inputs/, by content. The caller links it
// (RecordInput, then its own row) in one transaction.
func (l *InputStore) Keep(in Input) (StoredInput, error) {
	if err := l.saveErr(); err != nil {
		return StoredInput{}, err
	}
	refs, err := l.storeInputs([]Input{in}, nil)
	if err != nil {
		return StoredInput{}, err
	}
	r := refs[0]
	return StoredInput{Role: r.Role, Name: r.Name, Hash: r.Hash, File: r.File, Format: r.Format, Width: r.Width, Height: r.Height, SizeBytes: r.Size}, nil
}

// RecordInput records a stored input's row inside tx (once per content).
func RecordInput(ctx context.Context, tx *sql.Tx, s StoredInput) error {
	return recordInput(ctx, tx, storedRef{Hash: s.Hash, File: s.File, Format: s.Format, Width: s.Width, Height: s.Height, Size: s.SizeBytes})
}

// recordInput writes a stored file's row inside tx, once per content:
// items, chat messages and journalled jobs all link to it by hash.
func recordInput(ctx context.Context, tx *sql.Tx, r storedRef) error {
	_, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO inputs (hash, file, format, width, height, size_bytes) VALUES (?, ?, ?, ?, ?, ?)`,
		r.Hash, r.File, r.Format, r.Width, r.Height, r.Size)
	return err
}

// EditInputs are an edit's images, in order, and its mask, as the library
// keeps them (with an item, or with a journalled job).
func EditInputs(e *api.EditRequest) (images []Input, mask *Input) {
	for _, in := range e.Images {
		images = append(images, Input{Name: in.Name, Data: in.Data, Path: in.Path})
	}
	if e.Markup != nil {
		images = append(images, Input{Name: e.Markup.Name, Data: e.Markup.Data, Role: RoleMarks})
	}
	if e.Mask != nil {
		mask = &Input{Name: e.Mask.Name, Data: e.Mask.Data}
	}
	return images, mask
}

// linkInputs records an item's inputs inside its transaction.
func linkInputs(ctx context.Context, tx *sql.Tx, item int64, refs []storedRef) error {
	for _, r := range refs {
		if err := recordInput(ctx, tx, r); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO item_inputs (item, role, position, hash, name) VALUES (?, ?, ?, ?, ?)`,
			item, r.Role, r.Position, r.Hash, r.Name); err != nil {
			return err
		}
	}
	return nil
}

// Of are the files item id was made from: its images in the order they
// were sent, then its mask. Items made before inputs were kept (and
// generations) have none.
func (l *InputStore) Of(ctx context.Context, id int64) ([]StoredInput, error) {
	rows, err := l.db.QueryContext(ctx, `SELECT ii.role, ii.position, ii.name, i.hash, i.file, i.format, i.width, i.height, i.size_bytes
		FROM item_inputs ii JOIN inputs i ON i.hash = ii.hash WHERE ii.item = ?
		ORDER BY ii.role = 'mask', ii.position`, id)
	if err != nil {
		return nil, fmt.Errorf("library: %w", err)
	}
	defer rows.Close()
	var out []StoredInput
	for rows.Next() {
		var s StoredInput
		if err := rows.Scan(&s.Role, &s.Position, &s.Name, &s.Hash, &s.File, &s.Format, &s.Width, &s.Height, &s.SizeBytes); err != nil {
			return nil, fmt.Errorf("library: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// Path is the absolute path of a stored input's file.
func (l *InputStore) Path(s StoredInput) string {
	return filepath.Join(l.root, filepath.FromSlash(s.File))
}

// cleanInputs drops stored inputs no item, chat message or journalled job
// links any more
// (they were deleted) and files in inputs/ that Easel named but no row holds (a
// save killed before its row). It runs in recovery, alone, after every
// pending record is settled; files Easel did not name stay.
func (l *InputStore) clean(ctx context.Context) error {
	if _, err := l.db.ExecContext(ctx, `DELETE FROM inputs WHERE hash NOT IN (SELECT hash FROM item_inputs) AND hash NOT IN (SELECT hash FROM message_images)
		AND hash NOT IN (SELECT hash FROM journal_inputs)`); err != nil {
		return err
	}
	known := map[string]bool{}
	rows, err := l.db.QueryContext(ctx, `SELECT file FROM inputs`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var f string
		if err := rows.Scan(&f); err != nil {
			_ = rows.Close()
			return err
		}
		known[f] = true
	}
	_ = rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	dir := filepath.Join(l.root, "inputs")
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(l.root, p)
		if known[filepath.ToSlash(rel)] {
			return nil
		}
		if ownInput.MatchString(d.Name()) || ownInputTemp.MatchString(d.Name()) {
			return removeIfThere(p)
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// ownInputTemp is a stored input's half-written file.
var ownInputTemp = regexp.MustCompile(`^[0-9a-f]{64}\.[a-z]{3,4}\.\d+\.tmp$`)
