package cli

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/dustin/go-humanize"

	"easel/internal/api"
	"easel/internal/catalogue"
)

// uploadEvery spaces the upload lines on stderr: a line a second says a
// long upload moves without filling the terminal.
const uploadEvery = time.Second

// withUploadProgress returns ctx telling stderr how an upload goes: bytes
// sent of the total, the rate and the time left, once a second, then that
// it is all sent and the service is at work. An upload done within the
// first second says nothing.
func withUploadProgress(ctx context.Context, env Env) context.Context {
	var mu sync.Mutex
	var last time.Time
	said := false
	return api.WithOnUpload(ctx, func(u api.Upload) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case u.Done() && said:
			fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("sent %s; waiting for the service", humanize.Bytes(uint64(u.Total))))
		case u.Done(), u.Elapsed < uploadEvery, time.Since(last) < uploadEvery:
		default:
			last, said = time.Now(), true
			fmt.Fprintln(env.Stderr, "easel: "+uploadLine(u))
		}
	})
}

// uploadLine is how far an upload is, in words.
func uploadLine(u api.Upload) string {
	line := catalogue.F("sending %s of %s", humanize.Bytes(uint64(u.Sent)), humanize.Bytes(uint64(u.Total)))
	if r := u.Rate(); r > 0 {
		line += " · " + catalogue.F("%s/s, %s left", humanize.Bytes(uint64(r)), catalogue.Duration(u.Left().Round(time.Second)))
	}
	return line
}
