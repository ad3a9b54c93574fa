package instance

import (
	"reflect"
	"sync"
	"testing"
)

func claim(t *testing.T, dir string, files ...string) (*Server, bool) {
	t.Helper()
	srv, handed, err := Claim(dir, Message{Files: files})
	if err != nil {
		t.Fatal(err)
	}
	if srv != nil {
		t.Cleanup(srv.Close)
	}
	return srv, handed
}

// A second start hands its files to the first and is told to exit; a
// start on another data folder gets its own window.
func TestASecondStartHandsItsFilesToTheFirst(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	data := t.TempDir()
	first, handed := claim(t, data)
	if first == nil || handed {
		t.Fatal("the first start did not become the window")
	}
	got := make(chan Message, 1)
	first.Serve(func(m Message) { got <- m })
	if srv, handed := claim(t, data, "/tmp/a.png", "/tmp/b.jpg"); srv != nil || !handed {
		t.Fatal("the second start did not hand over")
	}
	if m := <-got; !reflect.DeepEqual(m.Files, []string{"/tmp/a.png", "/tmp/b.jpg"}) {
		t.Errorf("the window got %v", m.Files)
	}
	if other, handed := claim(t, t.TempDir()); other == nil || handed {
		t.Error("another data folder did not get its own window")
	}
	if err := private(first.Path()); err != nil {
		t.Errorf("the endpoint is open to others: %v", err)
	}
}

// Starts at the same moment agree on one window.
func TestStartsAtOnceAgreeOnOneWindow(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	data := t.TempDir()
	var mu sync.Mutex
	var servers []*Server
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			srv, _, err := Claim(data, Message{})
			if err != nil {
				t.Error(err)
				return
			}
			if srv != nil {
				srv.Serve(func(Message) {})
				mu.Lock()
				servers = append(servers, srv)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for _, s := range servers {
		s.Close()
	}
	if len(servers) != 1 {
		t.Errorf("%d windows for one data folder, want 1", len(servers))
	}
}
