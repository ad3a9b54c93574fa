//go:build linux

// The benchmark reads the child's peak memory from rusage's Maxrss,
// which only Linux reports in kilobytes; elsewhere it is a Linux figure.

package cli

import (
	"bufio"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"easel/internal/testsupport/hostile"
)

// TestHelperCLI is not a test: the memory benchmark runs the test binary
// with EASEL_CLI_ARGS set, and this runs the command line with them, so
// each answer is measured in a process of its own.
func TestHelperCLI(t *testing.T) {
	raw := os.Getenv("EASEL_CLI_ARGS")
	if raw == "" {
		t.Skip("helper process for BenchmarkHostileAnswersPeakRSS")
	}
	var args []string
	if err := json.Unmarshal([]byte(raw), &args); err != nil {
		os.Exit(3)
	}
	os.Exit(Run(args, OSEnv()))
}

// memoryCases are answers that once cost a multiple of their size, or
// more: each is streamed by the server as it is written, so only the
// command line's memory grows.
var memoryCases = []struct {
	name string
	args []string
	// limitMB is the goal for the child's peak resident memory.
	limitMB int64
	serve   func(w http.ResponseWriter)
}{
	{"many-small-images-256MB", []string{"gen", "--prompt", "x", "--n", "1"}, 600, func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		item := `{"b64_json":"` + base64.StdEncoding.EncodeToString(hostile.TinyPNG()) + `"},`
		bw := bufio.NewWriterSize(w, 1<<20)
		bw.WriteString(`{"created":1700000000,"data":[`)
		for n := 0; n < (250<<20)/len(item); n++ {
			bw.WriteString(item)
		}
		bw.WriteString(item[:len(item)-1] + `]}`)
		bw.Flush()
	}},
	{"100k-tiny-images", []string{"gen", "--prompt", "x", "--n", "1"}, 600, func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		item := `{"b64_json":"` + base64.StdEncoding.EncodeToString(hostile.TinyPNG()) + `"}`
		bw := bufio.NewWriterSize(w, 1<<20)
		bw.WriteString(`{"created":1700000000,"data":[` + item)
		for range 100_000 {
			bw.WriteString("," + item)
		}
		bw.WriteString(`]}`)
		bw.Flush()
	}},
	{"one-250MB-SSE-line", []string{"gen", "--prompt", "x", "--stream", "--partial-images", "1"}, 600, func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "text/event-stream")
		bw := bufio.NewWriterSize(w, 1<<20)
		bw.WriteString(`data: {"type":"image_generation.partial_image","b64_json":"`)
		chunk := strings.Repeat("A", 1<<20)
		for range 250 {
			bw.WriteString(chunk)
		}
		bw.WriteString("\"}\n\n")
		bw.Flush()
	}},
	{"gzip-1GB-inflated", []string{"gen", "--prompt", "x"}, 600, func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Encoding", "gzip")
		gz, _ := gzip.NewWriterLevel(w, gzip.BestSpeed)
		gz.Write([]byte(`{"created":1700000000,"data":[{"b64_json":"`))
		chunk := []byte(strings.Repeat("A", 1<<20))
		for range 1024 {
			if _, err := gz.Write(chunk); err != nil {
				return
			}
		}
		gz.Write([]byte(`"}]}`))
		gz.Close()
	}},
	{"chat-1GB", []string{"chat", "--no-stream", "--model", "m", "hi"}, 600, func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		bw := bufio.NewWriterSize(w, 1<<20)
		bw.WriteString(`{"choices":[{"message":{"content":"`)
		chunk := strings.Repeat("A", 1<<20)
		for range 1024 {
			if _, err := bw.WriteString(chunk); err != nil {
				return
			}
		}
		bw.WriteString(`"}}]}`)
		bw.Flush()
	}},
	{"model-list-1GB", []string{"models"}, 100, func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		bw := bufio.NewWriterSize(w, 1<<20)
		bw.WriteString(`{"data":[`)
		item := `{"id":"` + strings.Repeat("m", 1000) + `"},`
		for range 1 << 20 {
			if _, err := bw.WriteString(item); err != nil {
				return
			}
		}
		bw.WriteString(`{"id":"x"}]}`)
		bw.Flush()
	}},
	{"endless-image-link", []string{"gen", "--model", "dall-e-3", "--prompt", "x"}, 600, nil},
	{"endless-small-entries", []string{"gen", "--prompt", "x", "--n", "1"}, 600, func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		bw := bufio.NewWriterSize(w, 1<<20)
		bw.WriteString(`{"created":1700000000,"data":[{"b64_json":"` + base64.StdEncoding.EncodeToString(hostile.TinyPNG()) + `"}`)
		for {
			if _, err := bw.WriteString(`,{"url":"x","revised_prompt":"y"}`); err != nil {
				return
			}
		}
	}},
	{"refused-2GB-content-length", []string{"gen", "--prompt", "x"}, 100, func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(2<<30))
		w.WriteHeader(http.StatusOK)
		w.Write([]byte(`{"data":[`))
	}},
}

// BenchmarkHostileAnswersPeakRSS runs the command line as a child
// process against each answer and reports its peak resident memory
// (rusage) beside the goal: at most 600 MB for any answer, under 100 MB
// for one refused early.
func BenchmarkHostileAnswersPeakRSS(b *testing.B) {
	for _, mc := range memoryCases {
		b.Run(mc.name, func(b *testing.B) {
			var ts *httptest.Server
			ts = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if mc.serve != nil {
					mc.serve(w)
					return
				}
				endlessLink(ts.URL, w, r)
			}))
			defer ts.Close()
			var peak int64
			var last string
			for range b.N {
				args, _ := json.Marshal(mc.args)
				cmd := exec.Command(os.Args[0], "-test.run=^TestHelperCLI$")
				home := b.TempDir()
				cmd.Env = append(os.Environ(), "EASEL_CLI_ARGS="+string(args), "OPENAI_BASE_URL="+ts.URL+"/v1", "OPENAI_API_KEY=sk-memory",
					"HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "config"))
				cmd.Dir = home
				out, _ := cmd.CombinedOutput()
				ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
				if !ok {
					b.Skip("no rusage on this system")
				}
				peak = max(peak, ru.Maxrss>>10) // kilobytes on Linux
				if code := cmd.ProcessState.ExitCode(); code > 1 {
					b.Fatalf("exit %d: %s", code, out)
				}
				last = firstLine(out)
			}
			b.Logf("%s: peak %d MB (goal %d MB); %s", mc.name, peak, mc.limitMB, last)
			if peak > mc.limitMB {
				b.Errorf("%s: peak %d MB, over the %d MB goal", mc.name, peak, mc.limitMB)
			}
			b.ReportMetric(float64(peak), "peak-MB")
			b.ReportMetric(float64(mc.limitMB), "goal-MB")
		})
	}
}

// endlessLink answers with a link to an image that never ends: a PNG
// header, then bytes forever.
func endlessLink(base string, w http.ResponseWriter, r *http.Request) {
	if !strings.HasSuffix(r.URL.Path, "/endless.png") {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"created":1700000000,"data":[{"url":%q}]}`, base+"/endless.png")
		return
	}
	w.Header().Set("Content-Type", "image/png")
	bw := bufio.NewWriterSize(w, 1<<20)
	bw.Write(hostile.TinyPNG()[:33])
	chunk := []byte(strings.Repeat("\x00", 1<<20))
	for {
		if _, err := bw.Write(chunk); err != nil {
			return
		}
	}
}

func firstLine(out []byte) string {
	s, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return fmt.Sprint(s)
}
