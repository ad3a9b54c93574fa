package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gofrs/flock"

	"easel/internal/appdirs"
	"easel/internal/atomicfile"
	"easel/internal/catalogue"
)

// File is the whole profiles file.
type File struct {
	// Version is the format version the file was written with (see
	// FileVersion).
	Version int `json:"version"`
	// Active is the id of the profile the window and the command line
	// use unless told otherwise.
	Active   string    `json:"active,omitempty"`
	Profiles []Profile `json:"profiles"`
	// Language is the language the user chose in Settings (a BCP 47 tag,
	// "zh-Hans"); empty follows the system.
	Language string `json:"language,omitempty"`
	// DriftLimit is the share (0-1) of a picture a thread's turn may
	// change outside the marks before Easel flags it; 0 is the default
	// (TurnLimit).
	DriftLimit float64 `json:"drift_limit,omitempty"`
	// extra holds fields this Easel does not know, written back as read.
	extra map[string]json.RawMessage
	// unusable holds profiles that could not be used, written back as read.
	unusable []json.RawMessage
}

// Find returns the profile whose id or name (any case) is ref.
func (f File) Find(ref string) (Profile, bool) {
	for _, p := range f.Profiles {
		if p.ID == ref || strings.EqualFold(p.Name, ref) {
			return p, true
		}
	}
	return Profile{}, false
}

// ActiveProfile is the active profile, if it still exists.
func (f File) ActiveProfile() (Profile, bool) {
	if f.Active == "" {
		return Profile{}, false
	}
	return f.Find(f.Active)
}

// Put adds p, or replaces the profile with its id, after checking it and
// that no other profile has its name.
func (f *File) Put(p Profile) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if p.ID == "" || p.ID == EnvironmentID || p.ID == DemoID {
		return fmt.Errorf(catalogue.T("profile %q has no id of its own"), p.Name)
	}
	p.Name, p.BaseURL = strings.TrimSpace(p.Name), strings.TrimSpace(p.BaseURL)
	at := -1
	for i, q := range f.Profiles {
		if q.ID == p.ID {
			at = i
		} else if strings.EqualFold(q.Name, p.Name) {
			return fmt.Errorf(catalogue.T("name: a profile called %q already exists"), q.Name)
		}
	}
	if at < 0 {
		f.Profiles = append(f.Profiles, p)
	} else {
		if p.extra == nil { // an edit keeps what a newer Easel stored
			p.extra = f.Profiles[at].extra
		}
		f.Profiles[at] = p
	}
	return nil
}

// Remove deletes the profile with this id or name and returns it.
func (f *File) Remove(ref string) (Profile, bool) {
	for i, p := range f.Profiles {
		if p.ID == ref || strings.EqualFold(p.Name, ref) {
			f.Profiles = append(f.Profiles[:i], f.Profiles[i+1:]...)
			if f.Active == p.ID {
				f.Active = ""
			}
			return p, true
		}
	}
	return Profile{}, false
}

// CorruptError says the profiles file is not JSON at all. Reading it
// moves nothing: Easel starts with no profiles and the file stays as it
// is. Only a write (the user adds a profile) moves it aside first, to
// MovedTo, so it can still be recovered by hand.
type CorruptError struct {
	Path, MovedTo string
	Cause         error
}

func (e *CorruptError) Error() string {
	if e.MovedTo != "" {
		return catalogue.F("the profiles file %s could not be read (%v); it was moved to %s before the new profiles were written", e.Path, e.Cause, e.MovedTo)
	}
	return catalogue.F("the profiles file %s could not be read (%v); Easel starts with no profiles and leaves the file as it is", e.Path, e.Cause)
}

func (e *CorruptError) Unwrap() error { return e.Cause }

// Store reads and writes the profiles file.
type Store struct {
	path string
	// mu orders this process's writers; the file lock orders processes.
	mu sync.Mutex
}

// DefaultPath is profiles.json in the platform's folder for an app's
// settings ($XDG_CONFIG_HOME/easel on Linux, %APPDATA%\Easel on Windows).
func DefaultPath() (string, error) { return appdirs.ProfilesFile() }

// Open makes a store for the file at path; the file may not exist yet.
func Open(path string) *Store { return &Store{path: path} }

// Path is the file's path.
func (s *Store) Path() string { return s.path }

// Load reads the file and changes nothing. A missing file is an empty
// one. A file with values Easel cannot use returns what it could read and
// a *ProblemsError; a file that is not JSON returns an empty File and a
// *CorruptError, so the caller can start anyway.
func (s *Store) Load() (File, error) {
	return s.locked(s.load)
}

// Update changes the file under the lock: it reads the newest version,
// lets change edit it, and writes it back whole. Concurrent writers, in
// this process or another, each see the others' changes.
func (s *Store) Update(change func(*File) error) (File, error) {
	return s.locked(func() (File, error) { return s.update(change) })
}

func (s *Store) update(change func(*File) error) (File, error) {
	f, err := s.load()
	var corrupt *CorruptError
	var problems *ProblemsError
	switch {
	case errors.As(err, &corrupt):
		// Only now, about to write, is the unreadable file moved aside.
		aside := fmt.Sprintf("%s.corrupt-%s", s.path, time.Now().Format("20060102-150405"))
		if err := os.Rename(s.path, aside); err != nil {
			return File{}, fmt.Errorf(catalogue.T("the profiles file %s could not be read (%v) nor moved aside: %w"), s.path, corrupt.Cause, err)
		}
		corrupt.MovedTo = aside
	case errors.As(err, &problems):
	case err != nil:
		return File{}, err
	}
	if f.Version > FileVersion {
		// Its fields nested in ones this Easel knows (budget.weekly)
		// would be lost on writing: it is read, never rewritten.
		return File{}, &NewerError{Path: s.path, Found: f.Version}
	}
	if err := change(&f); err != nil {
		return File{}, err
	}
	f.Version = max(f.Version, FileVersion)
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return File{}, err
	}
	if err := atomicfile.Write(s.path, append(data, '\n')); err != nil {
		return File{}, fmt.Errorf(catalogue.T("cannot save the profiles to %s: %w"), s.path, err)
	}
	return f, nil
}

// NewerError says the profiles file was written by a newer Easel: it is
// read as far as this Easel understands it, and left as it is.
type NewerError struct {
	Path  string
	Found int
}

func (e *NewerError) Error() string {
	return catalogue.F("the profiles file %s was written by a newer Easel (format %d; this Easel knows up to %d): it is used read-only and left as it is, so nothing was changed. Update Easel to change profiles", e.Path, e.Found, FileVersion)
}

// locked runs f holding this process's mutex and the file lock.
func (s *Store) locked(f func() (File, error)) (File, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return File{}, fmt.Errorf(catalogue.T("cannot create the config folder: %w"), err)
	}
	lock := flock.New(s.path + ".lock")
	if err := lock.Lock(); err != nil {
		return File{}, fmt.Errorf(catalogue.T("cannot lock %s: %w"), s.path, err)
	}
	defer lock.Unlock()
	return f()
}

func (s *Store) load() (File, error) {
	data, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return File{}, nil
	}
	if err != nil {
		return File{}, fmt.Errorf(catalogue.T("cannot read the profiles file: %w"), err)
	}
	f, problems, err := decodeFile(data)
	if err != nil {
		return File{}, &CorruptError{Path: s.path, Cause: err}
	}
	if len(problems) > 0 {
		return f, &ProblemsError{Path: s.path, Problems: problems}
	}
	return f, nil
}

// DefaultDriftLimit is the share of the picture outside the marks a turn
// may change unflagged: a re-encode moves no pixel that far (drift is
// counted past 32 of 255), a repaint of a tenth of the picture is seen.
const DefaultDriftLimit = 0.10

// TurnLimit is the share of a picture a turn may change outside the
// marks before it is flagged: the user's, within 1-100 %, else the
// default.
func (f File) TurnLimit() float64 {
	if f.DriftLimit <= 0 || f.DriftLimit != f.DriftLimit {
		return DefaultDriftLimit
	}
	return min(max(f.DriftLimit, 0.01), 1)
}

// Strayed reports whether a turn that changed drift (nil: not measured)
// of the picture outside the marks is over the limit.
func (f File) Strayed(drift *float64) bool { return drift != nil && *drift > f.TurnLimit() }
