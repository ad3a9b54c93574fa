package library

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/imageio"
	"easel/internal/testsupport/signed"
)

// A gallery from before schema 12 learns each item's credentials from
// its file once opened: the signed answer of the v11 fixture, and only
// it, is then found by the filter; a new item is known when added.
func TestAnUpgradedGalleryLearnsItsCredentials(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lib")
	copyTree(t, filepath.Join("testdata", "v11", "library"), dir)
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	if got, _ := l.List(ctx, Query{Credentials: CredentialsSigned, Limit: 10}); len(got) != 0 {
		t.Fatalf("before reading, %d items are listed as signed", len(got))
	}
	all, _ := l.Count(ctx, Query{})
	n, err := ReadCredentials(ctx, l)
	if err != nil || n != all {
		t.Fatalf("read %d of %d items' credentials: %v", n, all, err)
	}
	got, _ := l.List(ctx, Query{Credentials: CredentialsSigned, Limit: 10})
	if len(got) != 1 || got[0].Prompt != "a signed harbour" {
		t.Fatalf("signed: %+v", got)
	}
	if none, _ := l.Count(ctx, Query{Credentials: CredentialsNone}); none != all-1 {
		t.Errorf("%d items without credentials, want %d", none, all-1)
	}
	if again, _ := ReadCredentials(ctx, l); again != 0 {
		t.Errorf("a second reading read %d items again", again)
	}
	// Added now: known at once, a store Easel cannot check as such.
	if _, err := l.Add(ctx, NewItem{Image: api.Image{Data: signed.PNG(t, 8, 8), Format: "png", Width: 8, Height: 8},
		Kind: "generate", Prompt: "a fake store", Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if u, _ := l.Count(ctx, Query{Credentials: CredentialsUnverified}); u != 1 {
		t.Errorf("%d unverified items, want the one just added", u)
	}
}

// A picture in Display P3 saved before Easel read colour profiles has
// its cached thumbnail, drawn from its numbers as if sRGB, dropped when
// its credentials are read: it is made again in its colours.
func TestAnOldThumbnailOfAProfiledPictureIsMadeAgain(t *testing.T) {
	l, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	profile, err := os.ReadFile("../colour/testdata/displayp3.icc")
	if err != nil {
		t.Fatal(err)
	}
	p3, _ := imageio.WithProfile(signed.PNG(t, 8, 8), profile, "Display P3")
	id, err := l.Add(ctx, NewItem{Image: api.Image{Data: p3, Format: "png", Width: 8, Height: 8}, Kind: "imported", Created: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	it, _ := l.Get(ctx, id)
	if _, err := l.Thumbnails().Thumbnail(it); err != nil {
		t.Fatal(err)
	}
	// As a gallery from before schema 12 holds it.
	if _, err := l.db.ExecContext(ctx, `UPDATE items SET credentials = '' WHERE id = ?`, id); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadCredentials(ctx, l); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(l.thumbnails.thumbPath(it)); !os.IsNotExist(err) {
		t.Errorf("the old thumbnail is still cached: %v", err)
	}
}
