package library

import (
	"context"
	"os"

	"easel/internal/c2pa"
	"easel/internal/framing"
	"easel/internal/imageio"
)

// What an item's file carries of Content Credentials: the values of the
// items table's credentials column (stored: never renamed).
const (
	// CredentialsSigned: a manifest whose signature matches and whose
	// certificate chains to a root Easel trusts.
	CredentialsSigned = "signed"
	// CredentialsChanged: a manifest whose signature does not match.
	CredentialsChanged = "changed"
	// CredentialsUnverified: a manifest Easel could not check, or whose
	// signer it cannot verify (a claim).
	CredentialsUnverified = "unverified"
	// CredentialsNone: no manifest.
	CredentialsNone = "none"
)

// credentialsOf is what data carries of Content Credentials.
func credentialsOf(data []byte) string {
	c, ok := c2pa.Read(data)
	switch {
	case !ok:
		return CredentialsNone
	case c.Check == c2pa.Valid:
		return CredentialsSigned
	case c.Check == c2pa.Invalid:
		return CredentialsChanged
	}
	return CredentialsUnverified
}

// ReadCredentials reads the Content Credentials of every item saved
// before Easel read them (a gallery from before schema 12), from its
// file, and says how many it read: the gallery's filter by credentials
// then finds them. The same reading drops the cached thumbnail of a
// picture in another colour space than sRGB, drawn before Easel
// converted colours. An item whose file cannot be read is left to the
// next start. Run it off the UI goroutine; ctx stops it between items.
func ReadCredentials(ctx context.Context, l *Library) (int, error) {
	rows, err := l.db.QueryContext(ctx, `SELECT id, file FROM items WHERE credentials = '' ORDER BY id`)
	if err != nil {
		return 0, err
	}
	type unread struct {
		id   int64
		file string
	}
	var todo []unread
	for rows.Next() {
		var u unread
		if err := rows.Scan(&u.id, &u.file); err != nil {
			_ = rows.Close()
			return 0, err
		}
		todo = append(todo, u)
	}
	if err := rows.Close(); err != nil {
		return 0, err
	}
	read := 0
	for _, u := range todo {
		if ctx.Err() != nil {
			return read, ctx.Err()
		}
		it := Item{File: u.file}
		data, err := credentialBytes(l.Path(it))
		if err != nil {
			continue
		}
		if imageio.SpaceOf(data) != nil {
			// Its thumbnail was made before Easel read colour profiles,
			// from its numbers as if sRGB: made again, in its colours,
			// when next shown.
			_ = os.Remove(l.thumbnails.thumbPath(it))
		}
		if _, err := l.db.ExecContext(ctx, `UPDATE items SET credentials = ? WHERE id = ?`, credentialsOf(data), u.id); err != nil {
			return read, err
		}
		read++
	}
	return read, nil
}

// credentialBytes is as much of the file at path as its credentials
// need: a PNG's or a JPEG's head, where the manifest store goes before
// the pixels, and a WebP whole, whose C2PA chunk may follow them. A
// gallery of thousands of pictures is read once, after an upgrade.
func credentialBytes(path string) ([]byte, error) {
	head, err := imageio.FileHead(path)
	if err != nil || framing.Kind(head) != framing.WebP {
		return head, err
	}
	return imageio.ReadFile(path)
}
