// Package demochild runs the demo service in a child process for a
// benchmark, as a real service would be: in the benchmark's own process
// its work (parsing an 830 MB upload, decoding sixteen pictures) took
// the cores from what was measured, and a child's rusage peak starts
// from its parent's memory at the fork.
package demochild

import (
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"testing"
	"time"

	"easel/internal/demoservice"
)

// envAddr tells the test binary started as the child where to listen.
const envAddr = "EASEL_DEMO_CHILD_ADDR"

// Serve is the body of the helper test a package names to Start: in the
// child it serves the demo service until killed; elsewhere it skips.
func Serve(t *testing.T) {
	addr := os.Getenv(envAddr)
	if addr == "" {
		t.Skip("helper process for demochild.Start")
	}
	if _, err := demoservice.New(demoservice.Config{}).Listen(context.Background(), addr); err != nil {
		os.Exit(3)
	}
	select {}
}

// Start runs the test binary's helper test (which calls Serve) as a
// child, and returns the demo service's base URL once it answers; the
// child is killed when tb ends.
func Start(tb testing.TB, helper string) string {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^"+helper+"$")
	cmd.Env = append(os.Environ(), envAddr+"="+addr, "HOME="+tb.TempDir())
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	base := "http://" + addr + "/v1"
	for range 100 {
		if resp, err := http.Get(base + "/models"); err == nil {
			resp.Body.Close()
			return base
		}
		time.Sleep(50 * time.Millisecond)
	}
	tb.Fatal("the demo service did not start")
	return ""
}
