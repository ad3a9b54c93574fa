package jobs

import (
	"context"
	"sync"
	"time"

	"easel/internal/api"
	"easel/internal/gateway"
)

// watch follows a job's request while it is out and turns what it
// reports into the card's events, one at a time: a wait the service
// asked for, the upload's progress, previews and arrived images, and a
// tick so the card never sits silent. It keeps what the billing table
// needs to know of how the request ended.
type watch struct {
	r    *Runner
	info Info
	// mu serialises the events and guards the fields below.
	mu        sync.Mutex
	retryAt   time.Time // when a wait the service asked for ends
	uploading bool      // an upload is going out
	sent      time.Time // when the service had the whole request
	previews  int

	keeper       ArrivalKeeper
	stopTicks    chan struct{}
	ticksStopped chan struct{}
}

// watch begins following info's request: ctx carries its listeners.
func (r *Runner) watch(ctx context.Context, info Info) (context.Context, *watch) {
	w := &watch{r: r, info: info, sent: time.Now(), stopTicks: make(chan struct{}), ticksStopped: make(chan struct{})}
	w.keeper, _ = r.journal.(ArrivalKeeper)
	ctx = api.WithOnWait(ctx, func(d time.Duration) {
		w.mu.Lock()
		w.retryAt = time.Now().Add(d)
		w.mu.Unlock()
	})
	ctx = api.WithOnUpload(ctx, w.upload)
	go w.tick()
	return ctx, w
}

// upload shows an upload's progress: the card's while it goes; the
// ticks say the wait once it is all sent.
func (w *watch) upload(u api.Upload) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.uploading = !u.Done()
	if u.Done() {
		w.sent = time.Now()
		w.r.reached(w.info.ID)
	}
	w.r.emit(Event{Job: w.info, State: Sending, Upload: &u})
}

// tick reports the wait every tick of the runner until stop.
func (w *watch) tick() {
	defer close(w.ticksStopped)
	t := time.NewTicker(w.r.tick)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			w.mu.Lock()
			if !w.uploading {
				w.r.emit(Event{Job: w.info, State: Waiting, RetryIn: max(0, time.Until(w.retryAt))})
			}
			w.mu.Unlock()
		case <-w.stopTicks:
			return
		}
	}
}

// partial shows a preview or an arrived image; an arrived one is on
// disk before the card says it arrived.
func (w *watch) partial(p api.Partial) {
	if p.Final && w.keeper != nil {
		w.r.keepArrived(w.keeper, w.info, p)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.previews++
	w.r.emit(Event{Job: w.info, State: Partial, Preview: &p})
}

// stop ends the ticks, once the request is back.
func (w *watch) stop() {
	close(w.stopTicks)
	<-w.ticksStopped
}

// ending is how the request ended, for the billing table.
func (w *watch) ending(err error, cancelled bool) gateway.Ending {
	w.mu.Lock()
	defer w.mu.Unlock()
	return gateway.Ending{Err: err, Cancelled: cancelled, Arrived: w.previews > 0, Out: time.Since(w.sent), Unsent: w.uploading}
}
