// Package editsession keeps Edit's work between runs: its references in
// order, the mask painted on each, the marks on the first. A designer's
// six references and a painted mask are an hour's work; a quit, a crash
// or a logout must not take them. The session lives in a folder of its
// own beside the gallery: a small JSON document naming each input (a
// gallery picture, a file where the user keeps it, or bytes Easel made,
// kept here) and each mask, kept here as PNG.
//
// Writes are made so that a kill at any moment leaves the last whole
// session: the files a session names are written (by content) before
// the document that names them replaces the last one atomically, and
// only then are files no session names removed.
package editsession

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"easel/internal/atomicfile"
	"easel/internal/catalogue"
	"easel/internal/imageio"
	"easel/internal/markup"
	"easel/internal/roles"
)

// MaxInputs bounds the inputs a session holds: Edit takes at most 16.
const MaxInputs = 16

// maxDocument bounds the session document read: sixteen inputs and a
// few hundred marks are far under it.
const maxDocument = 4 << 20

const docName = "session.json"

// Input is one reference of a session: exactly one of Item, Path and
// Data says where its picture is.
type Input struct {
	Name        string
	ContentType string
	// Item is the gallery picture it is; Path the file it is read from
	// (the user's own, left where it is); Data its bytes when it has
	// neither (pasted, converted by Easel), kept in the session folder.
	Item int64
	Path string
	Data []byte
	// Mask is the mask painted on it, as PNG (transparent: may change);
	// nil when none was painted.
	Mask []byte
	// Role is what it is for (roles.Role), "" when none was said.
	Role string
}

// Session is Edit's work: its inputs in order and the marks drawn on the
// first.
type Session struct {
	Inputs []Input
	Marks  *markup.Marks
}

// document is the session as written: files in the folder by name.
type document struct {
	Inputs []docInput    `json:"inputs"`
	Marks  *markup.Marks `json:"marks,omitempty"`
}

type docInput struct {
	Name        string `json:"name"`
	ContentType string `json:"content_type,omitempty"`
	Item        int64  `json:"item,omitempty"`
	Path        string `json:"path,omitempty"`
	File        string `json:"file,omitempty"`
	Mask        string `json:"mask,omitempty"`
	Role        string `json:"role,omitempty"`
}

// Save writes s into dir (made when missing), replacing the session there.
func Save(dir string, s Session) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	doc := document{Marks: s.Marks}
	keep := map[string]bool{docName: true}
	for _, in := range s.Inputs[:min(len(s.Inputs), MaxInputs)] {
		d := docInput{Name: in.Name, ContentType: in.ContentType, Item: in.Item, Path: in.Path, Role: in.Role}
		var err error
		if in.Item == 0 && in.Path == "" {
			if d.File, err = put(dir, "input-", in.Data); err != nil {
				return err
			}
			keep[d.File] = true
		}
		if in.Mask != nil {
			if d.Mask, err = put(dir, "mask-", in.Mask); err != nil {
				return err
			}
			keep[d.Mask] = true
		}
		doc.Inputs = append(doc.Inputs, d)
	}
	data, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(dir, docName), data); err != nil {
		return err
	}
	// Only now that no session names them.
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !keep[e.Name()] && (strings.HasPrefix(e.Name(), "input-") || strings.HasPrefix(e.Name(), "mask-")) {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
	return nil
}

// put keeps data in dir under a name made of its content, once.
func put(dir, prefix string, data []byte) (string, error) {
	sum := sha256.Sum256(data)
	name := prefix + hex.EncodeToString(sum[:12])
	path := filepath.Join(dir, name)
	if st, err := os.Stat(path); err == nil && st.Size() == int64(len(data)) {
		return name, nil
	}
	return name, atomicfile.Write(path, data)
}

// Load reads the session in dir; an empty session when there is none.
// What cannot be read of it (a file gone, a mask damaged) is left out and
// said in the error beside the rest, which is returned.
func Load(dir string) (Session, error) {
	f, err := os.Open(filepath.Join(dir, docName))
	if errors.Is(err, os.ErrNotExist) {
		return Session{}, nil
	}
	if err != nil {
		return Session{}, err
	}
	defer f.Close()
	raw, err := io.ReadAll(io.LimitReader(f, maxDocument+1))
	if err != nil {
		return Session{}, err
	}
	if len(raw) > maxDocument {
		return Session{}, errors.New(catalogue.F("Edit's last session is over %d MB, so it was not read", maxDocument>>20))
	}
	var doc document
	if err := json.NewDecoder(bytes.NewReader(raw)).Decode(&doc); err != nil {
		return Session{}, errors.New(catalogue.F("Edit's last session could not be read: %v", err))
	}
	s := Session{Marks: doc.Marks}
	var lost []string
	for _, d := range doc.Inputs[:min(len(doc.Inputs), MaxInputs)] {
		in := Input{Name: d.Name, ContentType: d.ContentType, Item: d.Item, Path: d.Path}
		if r, err := roles.Parse(d.Role); err == nil {
			in.Role = string(r) // a role from elsewhere is none
		}
		if d.File != "" {
			if in.Data, err = readOwn(dir, d.File); err != nil {
				lost = append(lost, d.Name)
				continue
			}
		}
		if d.Mask != "" {
			in.Mask, _ = readOwn(dir, d.Mask) // a mask lost costs the mask alone
		}
		s.Inputs = append(s.Inputs, in)
	}
	if len(lost) > 0 {
		return s, errors.New(catalogue.F("Edit's last session had images that are gone: %s", strings.Join(lost, ", ")))
	}
	return s, nil
}

// readOwn reads one of the session's own files, named as Save names
// them: a name from elsewhere is not a path to follow.
func readOwn(dir, name string) ([]byte, error) {
	if name != filepath.Base(name) || !(strings.HasPrefix(name, "input-") || strings.HasPrefix(name, "mask-")) {
		return nil, fmt.Errorf("editsession: %q is not a session file", name)
	}
	return imageio.ReadFile(filepath.Join(dir, name))
}
