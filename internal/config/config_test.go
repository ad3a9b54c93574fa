package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
)

func newStore(t *testing.T) *Store {
	t.Helper()
	return Open(filepath.Join(t.TempDir(), "easel", "profiles.json"))
}

func TestRoundTrip(t *testing.T) {
	s := newStore(t)
	if f, err := s.Load(); err != nil || len(f.Profiles) != 0 {
		t.Fatalf("missing file: %+v, %v; want empty, nil", f, err)
	}
	want := Profile{ID: NewID(), Name: "Studio gateway", BaseURL: "https://gw.example/v1", ChatModel: "gpt-4.1",
		ImageModel: "gpt-image-1", Image: ImageDefaults{Size: "1536x1024", Quality: "high", OutputFormat: "webp", Stream: new(true)},
		TimeoutSeconds: 300, MaxJobs: 2}
	if _, err := s.Update(func(f *File) error { f.Active = want.ID; return f.Put(want) }); err != nil {
		t.Fatal(err)
	}
	got, err := Open(s.Path()).Load()
	if err != nil {
		t.Fatal(err)
	}
	p, ok := got.ActiveProfile()
	if !ok || !reflect.DeepEqual(p, want) {
		t.Fatalf("read back %+v (active %v), want %+v", p, ok, want)
	}
	if err := private(s.Path()); err != nil {
		t.Fatal(err)
	}
}

func TestPutRejectsDuplicateNamesAndBadFields(t *testing.T) {
	var f File
	if err := f.Put(Profile{ID: "a", Name: "Work", BaseURL: DefaultBaseURL}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		p    Profile
		want string
	}{
		{Profile{ID: "b", Name: "work", BaseURL: DefaultBaseURL}, "already exists"},
		{Profile{ID: "b", Name: " ", BaseURL: DefaultBaseURL}, "name"},
		{Profile{ID: "b", Name: "B", BaseURL: "ftp://x"}, "base URL"},
		{Profile{ID: "b", Name: "B", BaseURL: "api.openai.com"}, "base URL"},
		{Profile{ID: "b", Name: "B", BaseURL: DefaultBaseURL, MaxJobs: 11}, "jobs at once"},
		{Profile{ID: "b", Name: "B", BaseURL: DefaultBaseURL, TimeoutSeconds: -1}, "time-out"},
		{Profile{ID: EnvironmentID, Name: "B", BaseURL: DefaultBaseURL}, "no id"},
	} {
		if err := f.Put(c.p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Put(%+v) = %v, want an error about %q", c.p, err, c.want)
		}
	}
	// Renaming a profile to its own name in another case is fine.
	if err := f.Put(Profile{ID: "a", Name: "WORK", BaseURL: DefaultBaseURL}); err != nil {
		t.Errorf("renaming in place: %v", err)
	}
}

func TestRemoveClearsActive(t *testing.T) {
	f := File{Active: "a", Profiles: []Profile{{ID: "a", Name: "A"}, {ID: "b", Name: "B"}}}
	if p, ok := f.Remove("a"); !ok || p.ID != "a" || f.Active != "" || len(f.Profiles) != 1 {
		t.Fatalf("Remove: %+v %v, file %+v", p, ok, f)
	}
	if _, ok := f.Remove("nope"); ok {
		t.Fatal("removed a profile that does not exist")
	}
}

// Writers in separate stores (as the window and a CLI command are) each
// see the others' changes: no profile is lost.
func TestConcurrentWritersLoseNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "profiles.json")
	const writers = 12
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := Open(path).Update(func(f *File) error {
				return f.Put(Profile{ID: NewID(), Name: fmt.Sprintf("p%d", i), BaseURL: DefaultBaseURL})
			})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	f, err := Open(path).Load()
	if err != nil || len(f.Profiles) != writers {
		t.Fatalf("%d profiles, %v; want %d", len(f.Profiles), err, writers)
	}
}

// A file that is not JSON is left as it is by reads; Easel starts with
// no profiles, and only the first write moves it aside, where it can be
// recovered by hand.
func TestAnUnreadableFileIsMovedOnlyByAWrite(t *testing.T) {
	for name, content := range map[string]string{
		"truncated": `{"active":"a","profiles":[{"id":"a","na`,
		"not json":  "\x00\x01binary",
		"a list":    `[1, 2]`,
	} {
		t.Run(name, func(t *testing.T) {
			s := newStore(t)
			os.MkdirAll(filepath.Dir(s.Path()), 0o700)
			os.WriteFile(s.Path(), []byte(content), 0o600)
			for i := 0; i < 2; i++ {
				f, err := s.Load()
				var ce *CorruptError
				if !errors.As(err, &ce) || len(f.Profiles) != 0 || ce.MovedTo != "" {
					t.Fatalf("Load = %+v, %v; want empty and a CorruptError", f, err)
				}
				if kept, _ := os.ReadFile(s.Path()); string(kept) != content {
					t.Fatal("a read changed or moved the file")
				}
			}
			if _, err := s.Update(func(f *File) error {
				return f.Put(Profile{ID: "n", Name: "New", BaseURL: DefaultBaseURL})
			}); err != nil {
				t.Fatal(err)
			}
			aside, _ := filepath.Glob(s.Path() + ".corrupt-*")
			if len(aside) != 1 {
				t.Fatalf("the unreadable file was not moved aside before the write: %v", aside)
			}
			if kept, _ := os.ReadFile(aside[0]); string(kept) != content {
				t.Fatalf("the file moved aside holds %q", kept)
			}
			if f, err := s.Load(); err != nil || len(f.Profiles) != 1 {
				t.Fatalf("after saving: %+v, %v", f, err)
			}
		})
	}
}

// A bad value costs that value, a profile Easel cannot use is set aside
// (and written back as it was), and the rest of the file is used: one
// out-of-range max_jobs used to cost every profile.
func TestABadValueCostsThatValueNotTheFile(t *testing.T) {
	s := newStore(t)
	os.MkdirAll(filepath.Dir(s.Path()), 0o700)
	content := `{"active":"w","profiles":[
		{"id":"w","name":"Work","base_url":"https://gw.example/v1","max_jobs":12,"image_model":"gpt-image-1"},
		{"id":"h","name":"Home","base_url":"https://api.openai.com/v1","request_timeout_seconds":"soon"},
		{"id":"x","name":"Broken","base_url":"nowhere"}]}`
	os.WriteFile(s.Path(), []byte(content), 0o600)
	f, err := s.Load()
	var pe *ProblemsError
	if !errors.As(err, &pe) || len(pe.Problems) != 3 {
		t.Fatalf("Load error %v; want three problems", err)
	}
	for _, want := range []string{`"Work": jobs at once 12 is outside 1–10`, `"Home": request_timeout_seconds "soon" cannot be read`, `"Broken" was set aside`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
	if kept, _ := os.ReadFile(s.Path()); string(kept) != content {
		t.Fatal("a read changed the file")
	}
	work, ok := f.Find("Work")
	if !ok || work.MaxJobs != 0 || work.ImageModel != "gpt-image-1" || f.Active != "w" {
		t.Errorf("Work read as %+v (active %q)", work, f.Active)
	}
	if home, ok := f.Find("Home"); !ok || home.TimeoutSeconds != 0 {
		t.Errorf("Home read as %+v", home)
	}
	if _, ok := f.Find("Broken"); ok {
		t.Error("an unusable profile is offered")
	}
	if _, err := s.Update(func(f *File) error { return f.Put(Profile{ID: "n", Name: "New", BaseURL: DefaultBaseURL}) }); err != nil {
		t.Fatal(err)
	}
	written, _ := os.ReadFile(s.Path())
	if !strings.Contains(string(written), `"nowhere"`) {
		t.Errorf("the unusable profile was dropped by a write:\n%s", written)
	}
}

// Fields this Easel does not know in a file of its own version (written
// by a later build of the same format) survive its writes, and the
// version is kept. A file of a newer format is not written at all
// (TestANewerProfilesFileIsLeftAsItIs).
func TestUnknownFieldsSurviveAWrite(t *testing.T) {
	s := newStore(t)
	os.MkdirAll(filepath.Dir(s.Path()), 0o700)
	os.WriteFile(s.Path(), []byte(`{"version":1,"theme":{"accent":"teal"},"profiles":[
		{"id":"w","name":"Work","base_url":"https://gw.example/v1","org_id":"org-42","chat_presets":["terse"]}]}`), 0o600)
	if _, err := s.Update(func(f *File) error {
		p, _ := f.Find("Work")
		p.ChatModel = "gpt-5"
		if err := f.Put(p); err != nil {
			return err
		}
		return f.Put(Profile{ID: "n", Name: "New", BaseURL: DefaultBaseURL})
	}); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Version  int
		Theme    map[string]string
		Profiles []map[string]any
	}
	data, _ := os.ReadFile(s.Path())
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.Version != 1 || back.Theme["accent"] != "teal" || len(back.Profiles) != 2 ||
		back.Profiles[0]["org_id"] != "org-42" || back.Profiles[0]["chat_model"] != "gpt-5" || back.Profiles[0]["chat_presets"] == nil {
		t.Errorf("after a write:\n%s", data)
	}
}

// A file from before versions is upgraded by being read and written, not
// moved aside.
func TestAFileWithoutAVersionIsUpgraded(t *testing.T) {
	s := newStore(t)
	os.MkdirAll(filepath.Dir(s.Path()), 0o700)
	os.WriteFile(s.Path(), []byte(`{"active":"w","profiles":[{"id":"w","name":"Work","base_url":"https://gw.example/v1"}]}`), 0o600)
	f, err := s.Update(func(f *File) error { return nil })
	if err != nil || f.Version != FileVersion || len(f.Profiles) != 1 || f.Active != "w" {
		t.Fatalf("%+v, %v", f, err)
	}
	if aside, _ := filepath.Glob(s.Path() + ".*"); len(aside) > 1 { // the lock file only
		t.Errorf("files beside it: %v", aside)
	}
	data, _ := os.ReadFile(s.Path())
	if !strings.Contains(string(data), `"version": 1`) {
		t.Errorf("written without its version:\n%s", data)
	}
}

func TestSendsKeyInClear(t *testing.T) {
	for url, want := range map[string]bool{
		"https://api.openai.com/v1":    false,
		"http://localhost:11434/v1":    false,
		"http://LOCALHOST/v1":          false,
		"http://127.0.0.1:1234/v1":     false,
		"http://127.9.9.9/v1":          false,
		"http://[::1]:8080/v1":         false,
		"http://gateway.local:3000/v1": true,
		"http://192.168.1.20:8080/v1":  true,
		"http://api.example.com/v1":    true,
	} {
		if got := SendsKeyInClear(url); got != want {
			t.Errorf("SendsKeyInClear(%s) = %v, want %v", url, got, want)
		}
	}
	p := Profile{BaseURL: "http://192.168.1.20:8080/v1"}
	if !p.NeedsPlainHTTPConsent("sk-x") || p.NeedsPlainHTTPConsent("") {
		t.Error("consent is needed for a key, and only for a key")
	}
	p.PlainHTTPConfirmed = true
	if p.NeedsPlainHTTPConsent("sk-x") {
		t.Error("consent asked again after it was given")
	}
}

func TestEnvironmentProfile(t *testing.T) {
	env := map[string]string{}
	get := func(k string) string { return env[k] }
	if _, _, ok := Environment(get); ok {
		t.Fatal("an Environment profile with nothing set")
	}
	env["OPENAI_API_KEY"] = "sk-env"
	p, key, ok := Environment(get)
	if !ok || !p.ReadOnly || p.ID != EnvironmentID || p.BaseURL != DefaultBaseURL || key != "sk-env" {
		t.Fatalf("Environment = %+v %q %v", p, key, ok)
	}
}

// A profile's keys per account group: its own key stays under its id (as
// before groups existed), each further group's under id/group; the group
// in use falls back to the own key when it is not one of the profile's.
func TestProfileGroupsAndTheirKeyAccounts(t *testing.T) {
	p := Profile{ID: "p-1", Name: "Gateway", BaseURL: DefaultBaseURL, Group: "default", Groups: []string{"vip", "svip"}}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	for group, want := range map[string]string{"": "p-1", "default": "p-1", "vip": "p-1/vip", "gold": "p-1"} {
		if got := p.KeyAccount(group); got != want {
			t.Errorf("KeyAccount(%q) = %q, want %q", group, got, want)
		}
	}
	if p.UsingGroup() != "default" || p.ActiveAccount() != "p-1" {
		t.Errorf("own key in use: %q %q", p.UsingGroup(), p.ActiveAccount())
	}
	p.ActiveGroup = "svip"
	if p.UsingGroup() != "svip" || p.ActiveAccount() != "p-1/svip" {
		t.Errorf("svip in use: %q %q", p.UsingGroup(), p.ActiveAccount())
	}
	p.ActiveGroup = "gone"
	if p.UsingGroup() != "default" {
		t.Errorf("a group no longer listed: %q", p.UsingGroup())
	}
	for _, bad := range [][]string{{"vip", "VIP"}, {"a/b"}, {" "}, {"default"}} {
		q := p
		q.Groups = bad
		if q.Validate() == nil {
			t.Errorf("groups %q accepted", bad)
		}
	}
}

// A profiles file from a newer Easel is read as far as this one
// understands it and never rewritten: a field nested in one this Easel
// knows (budget.weekly) would be lost.
func TestANewerProfilesFileIsLeftAsItIs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "profiles.json")
	newer := `{"version": 2, "active": "p-1", "profiles": [{"id": "p-1", "name": "Studio", "base_url": "https://gateway.example.com/v1", "budget": {"daily": 2, "weekly": 9}}]}` + "\n"
	if err := os.WriteFile(path, []byte(newer), 0o600); err != nil {
		t.Fatal(err)
	}
	s := Open(path)
	f, err := s.Load()
	if err != nil || len(f.Profiles) != 1 || f.Profiles[0].Budget.Daily != 2 {
		t.Fatalf("read %+v %v", f, err)
	}
	_, err = s.Update(func(f *File) error { f.Active = ""; return nil })
	var newerErr *NewerError
	if !errors.As(err, &newerErr) || newerErr.Found != 2 {
		t.Errorf("update: %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != newer {
		t.Errorf("the file was rewritten: %s", data)
	}
}

// #53: a hand-edited profile whose prices are absurd (a rate of 1e308, a
// currency holding a terminal escape) is read with its list prices
// instead, and the reading says why; the profile is kept.
func TestAbsurdProfilePricesAreNotUsed(t *testing.T) {
	s := newStore(t)
	if err := os.MkdirAll(filepath.Dir(s.Path()), 0o700); err != nil {
		t.Fatal(err)
	}
	data := `{"version":1,"active":"p","profiles":[{"id":"p","name":"Relay","base_url":"https://relay.example/v1","prices":{"currency":"\u001b[31m$","group_rate":1e308}}]}`
	if err := os.WriteFile(s.Path(), []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := s.Load()
	var problems *ProblemsError
	if !errors.As(err, &problems) || !strings.Contains(err.Error(), "list prices are used instead") {
		t.Fatalf("Load: %v", err)
	}
	p, ok := f.Find("p")
	if !ok || p.Name != "Relay" || p.Prices.GroupRate != 0 || p.Prices.Currency != "" {
		t.Errorf("profile read as %+v", p)
	}
}
