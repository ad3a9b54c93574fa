package cli

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"testing"

	"easel/internal/demoservice"
)

// #59: `easel gen --json` prints one JSON document a script parses for
// the files written and what each request cost; nothing else is on
// stdout.
func TestGenJSONNamesTheFilesAndTheCost(t *testing.T) {
	ts := httptest.NewServer(demoservice.New(demoservice.Config{Key: "sk-cli-test-key-123456"}))
	defer ts.Close()
	env, out, errOut := testEnv(t, ts.URL+"/v1")
	env.Library = t.TempDir()
	dir := t.TempDir()
	if code := Run([]string{"gen", "--prompt", "a fox", "--n", "2", "--quality", "low", "--size", "1024x1024", "--json", "--out", dir}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Version  int  `json:"easel_json"`
		OK       bool `json:"ok"`
		Files    []struct{ Path, Kind, Job string }
		Requests []struct {
			Job, State, Billed string
			Cost               *struct {
				Amount           float64
				Currency, Source string
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("stdout is not one JSON document (%v): %s", err, out)
	}
	if doc.Version != JSONVersion || !doc.OK || len(doc.Files) != 2 || len(doc.Requests) != 1 {
		t.Fatalf("document: %s", out)
	}
	for _, f := range doc.Files {
		if _, err := os.Stat(f.Path); err != nil || f.Kind != "image" || f.Job != doc.Requests[0].Job {
			t.Errorf("file %+v: %v", f, err)
		}
	}
	if r := doc.Requests[0]; r.State != "done" || r.Billed != "billed" || r.Cost == nil || r.Cost.Amount <= 0 || r.Cost.Currency == "" || r.Cost.Source != "answer" {
		t.Errorf("request: %+v", r)
	}
}

// A failure is a document too: ok false, the error's kind, words and
// hint, and the exit status as without --json.
func TestGenJSONSaysTheError(t *testing.T) {
	ts := httptest.NewServer(demoservice.New(demoservice.Config{Key: "sk-cli-test-key-123456"}))
	defer ts.Close()
	env, out, _ := testEnv(t, ts.URL+"/v1")
	env.Library = t.TempDir()
	if code := Run([]string{"gen", "--model", "fault-no-balance", "--prompt", "a fox", "--json", "--out", t.TempDir()}, env); code != 1 {
		t.Fatalf("exit %d", code)
	}
	var doc struct {
		OK    bool
		Error *struct{ Kind, Message, Hint string }
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || doc.OK || doc.Error == nil || doc.Error.Kind == "" || doc.Error.Hint == "" {
		t.Errorf("document (%v): %s", err, out)
	}
}
