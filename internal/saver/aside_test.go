package saver

import (
	"bytes"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"easel/internal/api"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/testsupport/hostile"
)

// Bytes the service sent that are no picture are kept beside the
// gallery, and the failed job says where.
func TestUnreadableBytesAreKeptAndSaid(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lib")
	lib, err := library.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	ts := httptest.NewServer(hostile.Server{Key: "sk-x"})
	defer ts.Close()
	events := make(chan jobs.Event, 16)
	r := jobs.New(api.New(api.Config{BaseURL: ts.URL + "/v1", APIKey: "sk-x"}), Library{Lib: lib}, func(e jobs.Event) { events <- e }, jobs.Options{})
	if _, err := r.Submit(jobs.Request{Profile: "p", Generate: &api.GenerateRequest{Prompt: "x", ImageOptions: api.ImageOptions{Model: hostile.NotAnImage}}}); err != nil {
		t.Fatal(err)
	}
	r.Wait()
	close(events)
	var last jobs.Event
	for e := range events {
		last = e
	}
	if last.State != jobs.Failed || len(last.Aside) != 1 {
		t.Fatalf("the job ended %v, aside %v", last.State, last.Aside)
	}
	path := last.Aside[0]
	data, err := os.ReadFile(path)
	if err != nil || !bytes.HasPrefix(data, []byte("%PDF")) || !strings.HasPrefix(path, filepath.Join(dir, "unreadable")) {
		t.Errorf("kept at %s: %q, %v", path, data, err)
	}
}
