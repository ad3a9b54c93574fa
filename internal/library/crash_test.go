package library

import (
	"context"
	"fmt"
	"image/color"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"easel/internal/testsupport/child"
)

// TestHelperAdd is not a test: the process tests run the test binary with
// EASEL_HELPER_DIR set, and this adds EASEL_HELPER_N images (for ever when
// unset), each prompted with EASEL_HELPER_NAME and its number, pausing
// EASEL_HELPER_PAUSE between them.
func TestHelperAdd(t *testing.T) {
	dir := os.Getenv("EASEL_HELPER_DIR")
	if dir == "" {
		t.Skip("helper process for the crash and two-process tests")
	}
	n, _ := strconv.Atoi(os.Getenv("EASEL_HELPER_N"))
	pause, _ := time.ParseDuration(os.Getenv("EASEL_HELPER_PAUSE"))
	name := os.Getenv("EASEL_HELPER_NAME")
	l, err := Open(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	img := pngOf(t, 16, 16, color.NRGBA{200, 100, 50, 255})
	for i := 0; n == 0 || i < n; i++ {
		if _, err := l.Add(context.Background(), NewItem{Image: img, Kind: "generate", Prompt: fmt.Sprintf("%s %d", name, i),
			Model: "gpt-image-1", Parents: []int64{1}}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(4)
		}
		time.Sleep(pause)
	}
	l.Close()
	os.Exit(0)
}

func helper(dir, name string, n int, pause time.Duration) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperAdd$")
	cmd.Env = append(os.Environ(), "EASEL_HELPER_DIR="+dir, "EASEL_HELPER_NAME="+name,
		"EASEL_HELPER_N="+strconv.Itoa(n), "EASEL_HELPER_PAUSE="+pause.String())
	cmd.Stderr = os.Stderr
	return cmd
}

// checkWhole opens the library and checks that every row has its whole
// file and its prompt, that no stray file remains and nothing is pending;
// it returns how many rows there are.
func checkWhole(t *testing.T, dir, when string) int {
	t.Helper()
	l, err := Open(dir)
	if err != nil {
		t.Fatalf("%s: the library does not open: %v", when, err)
	}
	defer l.Close()
	items, err := l.List(context.Background(), Query{Limit: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]bool{}
	for _, it := range items {
		rows[it.File] = true
		data, err := os.ReadFile(l.Path(it))
		if err != nil {
			t.Fatalf("%s: row %d has no file: %v", when, it.ID, err)
		}
		if int64(len(data)) != it.SizeBytes {
			t.Fatalf("%s: row %d's file is %d bytes, recorded %d", when, it.ID, len(data), it.SizeBytes)
		}
		if it.Kind != "generate" || it.Prompt == "" || it.Model != "gpt-image-1" {
			t.Fatalf("%s: row %d lost its prompt or settings: %+v", when, it.ID, it)
		}
	}
	_ = filepath.WalkDir(filepath.Join(dir, "images"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if strings.HasSuffix(p, tmpSuffix) || !rows[filepath.ToSlash(rel)] {
			t.Errorf("%s: stray file %s", when, rel)
		}
		return nil
	})
	var pending int
	_ = l.db.QueryRow(`SELECT count(*) FROM pending`).Scan(&pending)
	if pending != 0 {
		t.Errorf("%s: %d pending records left", when, pending)
	}
	return len(items)
}

// TestKilledDuringSavesLosesNothing kills a process that is saving
// images, with SIGKILL at random moments, a hundred times; after each
// kill the library must open, every row must have its whole file and its
// prompt (an image whose row never committed is recorded from its pending
// record), and no stray file may remain.
func TestKilledDuringSavesLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(7, 9))
	for round := 0; round < 100; round++ {
		cmd := child.Start(t, func() *exec.Cmd {
			cmd := helper(dir, "crash test", 0, 0)
			cmd.Stderr = nil
			return cmd
		})
		time.Sleep(time.Duration(40+rng.IntN(160)) * time.Millisecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		checkWhole(t, dir, fmt.Sprintf("round %d", round))
	}
	n := checkWhole(t, dir, "at the end")
	t.Logf("%d images saved across 100 kills", n)
	if n == 0 {
		t.Error("nothing was ever saved: the helper did not run")
	}
}

// Two processes saving into one library (a window and `easel gen`, or
// two windows before single-instance lands) both get every image
// recorded: neither's recovery touches the other's saves in flight, and a
// writer waits on SQLite rather than fails.
func TestTwoProcessesSave500EachIntoOneLibrary(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	dir := t.TempDir()
	a := child.Start(t, func() *exec.Cmd { return helper(dir, "first", 500, 0) })
	b := child.Start(t, func() *exec.Cmd { return helper(dir, "second", 500, 0) })
	if err := a.Wait(); err != nil {
		t.Errorf("the first process failed: %v", err)
	}
	if err := b.Wait(); err != nil {
		t.Errorf("the second process failed: %v", err)
	}
	if n := checkWhole(t, dir, "after both"); n != 1000 {
		t.Errorf("%d rows, want 1000", n)
	}
}

// A library opened again and again (a second window, the command line)
// while a process saves never adopts, deletes or doubles that process's
// images: it used to lose a quarter of them and fail with "UNIQUE
// constraint failed: items.file".
func TestOpeningAgainWhileAnotherSavesTouchesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	dir := t.TempDir()
	saver := child.Start(t, func() *exec.Cmd { return helper(dir, "saving", 32, 15*time.Millisecond) })
	done := make(chan error, 1)
	go func() { done <- saver.Wait() }()
	opens := 0
	for waiting := true; waiting; {
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("the saving process failed: %v", err)
			}
			waiting = false
		default:
			l, err := Open(dir)
			if err != nil {
				t.Fatalf("open %d while saving: %v", opens, err)
			}
			l.Close()
			opens++
		}
	}
	if n := checkWhole(t, dir, "after the saves"); n != 32 {
		t.Errorf("%d rows after %d opens, want 32", n, opens)
	}
}
