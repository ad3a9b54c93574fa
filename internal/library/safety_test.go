package library

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"image/color"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// copyTree copies the folder src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Every schema a user's library may be at upgrades to today's keeping
// every item, favourite, parent link, setting and thumbnail: each fixture
// was made by the code of its day (see testdata/*/README.md). The v2 one
// also holds a save a kill cut short, recorded on upgrade with its prompt.
func TestUpgradeKeepsEverything(t *testing.T) {
	for _, fixture := range []struct {
		name    string
		pending int // saves cut short that the upgrade records
	}{{"v0", 0}, {"v2", 1}, {"v3", 1}, {"v4", 1}, {"v5", 1}, {"v6", 1}, {"v7", 1}, {"v8", 1}, {"v9", 1}, {"v10", 1}, {"v11", 1}, {"v12", 1}, {"v13", 1}, {"v14", 1}, {"v15", 1}, {"v16", 1}, {"v17", 1}} {
		t.Run(fixture.name, func(t *testing.T) { upgradeKeepsEverything(t, fixture.name, fixture.pending) })
	}
}

func upgradeKeepsEverything(t *testing.T, fixture string, pending int) {
	dir := filepath.Join(t.TempDir(), "lib")
	copyTree(t, filepath.Join("testdata", fixture, "library"), dir)
	var want []Item
	data, err := os.ReadFile(filepath.Join("testdata", fixture, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 2; round++ { // the second open finds it already upgraded
		l, err := Open(dir)
		if err != nil {
			t.Fatalf("open %d: %v", round, err)
		}
		if n := l.Notices(); len(n) != 0 {
			t.Errorf("an upgrade should need no notice: %v", n)
		}
		ctx := context.Background()
		if v, _ := userVersion(ctx, l.db); v != SchemaVersion {
			t.Errorf("version %d after opening, want %d", v, SchemaVersion)
		}
		for _, w := range want {
			got, err := l.Get(ctx, w.ID)
			if err != nil {
				t.Fatalf("item %d: %v", w.ID, err)
			}
			if got.Missing {
				t.Errorf("item %d is called missing", w.ID)
			}
			got.Missing = false
			got.Created, w.Created = got.Created.UTC(), w.Created.UTC()
			if !reflect.DeepEqual(got, w) {
				t.Errorf("item %d changed:\n got %+v\nwant %+v", w.ID, got, w)
			}
			thumb := l.thumbnails.thumbPath(got)
			if _, err := os.Stat(thumb); err != nil {
				t.Errorf("item %d's thumbnail is gone: %v", w.ID, err)
			}
		}
		if n, _ := l.Count(ctx, Query{}); n != len(want)+pending+round {
			t.Errorf("%d items, want %d", n, len(want)+pending+round)
		}
		if madeFrom, err := os.ReadFile(filepath.Join("testdata", fixture, "inputs.json")); err == nil {
			var wantInputs map[int64][]StoredInput
			if err := json.Unmarshal(madeFrom, &wantInputs); err != nil {
				t.Fatal(err)
			}
			for id, w := range wantInputs {
				got, err := l.Inputs().Of(ctx, id)
				if err != nil || !reflect.DeepEqual(got, w) {
					t.Errorf("item %d made from %+v (%v), want %+v", id, got, err, w)
				}
				for _, in := range got {
					if _, err := os.Stat(l.Inputs().Path(in)); err != nil {
						t.Errorf("item %d's input %s is gone: %v", id, in.Name, err)
					}
				}
			}
		}
		if pending > 0 {
			cut, err := l.List(ctx, Query{Search: "killed", Limit: 10})
			if err == nil && len(cut) == 1 {
				cut[0], err = l.Get(ctx, cut[0].ID) // with its parents
			}
			if err != nil || len(cut) != 1 || cut[0].Kind != "edit" || cut[0].Params.Size != "1024x1024" || !cut[0].Params.HasMask || len(cut[0].Parents) != 1 {
				t.Errorf("the save cut short: %+v, %v; want it recorded with its prompt, settings and parent", cut, err)
			}
		}
		if n, _ := l.Count(ctx, Query{Search: "lighthouse"}); n != 3 {
			t.Errorf("search finds %d lighthouses, want 3", n)
		}
		if n, _ := l.Count(ctx, Query{Favorites: true}); n != 2 {
			t.Errorf("%d favourites, want 2", n)
		}
		// Schema 9's prompt library is there, and searchable.
		if _, err := l.db.ExecContext(ctx, `INSERT INTO prompts (text, created_ms) VALUES (?, 1)`, fmt.Sprint("kept prompt ", round)); err != nil {
			t.Errorf("no prompt library after the upgrade: %v", err)
		}
		var kept int
		if err := l.db.QueryRowContext(ctx, `SELECT count(*) FROM prompts_fts WHERE prompts_fts MATCH '"kept prompt"'`).Scan(&kept); err != nil || kept != round+1 {
			t.Errorf("the prompt library finds %d (%v), want %d", kept, err, round+1)
		}
		if _, err := l.Add(ctx, NewItem{Image: pngOf(t, 8, 8, color.NRGBA{A: 255}), Kind: "generate", Prompt: fmt.Sprint("after upgrade ", round)}); err != nil {
			t.Errorf("no new image after the upgrade: %v", err)
		}
		l.Close()
	}
}

// fileHash is the SHA-256 of a file, "" when it does not exist.
func fileHash(t *testing.T, p string) string {
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", sha256.Sum256(data))
}

// A library from a newer Easel is shown, never written: its rows list,
// but saving, favourites and deletes are refused with words, and its
// database is byte for byte what it was.
func TestANewerLibraryIsReadOnlyAndUnchanged(t *testing.T) {
	dir := t.TempDir()
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	id, _ := l.Add(ctx, NewItem{Image: pngOf(t, 8, 8, color.NRGBA{A: 255}), Kind: "generate", Prompt: "from today"})
	l.Close()
	db, _ := sql.Open("sqlite", "file:"+filepath.Join(dir, dbName))
	if _, err := db.Exec(`PRAGMA user_version = 99; CREATE TABLE future (x)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	before := fileHash(t, filepath.Join(dir, dbName))
	// A stray temporary file and an orphan stay: recovery is a write.
	orphan := filepath.Join(dir, "images", "orphan.png")
	os.WriteFile(orphan, pngOf(t, 4, 4, color.NRGBA{A: 255}).Data, 0o600)

	l, err = Open(dir)
	if err != nil {
		t.Fatalf("a newer library does not open: %v", err)
	}
	var newer *NewerError
	if notes := strings.Join(l.Notices(), " "); !strings.Contains(notes, "newer Easel") || !strings.Contains(notes, "version 99") {
		t.Errorf("notices %q do not say the library is newer", notes)
	}
	if items, err := l.List(ctx, Query{}); err != nil || len(items) != 1 || items[0].ID != id {
		t.Errorf("its items: %v, %v", items, err)
	}
	if _, err := l.Add(ctx, NewItem{Image: pngOf(t, 8, 8, color.NRGBA{A: 255}), Kind: "generate", Prompt: "x"}); !errors.As(err, &newer) {
		t.Errorf("Add: %v, want a NewerError", err)
	}
	if err := l.CanSave(1, 1000); !errors.As(err, &newer) {
		t.Errorf("CanSave: %v, want a NewerError", err)
	}
	if err := l.SetFavorite(ctx, id, true); err == nil {
		t.Error("a favourite was written")
	}
	if err := l.Delete(ctx, id); err == nil {
		t.Error("a delete went through")
	}
	l.Close()
	if after := fileHash(t, filepath.Join(dir, dbName)); after != before {
		t.Error("the newer library's database changed")
	}
	if _, err := os.Stat(orphan); err != nil {
		t.Error("recovery ran on a newer library")
	}
}

// libraryOf makes a library with n items and closes it.
func libraryOf(t *testing.T, n int) (string, []Item) {
	dir := t.TempDir()
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var items []Item
	for i := 0; i < n; i++ {
		id, err := l.Add(ctx, NewItem{Image: pngOf(t, 8, 8, color.NRGBA{uint8(i), 0, 0, 255}), Kind: "generate", Prompt: fmt.Sprint("paid work ", i)})
		if err != nil {
			t.Fatal(err)
		}
		it, _ := l.Get(ctx, id)
		if _, err := l.Thumbnails().Thumbnail(it); err != nil {
			t.Fatal(err)
		}
		items = append(items, it)
	}
	l.Close()
	return dir, items
}

// An images folder that is missing (a drive not mounted, moved) or empty
// (a sync not finished) while rows exist changes nothing: the rows stay,
// a notice says where Easel looked, saving is refused, and when the files
// come back every image is there with its prompt.
func TestAMissingOrEmptyImagesFolderChangesNothing(t *testing.T) {
	for _, how := range []string{"missing", "empty"} {
		t.Run(how, func(t *testing.T) {
			dir, items := libraryOf(t, 8)
			images := filepath.Join(dir, "images")
			away := filepath.Join(t.TempDir(), "away")
			if err := os.Rename(images, away); err != nil {
				t.Fatal(err)
			}
			if how == "empty" {
				os.Mkdir(images, 0o700)
			}
			l, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			notes := strings.Join(l.Notices(), " ")
			if !strings.Contains(notes, images) || !strings.Contains(notes, "8 images") || !strings.Contains(notes, "nothing has been changed") {
				t.Errorf("the notice does not say where Easel looked: %q", notes)
			}
			if n, _ := l.Count(ctx, Query{}); n != 8 {
				t.Errorf("%d rows while the folder is %s, want 8", n, how)
			}
			if err := l.CanSave(1, 100); err == nil {
				t.Error("CanSave allows a save into a missing folder")
			}
			if _, err := l.Add(ctx, NewItem{Image: pngOf(t, 8, 8, color.NRGBA{A: 255}), Kind: "generate", Prompt: "x"}); err == nil {
				t.Error("an image was saved into a missing folder")
			}
			l.Close()
			if how == "missing" {
				if _, err := os.Stat(images); !errors.Is(err, fs.ErrNotExist) {
					t.Error("Open made the missing folder")
				}
			}
			os.RemoveAll(images)
			if err := os.Rename(away, images); err != nil {
				t.Fatal(err)
			}
			l, err = Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			for _, want := range items {
				got, err := l.Get(ctx, want.ID)
				if err != nil || got.Prompt != want.Prompt || got.Kind != "generate" || got.Missing {
					t.Errorf("item %d after the folder came back: %+v, %v", want.ID, got, err)
				}
			}
			if n, _ := l.Count(ctx, Query{}); n != 8 {
				t.Errorf("%d rows after the folder came back, want 8", n)
			}
			if len(l.Notices()) != 0 {
				t.Errorf("notices once the folder is back: %v", l.Notices())
			}
		})
	}
}

// A missing file can be located: the row takes the file and shows again.
func TestAMissingImageCanBeLocated(t *testing.T) {
	dir, items := libraryOf(t, 2)
	l, _ := Open(dir)
	defer l.Close()
	ctx := context.Background()
	elsewhere := filepath.Join(t.TempDir(), "found.png")
	data, _ := os.ReadFile(l.Path(items[0]))
	os.WriteFile(elsewhere, data, 0o600)
	os.Remove(l.Path(items[0]))
	os.Remove(l.thumbnails.thumbPath(items[0]))

	it, _ := l.Get(ctx, items[0].ID)
	if !it.Missing {
		t.Fatal("not called missing")
	}
	if _, err := l.Thumbnails().Thumbnail(it); err == nil {
		t.Error("a thumbnail of a missing file")
	}
	notImage := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(notImage, []byte("hello"), 0o600)
	if _, err := l.Locate(ctx, it.ID, notImage); err == nil || !strings.Contains(err.Error(), "notes.txt") {
		t.Errorf("locating a text file: %v", err)
	}
	it, err := l.Locate(ctx, it.ID, elsewhere)
	if err != nil || it.Missing || it.Prompt != items[0].Prompt {
		t.Fatalf("located: %+v, %v", it, err)
	}
	if _, err := l.Thumbnails().Thumbnail(it); err != nil {
		t.Errorf("no thumbnail after locating: %v", err)
	}
}

// Leftovers are cleaned: Easel's half-written thumbnails and thumbnails
// of rows that are gone; a file of the user's in thumbs/ stays.
func TestLeftoverThumbnailsAreCleaned(t *testing.T) {
	dir, items := libraryOf(t, 2)
	thumbs := filepath.Join(dir, "thumbs")
	stale := filepath.Join(thumbs, "20250101-101010-aaaaaaaaaaaa.png")
	half := filepath.Join(thumbs, "20250101-101010-bbbbbbbbbbbb.png.4242.tmp")
	mine := filepath.Join(thumbs, "readme.txt")
	for _, p := range []string{stale, half, mine} {
		os.WriteFile(p, []byte("x"), 0o600)
	}
	l, _ := Open(dir)
	defer l.Close()
	for _, p := range []string{stale, half} {
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s left behind", filepath.Base(p))
		}
	}
	if _, err := os.Stat(mine); err != nil {
		t.Error("a file Easel did not write was removed")
	}
	for _, it := range items {
		if _, err := os.Stat(l.thumbnails.thumbPath(it)); err != nil {
			t.Errorf("the thumbnail of item %d was removed", it.ID)
		}
	}
}

// A service's implausible created time (year 10000, 1970) is replaced by
// the local clock: it would name folders and sort first for ever.
func TestAnImplausibleCreatedTimeIsReplaced(t *testing.T) {
	l := open(t)
	ctx := context.Background()
	month := time.Now().Format("2006-01")
	for _, created := range []time.Time{time.Unix(253402300800, 0), time.Unix(1, 0), time.Now().Add(30 * 24 * time.Hour)} {
		id, err := l.Add(ctx, NewItem{Image: pngOf(t, 8, 8, color.NRGBA{A: 255}), Kind: "generate", Prompt: "x", Created: created})
		if err != nil {
			t.Fatal(err)
		}
		it, _ := l.Get(ctx, id)
		if !strings.HasPrefix(it.File, "images/"+month+"/") || time.Since(it.Created) > time.Minute {
			t.Errorf("created %v stored as %s at %v", created, it.File, it.Created)
		}
	}
	real := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	id, _ := l.Add(ctx, NewItem{Image: pngOf(t, 8, 8, color.NRGBA{A: 255}), Kind: "generate", Prompt: "x", Created: real})
	if it, _ := l.Get(ctx, id); !it.Created.Equal(real) {
		t.Errorf("a plausible time was changed to %v", it.Created)
	}
}

// An index emptied to 0 bytes (a sync tool, a crash of the disk) is said
// in words, and the images are taken back.
func TestAnEmptiedIndexIsSaid(t *testing.T) {
	dir, _ := libraryOf(t, 3)
	if err := os.Truncate(filepath.Join(dir, dbName), 0); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, dbName+"-wal"))
	os.Remove(filepath.Join(dir, dbName+"-shm"))
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	notes := strings.Join(l.Notices(), " ")
	if !strings.Contains(notes, "was empty (0 bytes)") || !strings.Contains(notes, "3 images") {
		t.Errorf("notices %q", notes)
	}
	if n, _ := l.Count(context.Background(), Query{}); n != 3 {
		t.Errorf("%d images taken back, want 3", n)
	}
}

// CanSave refuses before a paid request when the disk cannot hold what
// it asks for, and says how much is free and needed.
func TestCanSaveRefusesWhenTheDiskIsNearlyFull(t *testing.T) {
	l := open(t)
	if err := l.CanSave(4, 3<<20); err != nil {
		t.Fatalf("a roomy disk: %v", err)
	}
	old := freeSpace
	t.Cleanup(func() { freeSpace = old })
	freeSpace = func(string) (uint64, error) { return 70 << 20, nil }
	var space *SpaceError
	if err := l.CanSave(4, 3<<20); !errors.As(err, &space) || !strings.Contains(err.Error(), "70 MiB free") {
		t.Errorf("CanSave on a nearly full disk: %v", err)
	}
}

// TestHelperReadOnly is not a test: TestAReadOnlyIndexIsSaidBeforeSaving
// runs it, as another user when the tests run as root, and it prints what
// the library said.
func TestHelperReadOnly(t *testing.T) {
	dir := os.Getenv("EASEL_READONLY_DIR")
	if dir == "" {
		t.Skip("helper process for TestAReadOnlyIndexIsSaidBeforeSaving")
	}
	l, err := Open(dir)
	if err != nil {
		fmt.Println("OPEN:", err)
		os.Exit(0)
	}
	n, _ := l.Count(context.Background(), Query{})
	fmt.Println("NOTICES:", strings.Join(l.Notices(), " "))
	fmt.Println("CANSAVE:", l.CanSave(1, 100))
	fmt.Println("COUNT:", n)
	os.Exit(0)
}

// A library.db the user cannot write opens, shows its images, and says
// before the first paid job that nothing can be saved.
func TestAReadOnlyIndexIsSaidBeforeSaving(t *testing.T) {
	for _, whole := range []bool{false, true} {
		t.Run(map[bool]string{false: "index", true: "folder"}[whole], func(t *testing.T) { readOnlyLibrary(t, whole) })
	}
}

// readOnlyLibrary checks a library whose index (or whole folder, as on a
// read-only drive) the user cannot write.
func readOnlyLibrary(t *testing.T, wholeFolder bool) {
	dir, _ := libraryOf(t, 2)
	if err := os.Chmod(filepath.Join(dir, dbName), 0o444); err != nil {
		t.Fatal(err)
	}
	exe, attr := asAnotherUser(t, dir, wholeFolder)
	cmd := exec.Command(exe, "-test.run=^TestHelperReadOnly$")
	cmd.Env = append(os.Environ(), "EASEL_READONLY_DIR="+dir)
	cmd.SysProcAttr = attr
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	got := string(out)
	if !strings.Contains(got, "COUNT: 2") {
		t.Errorf("the read-only library does not show its images: %s", got)
	}
	if !strings.Contains(got, "NOTICES: The gallery's index") || !strings.Contains(got, "cannot be written") {
		t.Errorf("no notice says the index is read-only: %s", got)
	}
	if !strings.Contains(got, "CANSAVE: the gallery's index") {
		t.Errorf("CanSave does not refuse: %s", got)
	}
}
