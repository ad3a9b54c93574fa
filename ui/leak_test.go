package ui

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"log"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"easel/internal/api"
	"easel/internal/demoservice"
	"easel/internal/jobs"
	"easel/internal/secrets"
	"easel/internal/secrets/secretstest"
	"easel/ui/chrome"
	"easel/ui/kit"
)

// TestKeyNeverLeaks runs a whole session — set the key in the first-run
// dialog, generate, fail with every fault the fake service has, quit —
// and then looks for the key, or any 8-character run of it, in every file
// under the config and data folders, in the log and in every error text.
func TestKeyNeverLeaks(t *testing.T) {
	const key = "sk-leak-7Gq2XbN4pLm9Rt5VwZ8cKd3F"
	var logs bytes.Buffer
	log.SetOutput(&logs)
	t.Cleanup(func() { log.SetOutput(os.Stderr) })

	srv := demoservice.New(demoservice.Config{Key: key, SlowFirstByte: 50 * time.Millisecond})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	dir := t.TempDir()
	configPath := filepath.Join(dir, "config", "easel", "profiles.json")
	opts := isolated(t, Options{ConfigPath: configPath, Keys: secrets.New(secretstest.NewMemory(), 0)})
	dataDir := os.Getenv("EASEL_HOME")
	ea := newApp(t, test.NewTempApp(t), opts)

	onUI(ea, func() {
		ea.firstRun.BaseURL.SetText(ts.URL + "/v1")
		test.Type(ea.firstRun.Key, key)
		tap(t, ea.win, "Save and connect")
	})
	waitFor(t, ea, "the connection", func() bool { return ea.session.Client() != nil && modelsKnown(ea) })
	onUI(ea, func() { ea.SelectTab(TabGenerate) })
	waitFor(t, ea, "the picker's list", func() bool { return len(ea.generate.Options().Model.Listed()) > 0 })

	var texts []string
	submit := func(model string, stream bool) {
		req := api.GenerateRequest{Prompt: "leak check " + model, ImageOptions: api.ImageOptions{Model: model, Size: "1024x1024", Stream: stream, PartialImages: 1}}
		if _, err := ea.runner.Submit(asGenerate(ea, jobs.Request{Profile: ea.session.Current().ID, Service: ea.session.Client(), Generate: &req})); err != nil {
			t.Fatal(err)
		}
	}
	submit("gpt-image-1", false)
	for _, f := range demoservice.Faults {
		submit("fault-"+f, f == demoservice.FaultCutStream || f == demoservice.FaultStreamError || f == demoservice.FaultJSONForStream)
	}
	ea.runner.Wait()
	// The same faults straight from the client, to read the whole error
	// (message, hint, raw answer), not only what a card shows.
	for _, f := range demoservice.Faults {
		_, err := ea.session.Client().Models(context.Background())
		_, gerr := ea.session.Client().Generate(context.Background(), api.GenerateRequest{Prompt: "x", ImageOptions: api.ImageOptions{Model: "fault-" + f}}, nil)
		for _, e := range []error{err, gerr} {
			if e != nil {
				texts = append(texts, e.Error(), kit.ErrorText(e))
				var ae *api.Error
				if errors.As(e, &ae) {
					texts = append(texts, ae.Line(), ae.Message, ae.Hint, ae.Code, ae.Param)
				}
			}
		}
	}
	onUI(ea, func() {
		for _, c := range ea.generate.Jobs().Cards() {
			texts = append(texts, c.Status.Text)
		}
		texts = append(texts, ea.generate.StatusText(), ea.status.bar.State(), ea.banner.Text(chrome.BannerKeyring), ea.win.Title())
	})
	if n := ea.generate.Jobs().Len(); n != len(demoservice.Faults)+1 {
		t.Fatalf("%d job cards, want %d", n, len(demoservice.Faults)+1)
	}
	onUI(ea, func() { ea.saveState(); ea.win.Close() })
	ea.lib.Close()

	runs := keyRuns(key)
	check := func(where, s string) {
		for _, r := range runs {
			if strings.Contains(s, r) {
				t.Errorf("%s holds %q, part of the key", where, r)
				return
			}
		}
	}
	for i, s := range texts {
		check("error text "+strconv.Itoa(i)+" ("+kit.Shorten(s, 60)+")", s)
	}
	check("the log", logs.String())
	files := 0
	for _, root := range []string{filepath.Dir(filepath.Dir(configPath)), dataDir} {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, rerr := os.ReadFile(p)
			if rerr != nil {
				t.Errorf("read %s: %v", p, rerr)
			}
			files++
			check(p, string(data))
			return nil
		})
	}
	if files < 3 {
		t.Fatalf("only %d files looked at: the session did not write what it should", files)
	}
}

// keyRuns is every 8-character run of key.
func keyRuns(key string) []string {
	var out []string
	for i := 0; i+8 <= len(key); i++ {
		out = append(out, key[i:i+8])
	}
	return out
}
