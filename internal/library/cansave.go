package library

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/dustin/go-humanize"

	"easel/internal/catalogue"
	"easel/internal/wording"
)

// Reserve is the free space CanSave leaves untouched beyond the images
// themselves: the index grows with every row, and a disk filled to the
// last byte fails in ways nobody can predict.
const Reserve = 64 << 20

// freeSpace is the space available to this user on the disk holding dir;
// a variable so a test can stand in for a nearly full disk.
var freeSpace = diskFree

// SpaceError says the disk has too little room for what a job would make.
type SpaceError struct {
	Dir        string
	Free, Need uint64
}

func (e *SpaceError) Error() string {
	return catalogue.F("the disk that holds the gallery (%s) has %s free; the images asked for need about %s. Free some space, or ask for fewer or smaller images",
		e.Dir, humanize.IBytes(e.Free), humanize.IBytes(e.Need))
}

// CanSave says whether n images of about each bytes can be saved now:
// the job runner asks before it sends a paid request (jobs.SpaceChecker), so the user hears of a
// read-only or full disk before paying, not after. It probes the images
// folder with a real file, so permissions, read-only mounts and quotas
// all show.
func (l *Library) CanSave(n int, each int64) error {
	if l.saveErr != nil {
		return l.saveErr
	}
	// A damaged index could not record what is paid for: said here, in
	// the window as on the command line, before the request goes out.
	if err := l.Check(context.Background()); err != nil {
		return err
	}
	index := filepath.Join(l.root, dbName)
	if err := canWrite(index); err != nil {
		return fmt.Errorf(catalogue.T("the gallery's index %s cannot be written (%v): new images could not be recorded"), index, wording.PathCause(err))
	}
	f, err := os.CreateTemp(l.images, ".easel-probe-*")
	if err != nil {
		return fmt.Errorf(catalogue.T("the gallery's folder %s cannot be written (%v): new images could not be saved"), l.images, wording.PathCause(err))
	}
	_ = f.Close()
	_ = os.Remove(f.Name())
	free, err := freeSpace(l.images)
	if err != nil {
		return nil // the disk will tell at save time; nothing here to refuse on
	}
	need := uint64(max(n, 1))*uint64(max(each, 0)) + Reserve
	if free < need {
		return &SpaceError{Dir: l.images, Free: free, Need: need}
	}
	return nil
}

// Check runs SQLite's quick integrity check over the index (every page,
// without the slower index-to-table comparison): a damaged index is said,
// with what SQLite found first, before anything is written into it.
func (l *Library) Check(ctx context.Context) error {
	var first string
	if err := l.db.QueryRowContext(ctx, `PRAGMA quick_check(1)`).Scan(&first); err != nil {
		return &DamagedError{err: fmt.Errorf(catalogue.T("the gallery's index in %s cannot be checked (%v): it may be damaged"), l.root, err)}
	}
	if first != "ok" {
		first = strings.Join(strings.Fields(first), " ") // SQLite breaks its report into lines
		return &DamagedError{err: fmt.Errorf(catalogue.T("the gallery's index in %s is damaged (%s): nothing more is written into it. Restore it from a backup, or move library.db aside and Easel makes a new one from the images"), l.root, first)}
	}
	return nil
}

// DamagedError is an index SQLite's check finds damaged: what mends it is
// a backup or a new index, not room on the disk.
type DamagedError struct{ err error }

func (e *DamagedError) Error() string { return e.err.Error() }
func (e *DamagedError) Unwrap() error { return e.err }

// CheckFully runs SQLite's whole integrity check (every page, and every
// index against its table): slower than Check, so it runs only when the
// user asks. It returns what SQLite found, up to ten problems.
func (l *Library) CheckFully(ctx context.Context) ([]string, error) {
	rows, err := l.db.QueryContext(ctx, `PRAGMA integrity_check(10)`)
	if err != nil {
		return nil, fmt.Errorf(catalogue.T("the gallery's index in %s cannot be checked (%v): it may be damaged"), l.root, err)
	}
	defer rows.Close()
	var found []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return nil, err
		}
		if line != "ok" {
			found = append(found, strings.Join(strings.Fields(line), " "))
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf(catalogue.T("the gallery's index in %s cannot be checked (%v): it may be damaged"), l.root, err)
	}
	return found, nil
}

// CanWriteTo says whether n images of about each bytes can be written
// into dir (created if missing) now: the command line asks before it
// pays, as the window asks CanSave, so a full disk, a read-only folder or
// a name too long for the system is said before the request goes out.
func CanWriteTo(dir string, n int, each int64) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf(catalogue.T("the folder %s cannot be made (%v): nothing was sent"), dir, wording.PathCause(err))
	}
	f, err := os.CreateTemp(dir, ".easel-probe-*")
	if err != nil {
		return fmt.Errorf(catalogue.T("the folder %s cannot be written (%v): nothing was sent"), dir, wording.PathCause(err))
	}
	_ = f.Close()
	_ = os.Remove(f.Name())
	free, err := freeSpace(dir)
	if err != nil {
		return nil
	}
	if need := uint64(max(n, 1))*uint64(max(each, 0)) + Reserve; free < need {
		return fmt.Errorf(catalogue.T("the disk that holds %s has %s free; the images asked for need about %s: nothing was sent. Free some space, or write elsewhere with --out"),
			dir, humanize.IBytes(free), humanize.IBytes(need))
	}
	return nil
}

// Cause says in a designer's words why a save failed: the disk is full,
// read-only or not Easel's to write; otherwise the error itself.
func Cause(err error) string {
	var space *SpaceError
	var newer *NewerError
	var missing *MissingFolderError
	problem := wording.Classify(err)
	switch {
	case err == nil:
		return ""
	case errors.As(err, &missing):
		return catalogue.F("the gallery's images folder %s is missing (see the banner above)", missing.Dir)
	case errors.As(err, &space), errors.As(err, &newer):
		return err.Error()
	case problem == wording.DiskFull, sqliteCode(err) == sqliteFull:
		return catalogue.T("the disk that holds the gallery is full")
	case problem == wording.ReadOnly:
		return catalogue.T("the disk that holds the gallery is read-only")
	case problem == wording.NotAllowed:
		return catalogue.T("Easel may not write in the gallery's folder (permissions)")
	case problem == wording.InUse:
		return catalogue.T("another program is using a file in the gallery's folder; close it and try again")
	case problem == wording.DriveMissing:
		return catalogue.T("the drive that holds the gallery is not connected")
	}
	return strings.TrimPrefix(err.Error(), "library: ")
}

// EstimateBytes is what CanSave should assume one image of size ("WxH",
// "auto" or empty) takes on disk: four bytes a pixel, more than any PNG
// the services send, so a check that passes is not proved wrong by the
// image that arrives. Auto is taken as the largest common preset.
func EstimateBytes(size string) int64 {
	var w, h int64
	if _, err := fmt.Sscanf(size, "%dx%d", &w, &h); err != nil || w <= 0 || h <= 0 {
		w, h = 1536, 1024
	}
	return w * h * 4
}

// sqliteFull is SQLite's SQLITE_FULL: the index could not grow.
const sqliteFull = 13

// sqliteCode is the primary result code of a SQLite error, 0 for others.
func sqliteCode(err error) int {
	var coded interface{ Code() int }
	if errors.As(err, &coded) {
		return coded.Code() & 0xff
	}
	return 0
}
