package api

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"image"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/dustin/go-humanize"

	"easel/internal/catalogue"
)

// Len is how many bytes the image puts on the wire.
func (i InputImage) Len() int64 {
	if i.Data == nil && i.Path != "" {
		return i.Size
	}
	return int64(len(i.Data))
}

// Open reads the image's bytes: from Data, or from the file at Path,
// which must still be the size it was checked at (a file changed on disk
// since would send something other than what was checked and priced).
func (i InputImage) Open() (io.ReadCloser, error) {
	if i.Data != nil || i.Path == "" {
		return io.NopCloser(bytes.NewReader(i.Data)), nil
	}
	f, err := os.Open(i.Path)
	if err != nil {
		return nil, &SourceError{Name: i.Name, Err: err}
	}
	st, err := f.Stat()
	if err == nil && st.Size() != i.Size {
		err = errors.New(catalogue.F("it is %d bytes now, %d when it was checked", st.Size(), i.Size))
	}
	if err != nil {
		_ = f.Close()
		return nil, &SourceError{Name: i.Name, Err: err}
	}
	return f, nil
}

// Bytes is the whole image, read from disk when it is a file: for the
// few checks and composites that need its pixels (the first image, a
// mask), never for every reference of an edit.
func (i InputImage) Bytes() ([]byte, error) {
	if i.Data != nil || i.Path == "" {
		return i.Data, nil
	}
	rc, err := i.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	data := make([]byte, i.Size)
	if _, err := io.ReadFull(rc, data); err != nil {
		return nil, &SourceError{Name: i.Name, Err: err}
	}
	return data, nil
}

// head is the image's first bytes, enough to tell its format by
// (http.DetectContentType reads 512) and to read a PNG's header.
func (i InputImage) head() []byte {
	if i.Data != nil || i.Path == "" {
		return i.Data[:min(len(i.Data), 512)]
	}
	rc, err := i.Open()
	if err != nil {
		return nil
	}
	defer rc.Close()
	buf := make([]byte, 512)
	n, _ := io.ReadFull(rc, buf)
	return buf[:n]
}

// Config is the image's size and colour model from its header, read
// from disk for a file without reading the rest.
func (i InputImage) Config() (image.Config, error) {
	return i.configBy(func(r io.Reader) (image.Config, error) {
		cfg, _, err := image.DecodeConfig(r)
		return cfg, err
	})
}

// configBy is the image's header as decode reads it.
func (i InputImage) configBy(decode func(io.Reader) (image.Config, error)) (image.Config, error) {
	rc, err := i.Open()
	if err != nil {
		return image.Config{}, err
	}
	defer rc.Close()
	return decode(bufio.NewReader(rc))
}

// SourceError is an input file that could not be read while it was
// being sent: moved, deleted or changed on disk after it was checked.
type SourceError struct {
	Name string
	Err  error
}

func (e *SourceError) Error() string {
	return catalogue.F("the image %s could not be read as it was sent: %v", e.Name, e.Err)
}

func (e *SourceError) Unwrap() error { return e.Err }

// streamedBody is a multipart body laid out before it is sent: the bytes
// Easel writes (boundaries, headers, fields, images it made) and the
// files sent as they are, read one after the other as the body goes out.
// Its length is known, so the service is told it (Content-Length) and
// progress has a total; it can be opened again for a redirect.
type streamedBody struct {
	parts  []bodyPart
	length int64
}

// bodyPart is one stretch of a streamedBody: data, or an input image.
type bodyPart struct {
	data []byte
	img  *InputImage
}

// Write takes what the multipart writer writes between the images.
func (b *streamedBody) Write(p []byte) (int, error) {
	if n := len(b.parts); n > 0 && b.parts[n-1].img == nil {
		b.parts[n-1].data = append(b.parts[n-1].data, p...)
	} else {
		b.parts = append(b.parts, bodyPart{data: bytes.Clone(p)})
	}
	b.length += int64(len(p))
	return len(p), nil
}

// add puts img's bytes next, by reference: not copied into the body.
func (b *streamedBody) add(img InputImage) {
	b.parts = append(b.parts, bodyPart{img: &img})
	b.length += img.Len()
}

// open reads the body from its start.
func (b *streamedBody) open() io.ReadCloser { return &bodyReader{parts: b.parts} }

// bodyReader reads a streamedBody's parts in turn, opening each file as
// it is reached and closing it once read, so one file is open at a time.
type bodyReader struct {
	parts []bodyPart
	cur   io.ReadCloser
}

func (r *bodyReader) Read(p []byte) (int, error) {
	for {
		if r.cur == nil {
			if len(r.parts) == 0 {
				return 0, io.EOF
			}
			part := r.parts[0]
			r.parts = r.parts[1:]
			if part.img == nil {
				r.cur = io.NopCloser(bytes.NewReader(part.data))
			} else {
				rc, err := part.img.Open()
				if err != nil {
					return 0, err
				}
				r.cur = struct {
					io.Reader
					io.Closer
				}{io.LimitReader(rc, part.img.Len()), rc}
			}
		}
		n, err := r.cur.Read(p)
		if err == io.EOF {
			_ = r.cur.Close()
			r.cur = nil
			err = nil
			if n == 0 {
				continue
			}
		}
		return n, err
	}
}

func (r *bodyReader) Close() error {
	if r.cur != nil {
		return r.cur.Close()
	}
	return nil
}

// Upload is how far a request's body has gone out.
type Upload struct {
	Sent, Total int64
	// Elapsed is the time since the first byte was read for sending.
	Elapsed time.Duration
}

// Rate is the bytes per second sent so far; 0 before there is a figure.
func (u Upload) Rate() float64 {
	if u.Elapsed < 200*time.Millisecond || u.Sent == 0 {
		return 0
	}
	return float64(u.Sent) / u.Elapsed.Seconds()
}

// Left is the time the rest takes at the rate so far; 0 when unknown.
func (u Upload) Left() time.Duration {
	r := u.Rate()
	if r == 0 {
		return 0
	}
	return time.Duration(float64(u.Total-u.Sent) / r * float64(time.Second))
}

// Done reports whether the whole body has gone out.
func (u Upload) Done() bool { return u.Sent >= u.Total }

// String is how far the upload is, as a card and the command line say
// it: bytes sent of the total, then the rate and the time left once
// there is a rate.
func (u Upload) String() string {
	line := catalogue.F("Sending %s of %s", humanize.Bytes(uint64(u.Sent)), humanize.Bytes(uint64(u.Total)))
	if r := u.Rate(); r > 0 && !u.Done() {
		line += " · " + catalogue.F("%s/s, %s left", humanize.Bytes(uint64(r)), catalogue.Duration(u.Left().Round(time.Second)))
	}
	return line
}

// onUploadKey carries a request's upload progress listener.
type onUploadKey struct{}

// WithOnUpload returns ctx carrying f, told how far an edit's upload has
// gone: at most every uploadEvery and once more when it is all sent, on
// the goroutine that sends it.
func WithOnUpload(ctx context.Context, f func(Upload)) context.Context {
	return context.WithValue(ctx, onUploadKey{}, f)
}

// uploadEvery spaces progress reports: often enough for a card's figure
// to move smoothly, rarely enough to cost nothing.
const uploadEvery = 100 * time.Millisecond

// progressReader tells f how much of a body of total bytes was read.
type progressReader struct {
	io.ReadCloser
	f          func(Upload)
	sent       int64
	total      int64
	start, was time.Time
}

func (p *progressReader) Read(b []byte) (int, error) {
	if p.start.IsZero() {
		p.start = time.Now()
	}
	n, err := p.ReadCloser.Read(b)
	if n == 0 {
		return n, err
	}
	p.sent += int64(n)
	if now := time.Now(); p.sent >= p.total || now.Sub(p.was) >= uploadEvery {
		p.was = now
		p.f(Upload{Sent: p.sent, Total: p.total, Elapsed: now.Sub(p.start)})
	}
	return n, err
}

// uploadBody is the request body of r as send puts it on the wire, with
// progress told to ctx's listener.
func uploadBody(ctx context.Context, b *streamedBody) io.ReadCloser {
	rc := b.open()
	if f, ok := ctx.Value(onUploadKey{}).(func(Upload)); ok && f != nil {
		return &progressReader{ReadCloser: rc, f: f, total: b.length}
	}
	return rc
}

// attachBody sets req's body to r's streamed body, when it has one, with
// its length, which can be opened again if a redirect asks.
func attachBody(ctx context.Context, req *http.Request, r request) {
	if r.upload == nil {
		return
	}
	req.Body = uploadBody(ctx, r.upload)
	req.ContentLength = r.upload.length
	req.GetBody = func() (io.ReadCloser, error) { return uploadBody(ctx, r.upload), nil }
}

// sourceFailed is the error for an upload whose file could not be read.
func sourceFailed(err error) (*Error, bool) {
	var se *SourceError
	if !errors.As(err, &se) {
		return nil, false
	}
	return &Error{Kind: KindInvalidImage, Message: se.Error(),
		Hint: catalogue.T("Add the image again from where it is now, and send again.")}, true
}
