package library

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"easel/internal/atomicfile"
	"easel/internal/catalogue"
)

// MaxAside bounds one kept-aside file: an answer is bounded already, and
// this is what no image format could be read from.
const MaxAside = 64 << 20

// KeepAside writes bytes the service sent that are no image Easel reads
// (paid for, so never thrown away) to the gallery's "unreadable" folder,
// named by the time and the job, and returns where. A name already taken
// gets the next number; nothing is replaced.
func (l *Library) KeepAside(data []byte, job string, n int) (string, error) {
	if len(data) > MaxAside {
		data = data[:MaxAside]
	}
	dir := filepath.Join(l.root, "unreadable")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf(catalogue.T("cannot create %s: %w"), dir, err)
	}
	stamp := time.Now().Format("20060102-150405")
	for i := 0; i < 1000; i++ {
		name := fmt.Sprintf("%s-%s-%d.bin", stamp, safeName(job), n+i)
		path := filepath.Join(dir, name)
		err := atomicfile.WriteNew(path, data)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf(catalogue.T("cannot write %s: %w"), path, err)
		}
		return path, nil
	}
	return "", fmt.Errorf(catalogue.T("cannot write %s: %w"), dir, fs.ErrExist)
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
