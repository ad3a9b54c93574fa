package library

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"easel/internal/atomicfile"
	"easel/internal/catalogue"
)

// MaxAside bounds one kept-aside file: an answer is bounded already, and
// this is what no image format could be read from.
const MaxAside = 64 << 20

// Aside are the folders where a paid image goes when the gallery cannot
// take it: unreadable/ for bytes no decoder reads, and the fallback
// folders for a disk that filled (KeepUnsaved). Nothing there is
// replaced, and the next start finds it by the job's name.
type Aside struct {
	// root is the library's folder.
	root string
}

// Aside is where paid images the gallery could not take are kept.
func (l *Library) Aside() *Aside { return l.aside }

// Keep writes bytes the service sent that are no image Easel reads
// (paid for, so never thrown away) to the gallery's "unreadable" folder,
// named by the time and the job, and returns where. A name already taken
// gets the next number; nothing is replaced.
func (l *Aside) Keep(data []byte, job string, n int) (string, error) {
	if len(data) > MaxAside {
		data = data[:MaxAside]
	}
	dir := filepath.Join(l.root, "unreadable")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf(catalogue.T("cannot create %s: %w"), dir, err)
	}
	stamp := time.Now().Format("20060102-150405")
	path, err := atomicfile.WriteFree(dir, 1000, func(i int) string {
		return fmt.Sprintf("%s-%s-%d.bin", stamp, safeName(job), n+i)
	}, data)
	if err != nil {
		return "", fmt.Errorf(catalogue.T("cannot write %s: %w"), path, err)
	}
	return path, nil
}

// safeName keeps letters, digits and dashes of s.
func safeName(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return "job"
	}
	return string(out)
}

// unsavedDirs are where an image the gallery could not take is written,
// in order: beside the gallery (when the failure was not the disk), then
// the user's cache and the system's temporary folder, which are often on
// another disk than a full one.
func (l *Aside) unsavedDirs() []string {
	dirs := []string{filepath.Join(l.root, "unsaved")}
	if c, err := os.UserCacheDir(); err == nil {
		dirs = append(dirs, filepath.Join(c, "easel", "unsaved"))
	}
	// Named by the user, in a folder only they may write: the temporary
	// folder is shared on Unix, and a folder of that name others may
	// write is passed over (mine, one for each system).
	return append(dirs, filepath.Join(os.TempDir(), "easel-unsaved-"+strconv.Itoa(os.Getuid())))
}

// KeepUnsaved writes a paid image the gallery could not save (a disk that
// filled as it was saved) to the first of the fallback folders that takes
// it, named by the job so the next start finds it, and returns where.
// Nothing is replaced.
func (l *Aside) KeepUnsaved(data []byte, format, job string, n int) (string, error) {
	var last error
	for _, dir := range l.unsavedDirs() {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			last = err
			continue
		}
		if !mine(dir) {
			last = fmt.Errorf(catalogue.T("%s may be written by others"), dir)
			continue
		}
		for i := 0; i < 100; i++ {
			path := filepath.Join(dir, fmt.Sprintf("%s-%d.%s", safeName(job), n+i, safeName(format)))
			err := atomicfile.WriteNew(path, data)
			if errors.Is(err, fs.ErrExist) {
				continue
			}
			if err == nil {
				return path, nil
			}
			last = err
			break
		}
	}
	return "", fmt.Errorf(catalogue.T("no folder could take it (%w)"), last)
}

// FoundUnsaved are the files KeepUnsaved wrote for job, in any of its
// folders: what a job whose end could not be written left, found at the
// next start.
func (l *Aside) FoundUnsaved(job string) []string {
	var out []string
	for _, dir := range l.unsavedDirs() {
		if !mine(dir) {
			continue
		}
		m, _ := filepath.Glob(filepath.Join(dir, safeName(job)+"-*"))
		for _, p := range m {
			// job-N.format, not another job whose name begins with this one's
			rest := strings.TrimPrefix(filepath.Base(p), safeName(job)+"-")
			if n, _, ok := strings.Cut(rest, "."); ok && strings.Trim(n, "0123456789") == "" {
				out = append(out, p)
			}
		}
	}
	return out
}
