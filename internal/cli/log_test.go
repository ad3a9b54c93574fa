package cli

import (
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"easel/internal/applog"
	"easel/internal/demoservice"
)

// #58: a request the service refused leaves one warn line in the log,
// with its status and request id and without the key, for an image and
// for a chat alike: "send me your log" after a failed generation has
// something to send.
func TestARefusedRequestLeavesOneWarnLineInTheLog(t *testing.T) {
	dir := t.TempDir()
	c, err := applog.Open(dir, slog.LevelWarn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close(); applog.Discard() })
	srv := demoservice.New(demoservice.Config{Key: "sk-cli-test-key-123456"})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	env, _, errOut := testEnv(t, ts.URL+"/v1")
	env.Library = filepath.Join(t.TempDir(), "library")
	if code := Run([]string{"gen", "--prompt", "a fox", "--model", "fault-" + demoservice.FaultNoAccess, "--out", t.TempDir()}, env); code == 0 {
		t.Fatalf("a refused generation exited 0: %s", errOut)
	}
	if code := Run([]string{"chat", "--model", "fault-" + demoservice.FaultNoAccess, "hello"}, env); code == 0 {
		t.Fatalf("a refused chat exited 0: %s", errOut)
	}
	data, err := os.ReadFile(filepath.Join(dir, applog.Name))
	if err != nil {
		t.Fatal(err)
	}
	log := string(data)
	for _, what := range []string{"request failed", "chat failed"} {
		var lines []string
		for _, l := range strings.Split(log, "\n") {
			if strings.Contains(l, "msg=\""+what+"\"") {
				lines = append(lines, l)
			}
		}
		if len(lines) != 1 || !strings.Contains(lines[0], "level=WARN") || !strings.Contains(lines[0], "status=403") || !strings.Contains(lines[0], "request_id=req_fake_") {
			t.Errorf("%s: want one warn line with status and request id, got %q\nthe log:\n%s", what, lines, log)
		}
	}
	if strings.Contains(log, "sk-cli-test-key") || strings.Contains(log, "test-key-123456") {
		t.Errorf("the key is in the log:\n%s", log)
	}
}
