package library

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"easel/internal/api"
	"easel/internal/atomicfile"
	"easel/internal/imageio"
)

// An image that arrives while its job is still out (the first of four
// streamed) is paid for the moment it arrives. It is written, whole and
// synced, beside the job's journal entry before anyone is told it
// arrived; the job's end removes it once the gallery holds it. A kill
// before the end leaves it there, and the next start puts it in the
// gallery with the job's prompt and settings (Interrupted returns it).

// arrivedPrefix names a job's arrived images in the journal's folder.
func arrivedPrefix(job string) string { return filepath.Base(job) + "-arrived-" }

// KeepArrived writes image n of job, which arrived before the job ended.
func (l *Journal) KeepArrived(job string, n int, img api.Image) error {
	if l.saveErr() != nil {
		return l.saveErr()
	}
	name := fmt.Sprintf("%s%02d%s", arrivedPrefix(job), n, imageio.Extension(img.Format))
	return atomicfile.Write(filepath.Join(l.root, "journal", name), img.Data)
}

// arrived reads back the images of job kept by KeepArrived, in order.
func (l *Journal) arrived(job string) []api.Image {
	dir := filepath.Join(l.root, "journal")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), arrivedPrefix(job)) && !strings.Contains(e.Name(), ".tmp") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var out []api.Image
	for _, n := range names {
		if img, err := ReadImage(filepath.Join(dir, n)); err == nil {
			out = append(out, img)
		}
	}
	return out
}

// ReadImage reads back a paid image Easel kept on disk while its job was
// out (an arrival, a fallback file), with its format and size from its
// header.
func ReadImage(path string) (api.Image, error) {
	data, err := imageio.ReadFile(path)
	if err != nil {
		return api.Image{}, err
	}
	format, w, h, err := imageio.SniffImage(data)
	if err != nil {
		return api.Image{}, err
	}
	return api.Image{Data: data, Format: format, Width: w, Height: h}, nil
}

// dropArrived removes job's arrived images: the job ended, and its
// images are in the gallery (or were said lost).
func (l *Journal) dropArrived(job string) {
	matches, _ := filepath.Glob(filepath.Join(l.root, "journal", arrivedPrefix(job)+"*"))
	for _, m := range matches {
		_ = os.Remove(m)
	}
}
