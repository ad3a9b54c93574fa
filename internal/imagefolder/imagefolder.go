// Package imagefolder lists a folder as Easel's image picker shows it:
// its subfolders to go into and the images in it to choose, and the
// places a designer keeps pictures (Home, Pictures, Desktop, Downloads)
// as shortcuts. The picker is Easel's own, not Fyne's file dialog: that
// dialog takes one file, shows every kind and no previews, and reads
// the home's Videos and Music folders whether they exist or not.
package imagefolder

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Extensions are the files the picker offers, by extension: what Edit
// and the gallery's import take (GIF, BMP and TIFF become PNG there).
var Extensions = map[string]bool{
	".png": true, ".jpg": true, ".jpeg": true, ".webp": true,
	".gif": true, ".bmp": true, ".tif": true, ".tiff": true,
}

// IsImage reports whether a file's name says it is one the picker offers.
func IsImage(name string) bool { return Extensions[strings.ToLower(filepath.Ext(name))] }

// Listing is one folder: its subfolders and its images, each by name
// (case-insensitively), hidden ones left out.
type Listing struct {
	Dir     string
	Folders []string
	Images  []string
}

// List reads dir. Links are followed, so a linked folder opens and a
// linked image is offered; entries that cannot be read are skipped.
func List(dir string) (Listing, error) { return ListMatching(dir, IsImage) }

// ListMatching is List for the files whose names match says are wanted
// (a prompt library's .json), in Images.
func ListMatching(dir string, match func(name string) bool) (Listing, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return Listing{Dir: dir}, err
	}
	l := Listing{Dir: dir}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		switch {
		case st.IsDir():
			l.Folders = append(l.Folders, name)
		case st.Mode().IsRegular() && match(name):
			l.Images = append(l.Images, name)
		}
	}
	byName := func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) }
	slices.SortFunc(l.Folders, byName)
	slices.SortFunc(l.Images, byName)
	return l, nil
}

// Place is a shortcut to a folder; Name is the folder's English name,
// which the window words in the user's language.
type Place struct {
	Name, Dir string
}

// Places are the folders of home where pictures are usually kept, those
// that exist, home first.
func Places(home string) []Place {
	if home == "" {
		return nil
	}
	out := []Place{{"Home", home}}
	for _, name := range []string{"Pictures", "Desktop", "Downloads"} {
		dir := filepath.Join(home, name)
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			out = append(out, Place{name, dir})
		}
	}
	return out
}

// Start is the folder the picker opens on: last when it still exists,
// else Pictures, else home.
func Start(last, home string) string {
	candidates := []string{last}
	if home != "" {
		candidates = append(candidates, filepath.Join(home, "Pictures"), home)
	}
	for _, dir := range candidates {
		if dir == "" {
			continue
		}
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			return dir
		}
	}
	return home
}
