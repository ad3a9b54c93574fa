package cli

import (
	"context"
	"fmt"
	"strings"
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
			line := u.String()
			fmt.Fprintln(env.Stderr, "easel: "+strings.ToLower(line[:1])+line[1:])
		}
	})
}
