package editsession

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/markup"
	"easel/internal/roles"
)

// A setup is an Edit session in one file the designer names and keeps
// (File ▸ Save Edit setup…): the references in order with their roles,
// each mask, the marks, the prompt and the options — a recurring
// composite opened again in one step. Gallery pictures are named by id
// and the user's files by path, as the session names them; bytes Easel
// made (a paste) and the masks are in the file itself.

// SetupExt is a setup file's extension.
const SetupExt = ".easel-setup"

// MaxSetup bounds a setup file read: sixteen pasted 4K references in
// base64 stay under it.
const MaxSetup = 512 << 20

// setupVersion is the format written; a newer one is refused by name.
const setupVersion = 1

// Setup is a session with the request around it.
type Setup struct {
	Session
	Prompt  string
	Options api.ImageOptions
}

type setupDoc struct {
	Version int              `json:"easel_edit_setup"`
	Prompt  string           `json:"prompt,omitempty"`
	Options api.ImageOptions `json:"options"`
	Inputs  []setupInput     `json:"inputs"`
	Marks   *markup.Marks    `json:"marks,omitempty"`
}

type setupInput struct {
	Name        string `json:"name"`
	ContentType string `json:"content_type,omitempty"`
	Item        int64  `json:"item,omitempty"`
	Path        string `json:"path,omitempty"`
	Data        []byte `json:"data,omitempty"`
	Mask        []byte `json:"mask,omitempty"`
	Role        string `json:"role,omitempty"`
}

// EncodeSetup is s as a setup file's bytes.
func EncodeSetup(s Setup) ([]byte, error) {
	doc := setupDoc{Version: setupVersion, Prompt: s.Prompt, Options: s.Options, Marks: s.Marks}
	for _, in := range s.Inputs[:min(len(s.Inputs), MaxInputs)] {
		d := setupInput{Name: in.Name, ContentType: in.ContentType, Item: in.Item, Path: in.Path, Mask: in.Mask, Role: in.Role}
		if in.Item == 0 && in.Path == "" {
			d.Data = in.Data
		}
		doc.Inputs = append(doc.Inputs, d)
	}
	return json.MarshalIndent(doc, "", " ")
}

// ReadSetup reads a setup file from r, at most MaxSetup bytes of it: a
// larger file, a damaged one or one of a newer Easel is refused whole,
// saying which.
func ReadSetup(r io.Reader) (Setup, error) {
	raw, err := io.ReadAll(io.LimitReader(r, MaxSetup+1))
	if err != nil {
		return Setup{}, err
	}
	if len(raw) > MaxSetup {
		return Setup{}, errors.New(catalogue.F("the setup is over %d MB, more than sixteen references and their masks take", MaxSetup>>20))
	}
	var doc setupDoc
	if err := json.Unmarshal(raw, &doc); err != nil {
		return Setup{}, errors.New(catalogue.F("this is not an Edit setup Easel can read: %v", err))
	}
	switch {
	case doc.Version == 0:
		return Setup{}, errors.New(catalogue.T("this is not an Edit setup: it names no setup version"))
	case doc.Version > setupVersion:
		return Setup{}, errors.New(catalogue.F("this setup was written by a newer Easel (format %d); update Easel to open it", doc.Version))
	case len(doc.Inputs) > MaxInputs:
		return Setup{}, fmt.Errorf(catalogue.T("the setup names %d images; Edit takes at most %d"), len(doc.Inputs), MaxInputs)
	}
	if doc.Marks != nil && len(doc.Marks.Items) > markup.MaxMarks {
		doc.Marks.Items = doc.Marks.Items[:markup.MaxMarks]
	}
	s := Setup{Prompt: doc.Prompt, Options: doc.Options, Session: Session{Marks: doc.Marks}}
	for _, d := range doc.Inputs {
		in := Input{Name: d.Name, ContentType: d.ContentType, Item: d.Item, Path: d.Path, Data: d.Data, Mask: d.Mask}
		if r, err := roles.Parse(d.Role); err == nil {
			in.Role = string(r)
		}
		if in.Item == 0 && in.Path == "" && len(in.Data) == 0 {
			continue // names nothing to read
		}
		s.Inputs = append(s.Inputs, in)
	}
	return s, nil
}
