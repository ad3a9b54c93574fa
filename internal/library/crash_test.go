package library

import (
	"context"
	"image/color"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHelperAddForever is not a test: the crash test runs the test binary
// with EASEL_CRASH_DIR set, and this adds images until it is killed.
func TestHelperAddForever(t *testing.T) {
	dir := os.Getenv("EASEL_CRASH_DIR")
	if dir == "" {
		t.Skip("helper process for TestKilledDuringSavesLosesNothing")
	}
	l, err := Open(dir)
	if err != nil {
		os.Exit(3)
	}
	img := pngOf(t, 64, 64, color.NRGBA{200, 100, 50, 255})
	for i := 0; ; i++ {
		if _, err := l.Add(context.Background(), NewItem{Image: img, Kind: "generate", Prompt: "crash test"}); err != nil {
			os.Exit(4)
		}
	}
}

// TestKilledDuringSavesLosesNothing kills a process that is saving
// images, with SIGKILL at random moments, many times; after each kill the
// library must open, every row must have its whole file, and no stray file
// may remain.
func TestKilledDuringSavesLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(7, 9))
	for round := 0; round < 25; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperAddForever$")
		cmd.Env = append(os.Environ(), "EASEL_CRASH_DIR="+dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(80+rng.IntN(220)) * time.Millisecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()

		l, err := Open(dir)
		if err != nil {
			t.Fatalf("round %d: the library does not open after a kill: %v", round, err)
		}
		items, err := l.List(context.Background(), Query{Limit: 1 << 30})
		if err != nil {
			t.Fatal(err)
		}
		rows := map[string]bool{}
		for _, it := range items {
			rows[it.File] = true
			data, err := os.ReadFile(l.Path(it))
			if err != nil {
				t.Fatalf("round %d: row %d has no file: %v", round, it.ID, err)
			}
			if int64(len(data)) != it.SizeBytes {
				t.Fatalf("round %d: row %d's file is %d bytes, recorded %d", round, it.ID, len(data), it.SizeBytes)
			}
		}
		_ = filepath.WalkDir(filepath.Join(dir, "images"), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			if strings.HasSuffix(p, tmpSuffix) || !rows[filepath.ToSlash(rel)] {
				t.Errorf("round %d: stray file %s", round, rel)
			}
			return nil
		})
		l.Close()
	}
	l, _ := Open(dir)
	defer l.Close()
	n, _ := l.Count(context.Background(), Query{})
	t.Logf("%d images saved across 25 kills", n)
	if n == 0 {
		t.Error("nothing was ever saved: the helper did not run")
	}
}
