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
	"easel/internal/gateway"
)

// uploadEvery spaces the upload lines on stderr: a line a second says a
// long upload moves without filling the terminal.
const uploadEvery = time.Second

// uploadWatch follows an edit's upload: it tells stderr how it goes
// (bytes sent of the total, the rate and the time left, once a second,
// then that it is all sent and the service is at work; an upload done
// within the first second says nothing), and remembers whether it ended
// and when, for the billing table.
type uploadWatch struct {
	env   Env
	mu    sync.Mutex
	last  time.Time
	said  bool
	going bool
	ended time.Time
}

// watch returns ctx with w told of the upload.
func (w *uploadWatch) watch(ctx context.Context) context.Context {
	return api.WithOnUpload(ctx, func(u api.Upload) {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.going = !u.Done()
		switch {
		case u.Done():
			w.ended = time.Now()
			if w.said {
				fmt.Fprintln(w.env.Stderr, "easel: "+catalogue.F("sent %s; waiting for the service", humanize.Bytes(uint64(u.Total))))
			}
		case u.Elapsed < uploadEvery, time.Since(w.last) < uploadEvery:
		default:
			w.last, w.said = time.Now(), true
			line := u.String()
			fmt.Fprintln(w.env.Stderr, "easel: "+strings.ToLower(line[:1])+line[1:])
		}
	})
}

// judged completes x with the upload: a request stopped while its body
// went out never reached the service whole, and one that did has been
// with the service since its upload ended.
func (w *uploadWatch) judged(x gateway.Ending) gateway.Ending {
	w.mu.Lock()
	defer w.mu.Unlock()
	x.Unsent = w.going
	if !w.ended.IsZero() {
		x.Out = time.Since(w.ended)
	}
	return x
}
