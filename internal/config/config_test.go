package config

import (
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
	st, err := os.Stat(s.Path())
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("file mode %v, %v; want 0600", st.Mode().Perm(), err)
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

func TestCorruptFileIsMovedAsideAndStartsEmpty(t *testing.T) {
	for name, content := range map[string]string{
		"truncated":  `{"active":"a","profiles":[{"id":"a","na`,
		"not json":   "\x00\x01binary",
		"bad values": `{"profiles":[{"id":"a","name":"A","base_url":"nowhere"}]}`,
		"dup ids":    `{"profiles":[{"id":"a","name":"A","base_url":"http://x/v1"},{"id":"a","name":"B","base_url":"http://x/v1"}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			s := newStore(t)
			os.MkdirAll(filepath.Dir(s.Path()), 0o700)
			os.WriteFile(s.Path(), []byte(content), 0o600)
			f, err := s.Load()
			var ce *CorruptError
			if !errors.As(err, &ce) || len(f.Profiles) != 0 {
				t.Fatalf("Load = %+v, %v; want empty and a CorruptError", f, err)
			}
			kept, rerr := os.ReadFile(ce.MovedTo)
			if rerr != nil || string(kept) != content {
				t.Fatalf("the broken file was not kept at %s: %v", ce.MovedTo, rerr)
			}
			if !strings.Contains(err.Error(), ce.MovedTo) {
				t.Errorf("message %q does not say where the file went", err)
			}
			// The app goes on: a new profile saves over the empty state.
			if _, err := s.Update(func(f *File) error {
				return f.Put(Profile{ID: "n", Name: "New", BaseURL: DefaultBaseURL})
			}); err != nil {
				t.Fatal(err)
			}
			if f, err := s.Load(); err != nil || len(f.Profiles) != 1 {
				t.Fatalf("after saving: %+v, %v", f, err)
			}
		})
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
