// Package library is Easel's gallery on disk: every image ever made, with
// the bytes the server sent (never re-encoded), its prompt and every
// setting, in a SQLite index (WAL mode, FTS5 for prompt search) beside the
// image files and a cache of thumbnails.
//
// A gallery is paid work, so the library is careful with what it holds:
//   - An image's prompt and settings are recorded as pending before its
//     file is written (temporary name, synced, renamed), and its row
//     replaces the pending record in one transaction: a kill at any moment
//     leaves either nothing or an image that recovery records with its
//     prompt.
//   - Recovery runs only when no other process has the library open (a
//     file lock), so it never touches another process's saves in flight.
//   - Nothing is deleted because it could not be seen: a row whose file is
//     missing is kept and shown as missing, a whole missing images folder
//     changes nothing, and a file Easel cannot read is left alone.
//   - The schema is versioned (schema.go); a library from a newer Easel is
//     opened read-only, never altered.
//   - Folders are 0700 and files 0600, whatever existed before.
package library

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"
	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"

	"easel/internal/appdirs"
	"easel/internal/catalogue"
	"easel/internal/wording"
)

// Library is an open gallery. It is safe for concurrent use.
type Library struct {
	db     *sql.DB
	root   string
	images string
	thumbs string
	lock   *flock.Flock
	// notices are sentences the user should read about this library.
	notices []string
	// roErr, when set, is why the index cannot be written (a newer
	// Easel's library, a read-only file).
	roErr error
	// saveErr, when set, is why no image can be saved here: roErr, or a
	// missing images folder.
	saveErr error
	// ledger and memory are the spend records' and the service
	// memory's stores, over the same database.
	ledger *Ledger
	memory *Memory
	// alone is set when this process opened the library alone.
	alone bool
	// journal is the record of jobs under way.
	journal *Journal
	// inputs are the files edits were made from; trash the items
	// deleted this session; aside the paid images the gallery could not
	// take; thumbnails the cached thumbnails.
	inputs     *InputStore
	trash      *Trash
	lineage    *Lineage
	aside      *Aside
	thumbnails *Thumbnails
}

// Dir is where the library lives: $EASEL_HOME when set, else the
// platform's folder for an app's data (appdirs).
func Dir() (string, error) { return appdirs.Data() }

// dbName is the index's file name in the library folder.
const dbName = "library.db"

// lockWait bounds how long Open waits for another process's recovery.
const lockWait = time.Minute

// Open opens (or creates) the library in dir and, when no other process
// has it open, repairs what a crash left behind. What the user should know
// about it (Notices) does not stop it opening; what stops saving is
// reported by CanSave and Add.
func Open(dir string) (*Library, error) { return openLibrary(dir, true) }

// OpenWithoutRepair opens the library as a second process does, never
// repairing what a crash left (that walks every image, seconds in a large
// gallery): for the command line, which only reads and records what each
// service honours.
func OpenWithoutRepair(dir string) (*Library, error) { return openLibrary(dir, false) }

func openLibrary(dir string, repair bool) (*Library, error) {
	l := &Library{root: dir, images: filepath.Join(dir, "images"), thumbs: filepath.Join(dir, "thumbs")}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf(catalogue.T("library: cannot create %s: %w"), dir, err)
	}
	private(dir, 0o700)
	l.lock = flock.New(filepath.Join(dir, "library.lock"), flock.SetPermissions(0o600))
	alone, err := false, error(nil)
	if repair {
		alone, err = l.lock.TryLock()
	}
	switch {
	case err != nil && canWrite(dir) != nil:
		// A folder that cannot be written (a read-only drive) cannot
		// hold the lock file; nothing is written there either: the
		// library opens read-only, without recovery.
		alone = false
	case err != nil:
		return nil, fmt.Errorf(catalogue.T("library: cannot lock %s: %w"), dir, err)
	case !alone:
		if err := l.share(); err != nil {
			return nil, err
		}
	}
	if err := l.open(alone); err != nil {
		_ = l.lock.Unlock() // closing on the way out
		return nil, err
	}
	if alone {
		// Let other processes in: from now on this one only adds what it
		// records itself. Between the unlock and the shared lock another
		// process may recover, which is safe: nothing is in flight here yet.
		err := l.lock.Unlock()
		if err == nil {
			err = l.share()
		}
		if err != nil {
			_ = l.db.Close()
			return nil, err
		}
	}
	return l, nil
}

// share takes the shared lock every open library holds, waiting while
// another process recovers.
func (l *Library) share() error {
	ctx, cancel := context.WithTimeout(context.Background(), lockWait)
	defer cancel()
	ok, err := l.lock.TryRLockContext(ctx, 20*time.Millisecond)
	if err != nil || !ok {
		return fmt.Errorf(catalogue.T("library: another Easel has been repairing the gallery in %s for over a minute; try again when it is done (%v)"), l.root, err)
	}
	return nil
}

// open opens the index, upgrades it, checks the images folder and, when
// this process is alone, recovers.
func (l *Library) open(alone bool) error {
	ctx := context.Background()
	path := filepath.Join(l.root, dbName)
	st, statErr := os.Stat(path)
	if statErr != nil && !errors.Is(statErr, fs.ErrNotExist) {
		return fmt.Errorf(catalogue.T("library: cannot look at %s: %w"), path, statErr)
	}
	wasEmpty := statErr == nil && st.Size() == 0
	readOnly := statErr == nil && (canWrite(path) != nil || canWrite(l.root) != nil)

	db, err := sql.Open("sqlite", dsn(path, readOnly))
	if err != nil {
		return fmt.Errorf("library: %w", err)
	}
	version, err := userVersion(ctx, db)
	if err != nil {
		_ = db.Close()
		return fmt.Errorf(catalogue.T("library: %s cannot be read as a gallery (%w); Easel has not changed it"), path, err)
	}
	switch {
	case version > SchemaVersion:
		l.saveErr = &NewerError{Dir: l.root, Found: version, Known: SchemaVersion}
		if !readOnly {
			_ = db.Close()
			if db, err = sql.Open("sqlite", dsn(path, true)); err != nil {
				return fmt.Errorf("library: %w", err)
			}
		}
	case readOnly:
		l.saveErr = fmt.Errorf(catalogue.T("the gallery's index %s cannot be written (check its permissions and the folder's): it is shown read-only and new images cannot be saved"), path)
	default:
		if _, err := db.ExecContext(ctx, `PRAGMA journal_mode = WAL`); err != nil {
			_ = db.Close()
			return fmt.Errorf(catalogue.T("library: cannot prepare the database in %s: %w"), l.root, err)
		}
		if err := migrate(ctx, db); err != nil {
			_ = db.Close()
			return fmt.Errorf("library: %s: %w", path, err)
		}
	}
	l.db = db
	l.roErr = l.saveErr
	l.ledger = &Ledger{db: db, roErr: l.roErr}
	l.memory = &Memory{db: db, saveErr: func() error { return l.saveErr }}
	l.inputs = &InputStore{db: db, root: l.root, saveErr: func() error { return l.saveErr }}
	l.trash = &Trash{db: db, roErr: l.roErr, delete: l.Delete}
	l.lineage = &Lineage{db: db, roErr: l.roErr, items: l.items}
	l.aside = &Aside{root: l.root}
	l.thumbnails = &Thumbnails{dir: l.thumbs, path: l.Path, draw: MakeThumbnail}
	l.journal = &Journal{db: db, root: l.root, saveErr: func() error { return l.saveErr }, storeInput: l.inputs.storeInput, path: l.Path}
	if l.saveErr != nil {
		l.notices = append(l.notices, wording.Sentence(l.saveErr.Error()))
		return nil
	}
	for _, f := range []string{path, path + "-wal", path + "-shm"} {
		private(f, 0o600)
	}

	rows, err := l.Count(ctx, Query{})
	if err != nil {
		return fmt.Errorf("library: %w", err)
	}
	if rows > 0 && !hasImages(l.images) {
		// A drive not mounted, a folder moved, a sync not finished: the
		// rows are the only record of the prompts, so nothing changes.
		l.saveErr = &MissingFolderError{Dir: l.images, Rows: rows}
		l.notices = append(l.notices, wording.Sentence(l.saveErr.Error()))
		return nil
	}
	for _, d := range []string{l.images, l.thumbs} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return fmt.Errorf(catalogue.T("library: cannot create %s: %w"), d, err)
		}
		private(d, 0o700)
	}
	var adopted int
	if alone {
		if adopted, err = (&recovery{db: l.db, root: l.root, images: l.images, trash: l.trash, inputs: l.inputs, thumbs: l.thumbnails, record: l.record}).run(ctx); err != nil {
			return err
		}
		l.alone = true
		l.notices = append(l.notices, l.thumbnails.setAside()...)
	}
	if wasEmpty && adopted > 0 {
		l.notices = append(l.notices, catalogue.F("The gallery's index %s was empty (0 bytes), so its record of prompts and settings is gone. Easel made a new index and took back the %d images in %s, without their prompts.", path, adopted, l.images))
	}
	return nil
}

// MissingFolderError says the images folder is missing or empty while
// the index records images: nothing is changed and nothing saved until
// the files are back.
type MissingFolderError struct {
	Dir  string
	Rows int
}

func (e *MissingFolderError) Error() string {
	return catalogue.F("the gallery's images are not in %s, where its %d images are recorded: if they are on a drive that is not connected or a folder that was moved, put them back and restart Easel; nothing has been changed, and new images cannot be saved until then", e.Dir, e.Rows)
}

// dsn is how the index is opened: WAL, a busy timeout so concurrent
// writers (in this process or another) wait rather than fail, and
// immediate transactions so a writer takes the lock before it reads.
func dsn(path string, readOnly bool) string {
	d := "file:" + path + "?_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	if readOnly {
		d += "&mode=ro&_pragma=query_only(1)"
		if canWrite(filepath.Dir(path)) != nil {
			// SQLite cannot make the shared-memory file a WAL reader
			// needs in a folder it may not write (a read-only drive):
			// read the file as it stands.
			d += "&immutable=1"
		}
	}
	return d
}

// private narrows a path's permissions to mode, when it exists and is
// ours: another local user must not read a designer's prompts.
func private(path string, mode os.FileMode) {
	if st, err := os.Stat(path); err == nil && st.Mode().Perm()&^mode != 0 {
		_ = os.Chmod(path, mode)
	}
}

// hasImages reports whether the images folder holds any finished file.
func hasImages(dir string) bool {
	found := false
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || found {
			return filepath.SkipAll
		}
		if !d.IsDir() && !strings.HasSuffix(p, tmpSuffix) {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// Close closes the database and lets recovery run in the next process
// that opens the library alone.
func (l *Library) Close() error {
	if l.journal != nil {
		l.journal.stores.Wait()
	}
	err := l.db.Close()
	_ = l.lock.Unlock()
	return err
}

// DB is the library's database, for the packages that keep their own
// tables in it (internal/conversations): one file, one schema version,
// one backup. Its tables are created by the migrations in schema.go.
func (l *Library) DB() *sql.DB { return l.db }

// Alone reports whether this process opened the library alone (and so
// recovered it): only then may state another process could be writing
// (a reply streaming) be called abandoned.
func (l *Library) Alone() bool { return l.alone }

// SaveErr is why nothing can be written to the library, nil when it can.
func (l *Library) SaveErr() error { return l.saveErr }

// Root is the library's folder.
func (l *Library) Root() string { return l.root }

// Ledger is the gallery's record of spend (see Ledger).
func (l *Library) Ledger() *Ledger {
	if l == nil {
		return nil // no gallery: the callers price and keep no books
	}
	return l.ledger
}

// Journal is the record of image jobs under way (see Journal).
func (l *Library) Journal() *Journal { return l.journal }

// Memory is what Easel has learnt of each service (see Memory).
func (l *Library) Memory() *Memory {
	if l == nil {
		return nil // no gallery: nothing is remembered
	}
	return l.memory
}

// Notices are what the user should know about the library as it opened:
// whole sentences for the window's banner and the command line.
func (l *Library) Notices() []string { return append([]string(nil), l.notices...) }
