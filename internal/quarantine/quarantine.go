// Package quarantine decodes a picture Easel has not seen before in a
// child process: easel itself, started again in its decode mode, under
// limits of memory and time. A decoder Easel does not own (libwebp in C,
// the ICC and SVG libraries) can crash, exhaust memory with Go's
// unrecoverable out-of-memory, or run for minutes on a hostile file; in
// the child that costs the child. The parent gets the picture's
// thumbnail, or why it could not be drawn, and the window's process
// decodes only pictures that passed.
package quarantine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"time"

	"easel/internal/catalogue"
)

// envChild marks the child: its standard input is the picture, its
// standard output the work's answer, its standard error why not.
const envChild = "EASEL_DECODE_CHILD"

// Limits of a child: memory (address space on Unix, the job's commit on
// Windows), processor time, and the wall time the parent waits. A
// 16-megapixel picture decodes and scales in well under a second and a
// few hundred megabytes.
const (
	MemoryLimit = 2 << 30
	CPULimit    = 20 * time.Second
	WaitLimit   = 30 * time.Second
	// maxInput bounds what a child reads: the largest file Easel reads
	// as a picture (imageio.MaxReadBytes).
	maxInput = 512 << 20
	// maxOutput bounds a child's answer: a thumbnail.
	maxOutput = 16 << 20
)

// Refused is why a child could not do its work on a picture: the
// decoder's own error, or the limit it met. The picture is kept as it
// came and never decoded in the window's process.
type Refused struct{ Reason string }

func (e *Refused) Error() string {
	return catalogue.F("Easel could not draw this picture: %s", e.Reason)
}

// Undrawable is the reason, for whoever remembers it (library's
// thumbnails) without knowing this package.
func (e *Refused) Undrawable() string { return e.Reason }

// Serve is the child's side: when this process is a child, it reads the
// picture, confines itself, runs work on it, writes the answer and ends
// the process. Call it first in main: in the parent it returns at once.
func Serve(work func(data []byte) ([]byte, error)) {
	if os.Getenv(envChild) != "1" {
		return
	}
	confineSelf()
	data, err := io.ReadAll(io.LimitReader(os.Stdin, maxInput+1))
	if err == nil && len(data) > maxInput {
		err = errors.New(catalogue.F("it is over %d MB", maxInput>>20))
	}
	var out []byte
	if err == nil {
		out, err = work(data)
	}
	if err != nil {
		fmt.Fprint(os.Stderr, err)
		os.Exit(2)
	}
	_, _ = os.Stdout.Write(out)
	os.Exit(0)
}

// Run runs the child on the picture read from in and returns its answer. An error is a
// *Refused when the child ran and failed (its reason, or the limit that
// stopped it); any other error means no child could run, and the caller
// decides.
func Run(ctx context.Context, in io.Reader) ([]byte, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, WaitLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = append(os.Environ(), envChild+"=1")
	var out, why bytes.Buffer
	cmd.Stdout = &limited{w: &out, n: maxOutput}
	cmd.Stderr = &limited{w: &why, n: 4 << 10}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	// Confined before it is given the picture: until then it only waits.
	// A system that will not confine it (Wine's job objects) still has
	// the child's own death and the wait between the decoder and the
	// window: that is said in the log, and the child runs.
	release, cerr := confine(cmd.Process)
	defer release()
	if cerr != nil {
		slog.Warn("quarantine: the decode child could not be confined; only the wait bounds it", "err", cerr)
	}
	// A child that ends early (over its input bound, or dead) closes
	// the pipe: the copy's error is the child's, said by its exit.
	_, _ = io.Copy(stdin, in)
	_ = stdin.Close()
	err = cmd.Wait()
	switch {
	case err == nil:
		return out.Bytes(), nil
	case ctx.Err() != nil && errors.Is(context.Cause(ctx), context.DeadlineExceeded):
		return nil, &Refused{Reason: catalogue.F("decoding it took longer than %s", catalogue.Duration(WaitLimit))}
	case ctx.Err() != nil:
		return nil, ctx.Err()
	}
	var exit *exec.ExitError
	said := strings.TrimSpace(why.String())
	switch {
	case strings.Contains(said, "out of memory"):
		// Go's own end at the limit, which no recover catches.
		return nil, &Refused{Reason: catalogue.F("decoding it needed more memory than Easel allows a picture (%d MB)", MemoryLimit>>20)}
	case errors.As(err, &exit) && exit.ExitCode() == 2 && said != "":
		// The work's own error, or a panic's first line (Go exits 2).
		reason, _, _ := strings.Cut(strings.TrimPrefix(said, "panic: "), "\n")
		return nil, &Refused{Reason: reason}
	}
	return nil, &Refused{Reason: catalogue.F("decoding it needed more memory or time than Easel allows a picture (%v)", err)}
}

// limited writes at most n bytes to w, then drops the rest.
type limited struct {
	w io.Writer
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if len(p) > l.n {
		_, err := l.w.Write(p[:l.n])
		l.n = 0
		return len(p), err
	}
	l.n -= len(p)
	return l.w.Write(p)
}

// Maker is work done in a child process (Run): a picture that kills or
// exhausts its decoder costs the child, not this process. Where no child
// can run at all (the executable replaced under a running window), the
// work is done here, and said in the log.
func Maker(work func([]byte) ([]byte, error)) func([]byte) ([]byte, error) {
	return func(data []byte) ([]byte, error) {
		out, err := Run(context.Background(), bytes.NewReader(data))
		var refused *Refused
		if err != nil && !errors.As(err, &refused) {
			slog.Warn("quarantine: no child could decode a picture; decoding it in this process", "err", err)
			return work(data)
		}
		return out, err
	}
}

// Vetter is imageio's vetter (imageio.SetVetter): a picture is drawn in
// a child, which answers its thumbnail, and refused with the child's
// reason when it could not be. Where no child can run at all the picture
// passes with no thumbnail (the caller draws it), said in the log, as
// Maker does: refusing every picture would leave Easel unable to read
// any.
func Vetter(in io.Reader) ([]byte, error) {
	out, err := Run(context.Background(), in)
	var refused *Refused
	if err != nil && !errors.As(err, &refused) {
		slog.Warn("quarantine: no child could vet a picture; it is read in this process", "err", err)
		return nil, nil
	}
	return out, err
}
