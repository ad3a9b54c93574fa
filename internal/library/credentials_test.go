package library

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/c2pa"
	"easel/internal/imageio"
	"easel/internal/testsupport/credentials"
	"easel/internal/testsupport/signed"
)

// A gallery from before schema 12 learns each item's credentials from
// its file once opened: the answer of the v11 fixture whose manifest is
// signed by a self-signed certificate, and only it, is then found as
// unverified (a claim: no root Easel trusts issued it); a new item is
// known when added.
func TestAnUpgradedGalleryLearnsItsCredentials(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lib")
	copyTree(t, filepath.Join("testdata", "v11", "library"), dir)
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	all, _ := l.Count(ctx, Query{})
	n, err := ReadCredentials(ctx, l)
	if err != nil || n != all {
		t.Fatalf("read %d of %d items' credentials: %v", n, all, err)
	}
	got, _ := l.List(ctx, Query{Credentials: CredentialsUnverified, Limit: 10})
	if len(got) != 1 || got[0].Prompt != "a signed harbour" {
		t.Fatalf("unverified: %+v", got)
	}
	if signedItems, _ := l.Count(ctx, Query{Credentials: CredentialsSigned}); signedItems != 0 {
		t.Errorf("%d items listed as signed by a self-signed certificate", signedItems)
	}
	if none, _ := l.Count(ctx, Query{Credentials: CredentialsNone}); none != all-1 {
		t.Errorf("%d items without credentials, want %d", none, all-1)
	}
	if again, _ := ReadCredentials(ctx, l); again != 0 {
		t.Errorf("a second reading read %d items again", again)
	}
	// Added now: known at once, a store Easel cannot check as such, and
	// one whose signer is trusted (a user-added root) as signed.
	if _, err := l.Add(ctx, NewItem{Image: api.Image{Data: signed.PNG(t, 8, 8), Format: "png", Width: 8, Height: 8},
		Kind: "generate", Prompt: "a fake store", Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if u, _ := l.Count(ctx, Query{Credentials: CredentialsUnverified}); u != 2 {
		t.Errorf("%d unverified items, want the fixture's and the one just added", u)
	}
	trusted, ok := c2pa.Embed(signed.PNG(t, 8, 8), credentials.Manifest(t, "gpt-image-1", "Trusted Org"))
	if !ok {
		t.Fatal("no manifest embedded")
	}
	if _, err := l.Add(ctx, NewItem{Image: api.Image{Data: trusted, Format: "png", Width: 8, Height: 8},
		Kind: "generate", Prompt: "a trusted answer", Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if s, _ := l.List(ctx, Query{Credentials: CredentialsSigned, Limit: 10}); len(s) != 1 || s[0].Prompt != "a trusted answer" {
		t.Errorf("signed: %+v", s)
	}
}

// #53: at schema 12 a self-signed manifest was stored as signed, and
// the gallery's filter listed a forged "OpenAI" under Signed. Schema 13
// reads what was stored as signed again, against the trust list.
func TestSchema13ReadsSignedItemsAgainstTheTrustList(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lib")
	copyTree(t, filepath.Join("testdata", "v12", "library"), dir)
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	if n, err := ReadCredentials(ctx, l); err != nil || n != 1 {
		t.Fatalf("read %d items again (%v), want the one stored as signed", n, err)
	}
	if s, _ := l.Count(ctx, Query{Credentials: CredentialsSigned}); s != 0 {
		t.Errorf("%d items still signed", s)
	}
	if u, _ := l.List(ctx, Query{Credentials: CredentialsUnverified, Limit: 10}); len(u) != 1 || u[0].Prompt != "a signed harbour" {
		t.Errorf("unverified: %+v", u)
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

// refusal is what a quarantine's child says of a picture it could not
// decode (quarantine.Refused, which library does not know).
type refusal struct{ why string }

func (r refusal) Error() string      { return "refused: " + r.why }
func (r refusal) Undrawable() string { return r.why }

// A picture its maker refuses (a decoder that died in quarantine) is
// remembered as undrawable: its thumbnail is never made again, here or
// at the next start, and the reason is kept.
func TestAnUndrawablePictureIsNotDecodedAgain(t *testing.T) {
	l, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	id, err := l.Add(context.Background(), NewItem{Image: api.Image{Data: signed.PNG(t, 8, 8), Format: "png", Width: 8, Height: 8},
		Kind: "generate", Prompt: "a bomb", Created: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	it, err := l.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	_ = os.Remove(l.Thumbnails().thumbPath(it)) // made as it was saved, when it is
	calls := 0
	l.Thumbnails().Quarantine(func([]byte) ([]byte, error) {
		calls++
		return nil, refusal{"decoding it needed more memory than Easel allows a picture (2048 MB)"}
	})
	for range 2 {
		_, err := l.Thumbnails().Thumbnail(it)
		var u *Undrawable
		if !errors.As(err, &u) || !strings.Contains(err.Error(), "Easel could not draw this picture: decoding it needed more memory") {
			t.Fatalf("Thumbnail = %v", err)
		}
	}
	if calls != 1 {
		t.Errorf("the picture was handed to be decoded %d times", calls)
	}
}

// #53: a start that died while a decoder drew a picture died again at
// every start after it. A picture whose drawing a process did not live
// to finish is set aside at the next start: said in a notice by its
// prompt, and shown as one Easel could not draw, never decoded again.
func TestAPictureThatEndedAStartIsSetAside(t *testing.T) {
	dir := t.TempDir()
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	id, err := l.Add(context.Background(), NewItem{Image: api.Image{Data: signed.PNG(t, 8, 8), Format: "png", Width: 8, Height: 8},
		Kind: "generate", Prompt: "a harbour that killed a decoder", Created: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	it, _ := l.Get(context.Background(), id)
	th := l.Thumbnails()
	_ = os.Remove(th.thumbPath(it))
	// What a process that died inside the decoder leaves.
	if err := os.WriteFile(th.drawingPath(it), []byte(markName(it)), 0o600); err != nil {
		t.Fatal(err)
	}
	l.Close()

	l, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	notices := strings.Join(l.Notices(), " ")
	if !strings.Contains(notices, "ended while drawing 1 picture") || !strings.Contains(notices, "a harbour that killed a decoder") {
		t.Errorf("notices: %q", notices)
	}
	l.Thumbnails().Quarantine(func([]byte) ([]byte, error) {
		t.Fatal("a picture set aside was handed to a decoder again")
		return nil, nil
	})
	var u *Undrawable
	if _, err := l.Thumbnails().Thumbnail(it); !errors.As(err, &u) || !strings.Contains(err.Error(), "stopped while drawing") {
		t.Errorf("Thumbnail = %v", err)
	}
}
