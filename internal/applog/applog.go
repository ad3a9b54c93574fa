// Package applog is Easel's log: where a record or a paid result can
// degrade without a word on screen (a ledger row not written, a journal
// entry left open, a memory not kept), the code says so here, so that a
// charge missing from the ledger can be traced. It writes log/slog's text
// lines to a file in the gallery's folder, capped in size (one older file
// kept), with anything that looks like a key removed before it is
// written. Nothing here reaches the screen.
package applog

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"sync"
)

// MaxSize is how large the log grows before it is moved aside to
// easel.log.1 (replacing the one before) and begun again.
const MaxSize = 2 << 20

// Name is the log file's name in its folder.
const Name = "easel.log"

// Folder is the log's folder in the gallery's.
const Folder = "logs"

// keyLike finds what looks like a key or a bearer token: the log is for
// reading over a user's shoulder, and must never hold one.
var keyLike = regexp.MustCompile(`(?i)(sk-[a-z0-9_\-]{6,}|bearer\s+[a-z0-9._\-]{6,}|[a-z0-9_\-]{40,})`)

// Redact removes every key-like piece of s.
func Redact(s string) string { return keyLike.ReplaceAllString(s, "[redacted]") }

// Open makes the log in dir the default slog logger at level, and
// returns its closer. A folder that cannot be written leaves slog
// discarding: a log is never a reason not to start.
func Open(dir string, level slog.Level) (io.Closer, error) {
	f := &file{path: filepath.Join(dir, Name)}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
		return f, err
	}
	if err := f.open(); err != nil {
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
		return f, err
	}
	h := slog.NewTextHandler(f, &slog.HandlerOptions{Level: level, ReplaceAttr: redactAttr})
	slog.SetDefault(slog.New(redacting{h}))
	return f, nil
}

// Discard makes slog write nothing: a command line run without a
// gallery folder, or a test.
func Discard() { slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil))) }

// redactAttr redacts every string value.
func redactAttr(_ []string, a slog.Attr) slog.Attr {
	switch a.Value.Kind() {
	case slog.KindString:
		a.Value = slog.StringValue(Redact(a.Value.String()))
	case slog.KindAny:
		if err, ok := a.Value.Any().(error); ok {
			a.Value = slog.StringValue(Redact(err.Error()))
		}
	}
	return a
}

// redacting redacts the message too.
type redacting struct{ slog.Handler }

func (r redacting) Handle(ctx context.Context, rec slog.Record) error {
	clean := slog.NewRecord(rec.Time, rec.Level, Redact(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool { clean.AddAttrs(a); return true })
	return r.Handler.Handle(ctx, clean)
}

func (r redacting) WithAttrs(as []slog.Attr) slog.Handler { return redacting{r.Handler.WithAttrs(as)} }
func (r redacting) WithGroup(name string) slog.Handler    { return redacting{r.Handler.WithGroup(name)} }

// file is the log file, moved aside when it passes MaxSize.
type file struct {
	mu   sync.Mutex
	path string
	f    *os.File
	size int64
}

func (f *file) open() error {
	fh, err := os.OpenFile(f.path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	st, err := fh.Stat()
	if err != nil {
		_ = fh.Close()
		return err
	}
	f.f, f.size = fh, st.Size()
	return nil
}

func (f *file) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.f == nil {
		return len(p), nil
	}
	if f.size+int64(len(p)) > MaxSize {
		_ = f.f.Close()
		_ = os.Rename(f.path, f.path+".1")
		if err := f.open(); err != nil {
			f.f = nil
			return len(p), nil
		}
	}
	n, err := f.f.Write(p)
	f.size += int64(n)
	return n, err
}

// Close closes the file.
func (f *file) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.f == nil {
		return nil
	}
	err := f.f.Close()
	f.f = nil
	return err
}
