package cli

import (
	"bytes"
	"context"
	"image/color"
	"math"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"easel/internal/config"
	"easel/internal/demoservice"
	"easel/internal/gateway"
	"easel/internal/library"
	"easel/internal/secrets/secretstest"
	"easel/internal/testsupport/damaged"
	"easel/internal/testsupport/fixture"
)

// TestMain lets a test run this package's command line as a process of
// its own, to be killed: EASEL_CLI_CHILD=1 runs Run on the arguments.
func TestMain(m *testing.M) {
	if os.Getenv("EASEL_CLI_CHILD") == "1" {
		os.Exit(Run(os.Args[1:], OSEnv()))
	}
	os.Exit(m.Run())
}

// child is the command line run as a process of its own (TestMain), to
// be killed: its gallery and config under home, on the service at url
// with key.
func child(t *testing.T, home, url, key string, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), "EASEL_CLI_CHILD=1", "EASEL_HOME="+filepath.Join(home, "library"),
		"HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "config"), "OPENAI_BASE_URL="+url+"/v1", "OPENAI_API_KEY="+key)
	return cmd
}

// gatewayEnv is a profile on a demo gateway with one key of group.
func gatewayEnv(t *testing.T, srv *demoservice.Server, key, group string) (*Env, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	env, out, errOut := profileEnv(t, secretstest.NewMemory())
	env.Library = filepath.Join(t.TempDir(), "library")
	if code := run(t, env, "", "profile", "add", "--name", "Gateway", "--base-url", ts.URL+"/v1"); code != 0 {
		t.Fatalf("add: %s", errOut)
	}
	if code := run(t, env, key+"\n", "key", "set", "--group", group); code != 0 {
		t.Fatalf("key: %s", errOut)
	}
	return env, out, errOut
}

// Through new-api with a key of a group at ratio 0.5, five `easel gen`
// runs are written at what the gateway billed that key, to its unit (one
// quota unit, $0.000002), and --reconcile says the two agree.
func TestSpendIsWhatTheGatewayBilledTheKey(t *testing.T) {
	const key = "sk-half-rate-0123456789"
	srv := demoservice.New(demoservice.Config{Console: demoservice.ConsoleNewAPI, Groups: map[string]demoservice.Group{
		key: {Name: "half", Models: []string{"gpt-image-1", "gpt-image-1-mini"}, Ratio: 0.5},
	}})
	env, out, errOut := gatewayEnv(t, srv, key, "half")
	dir := t.TempDir()
	for i, q := range []string{"low", "medium", "high", "low", "medium"} {
		if code := run(t, env, "", "gen", "--prompt", "a lighthouse at dusk", "--quality", q, "--size", "1024x1536", "--out", dir); code != 0 {
			t.Fatalf("gen %d: %s", i, errOut)
		}
	}
	billed := float64(srv.BilledQuota(key)) / demoservice.QuotaPerUnit
	if billed == 0 {
		t.Fatal("the demo billed nothing")
	}
	lib, err := library.OpenWithoutRepair(env.Library)
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := lib.Ledger().Entries(context.Background(), time.Time{})
	lib.Close()
	sum := 0.0
	for _, e := range entries {
		if e.Source != library.SourceGateway || e.Group != "half" || e.Billing != "" {
			t.Errorf("entry %+v is not the gateway's figure for the key", e)
		}
		v, _ := e.Spent()
		sum += v
	}
	if len(entries) != 5 || math.Abs(sum-billed) > 1.0/demoservice.QuotaPerUnit {
		t.Errorf("the ledger says $%.6f in %d entries; the gateway billed $%.6f", sum, len(entries), billed)
	}
	listPrice := billed * 2 // the list prices, at ratio 1
	if math.Abs(sum-listPrice) < 0.01 {
		t.Errorf("written at the list price, not the group's")
	}
	if code := run(t, env, "", "spend", "--reconcile"); code != 0 || !strings.Contains(out.String(), "They agree.") {
		t.Errorf("reconcile: %q %q", out, errOut)
	}
	if code := run(t, env, "", "balance"); code != 0 || !strings.Contains(out.String(), `group rate ×0.5 (from the gateway's /api/pricing)`) {
		t.Errorf("balance: %q %q", out, errOut)
	}
}

// A key without a limit of its own reads as unlimited in `easel
// balance`, as in the status bar: never the gateway's $100,000,000.
func TestAnUnlimitedKeyShowsNoSixFigureBalance(t *testing.T) {
	for _, console := range []string{demoservice.ConsoleNewAPI, demoservice.ConsoleOneAPI} {
		t.Run(console, func(t *testing.T) {
			const key = "sk-unlimited-0123456789"
			srv := demoservice.New(demoservice.Config{Console: console, Groups: map[string]demoservice.Group{
				key: {Name: "default", Models: []string{"gpt-image-1"}},
			}})
			env, out, errOut := gatewayEnv(t, srv, key, "default")
			if code := run(t, env, "", "balance"); code != 0 {
				t.Fatalf("balance: %s", errOut)
			}
			said := out.String()
			if !strings.Contains(said, "Unlimited key") || regexp.MustCompile(`\d{3},\d{3}|\d{6}`).MatchString(said) {
				t.Errorf("balance says %q", said)
			}
		})
	}
	// A key with a limit shows what it has left, from the key's own
	// figure.
	const key = "sk-limited-0123456789"
	srv := demoservice.New(demoservice.Config{Console: demoservice.ConsoleNewAPI, Groups: map[string]demoservice.Group{
		key: {Name: "default", Models: []string{"gpt-image-1"}, Limit: 200000},
	}})
	env, out, errOut := gatewayEnv(t, srv, key, "default")
	if code := run(t, env, "", "balance"); code != 0 || !strings.Contains(out.String(), "Balance $0.40") || !strings.Contains(out.String(), "/api/usage/token/") {
		t.Errorf("a limited key: %q %q", out, errOut)
	}
}

// A key whose limit is spent (as its figure, read again after the first
// request settled it, says) is not sent to unless asked; sent anyway,
// new-api refuses it with 401 seconds after it worked: Easel says
// its quota may be used up, not "replace the key".
func TestAnExhaustedKeyIsSaidToBeExhausted(t *testing.T) {
	const key = "sk-small-0123456789"
	srv := demoservice.New(demoservice.Config{Console: demoservice.ConsoleNewAPI, Groups: map[string]demoservice.Group{
		key: {Name: "default", Models: []string{"gpt-image-1"}, Limit: 3000},
	}})
	env, _, errOut := gatewayEnv(t, srv, key, "default")
	dir := t.TempDir()
	if code := run(t, env, "", "gen", "--prompt", "a fox", "--quality", "low", "--size", "1024x1024", "--out", dir, "--over-budget"); code != 0 {
		t.Fatalf("first gen: %s", errOut)
	}
	if code := run(t, env, "", "gen", "--prompt", "a fox", "--quality", "low", "--size", "1024x1024", "--out", dir); code != 1 ||
		!strings.Contains(errOut.String(), "This key has $0.00 left by the gateway's own figure") {
		t.Errorf("over the key's own limit: %q", errOut)
	}
	if code := run(t, env, "", "gen", "--prompt", "a fox", "--quality", "low", "--size", "1024x1024", "--out", dir, "--over-budget"); code != 1 ||
		!strings.Contains(errOut.String(), "its quota may be used up") {
		t.Errorf("after the key's quota ran out: %q", errOut)
	}
}

// one-api cannot stream images: the first streamed gen fails with its
// billed 500, is written as billed, and is learnt; the second goes
// unstreamed, says why, and succeeds. An edit says the gateway takes no
// edits, not that gpt-image-1 is unknown.
func TestOneAPIStreamsAreLearntAndEditsRefused(t *testing.T) {
	const key = "sk-oneapi-0123456789"
	srv := demoservice.New(demoservice.Config{Console: demoservice.ConsoleOneAPI, Groups: map[string]demoservice.Group{
		key: {Name: "default", Models: []string{"gpt-image-1"}},
	}})
	env, _, errOut := gatewayEnv(t, srv, key, "default")
	on := true // streamed by default, as the window's form is
	if _, err := env.Profiles.Update(func(f *config.File) error { f.Profiles[0].Image.Stream = &on; return nil }); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if code := run(t, env, "", "gen", "--prompt", "a fox", "--out", dir); code != 1 {
		t.Fatalf("the streamed gen should fail: %s", errOut)
	}
	if code := run(t, env, "", "gen", "--prompt", "a fox", "--out", dir); code != 0 || !strings.Contains(errOut.String(), "cannot stream images") {
		t.Fatalf("the second gen: %d %q", code, errOut)
	}
	lib, err := library.OpenWithoutRepair(env.Library)
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := lib.Ledger().Entries(context.Background(), time.Time{})
	lib.Close()
	if len(entries) != 2 || entries[0].Billing != "" || entries[0].Outcome != library.Failed || entries[1].Billing != "" || entries[1].Outcome != library.Billed {
		t.Errorf("both are billed: %+v", entries)
	}
	img := filepath.Join(dir, "in.png")
	if err := os.WriteFile(img, fixture.SolidPNG(t, 64, 64, color.Transparent), 0o600); err != nil {
		t.Fatal(err)
	}
	if code := run(t, env, "", "edit", "--prompt", "a hat", "--image", img, "--out", dir); code != 1 ||
		!strings.Contains(errOut.String(), "does not offer image edits") || strings.Contains(errOut.String(), "Closest") {
		t.Errorf("an edit through one-api: %q", errOut)
	}
}

// `easel gen` ended by SIGTERM (what kill and timeout send) while the
// service worked, or by SIGKILL (killSignals: Windows has only the kill): the next `easel spend` lists it as may
// have been billed, at its estimate, and the next run says so once.
func TestAKilledGenLeavesATrace(t *testing.T) {
	for _, sig := range killSignals {
		t.Run(sig.String(), func(t *testing.T) {
			srv := demoservice.New(demoservice.Config{Pace: 4 * time.Second})
			ts := httptest.NewServer(srv)
			defer ts.Close()
			home := t.TempDir()
			cmd := child(t, home, ts.URL, "sk-killed-0123456789", "gen", "--prompt", "a slow harbour", "--quality", "high", "--size", "1024x1024", "--out", t.TempDir())
			var childErr bytes.Buffer
			cmd.Stderr = &childErr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// At the service, then out past gateway.BilledAfter: timed from
			// the request's arrival, not from the start of a child that a
			// loaded machine (make unit runs packages side by side) may
			// take seconds to start.
			for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
				if _, peak := srv.ImageRequests(); peak > 0 {
					break
				}
			}
			time.Sleep(gateway.BilledAfter + 500*time.Millisecond)
			_ = cmd.Process.Signal(sig)
			_ = cmd.Wait()
			if sig != os.Kill && !strings.Contains(childErr.String(), "may have been charged") {
				t.Errorf("the cancelled gen said %q", childErr.String())
			}
			var out, errOut bytes.Buffer
			env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" },
				Profiles: config.Open(filepath.Join(home, "profiles.json")), Library: filepath.Join(home, "library")}
			if code := Run([]string{"spend"}, env); code != 0 {
				t.Fatalf("spend: %s", errOut.String())
			}
			if !strings.Contains(out.String(), "May have been billed") || !strings.Contains(out.String(), "gpt-image-1  generate  cancelled  ≈ $0.17") {
				t.Errorf("spend says %q", out.String())
			}
			if !strings.Contains(errOut.String(), `an earlier request was cut off while the service worked on it`) || !strings.Contains(errOut.String(), "a slow harbour") {
				t.Errorf("the next run said %q", errOut.String())
			}
			out.Reset()
			errOut.Reset()
			if code := Run([]string{"jobs"}, env); code != 0 || !strings.Contains(out.String(), "easel gen --model gpt-image-1 --prompt 'a slow harbour'") || errOut.Len() != 0 {
				t.Errorf("jobs: %q (said again: %q)", out.String(), errOut.String())
			}
		})
	}
}

// #53: `easel gen --n 4 --stream` killed after two images arrived lost
// them: the command line wrote its files at the end. On the runner, each
// image is in --out (and beside the journal's entry) the moment it
// arrives, and `easel jobs` offers to send the other two.
func TestAKilledStreamKeepsTheImagesThatArrived(t *testing.T) {
	srv := demoservice.New(demoservice.Config{Pace: 300 * time.Millisecond})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	home, out := t.TempDir(), t.TempDir()
	cmd := child(t, home, ts.URL, "sk-four-0123456789", "gen", "--prompt", "four lighthouses", "--n", "4", "--stream", "--size", "1024x1024", "--quality", "low", "--out", out)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var said bytes.Buffer
	buf := make([]byte, 4096)
	for !strings.Contains(said.String(), "image 2 received") {
		n, err := stderr.Read(buf)
		said.Write(buf[:n])
		if err != nil {
			t.Fatalf("the child ended before two images arrived: %v\n%s", err, said.String())
		}
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	files, _ := filepath.Glob(filepath.Join(out, "easel-*.png"))
	if len(files) != 2 {
		t.Errorf("%d files in --out after the kill, want the 2 that arrived: %v", len(files), files)
	}
	env := Env{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Getenv: func(string) string { return "" },
		Profiles: config.Open(filepath.Join(home, "profiles.json")), Library: filepath.Join(home, "library")}
	if code := Run([]string{"jobs"}, env); code != 0 {
		t.Fatalf("jobs: %s", env.Stderr)
	}
	listed := env.Stdout.(*bytes.Buffer).String()
	if !strings.Contains(listed, "2 of 4 images arrived") || !strings.Contains(listed, "--prompt 'four lighthouses'") || !strings.Contains(listed, "--n 2") {
		t.Errorf("easel jobs says %q", listed)
	}
}

// A batch estimated above what the key may still spend, by the gateway's
// own figure, is not sent: a $0.40 key is not let spend $0.67.
func TestABatchOverTheKeysLimitIsNotSent(t *testing.T) {
	const key = "sk-forty-cents-0123456789"
	srv := demoservice.New(demoservice.Config{Console: demoservice.ConsoleNewAPI, Groups: map[string]demoservice.Group{
		key: {Name: "default", Models: []string{"gpt-image-1"}, Limit: 200000},
	}})
	env, _, errOut := gatewayEnv(t, srv, key, "default")
	code := run(t, env, "", "batch", "--prompt", "a {thing}", "--var", "thing=fox,owl,cat,elk", "--quality", "high", "--size", "1024x1024", "--out", t.TempDir())
	if code != 1 || !strings.Contains(errOut.String(), "This key has $0.40 left by the gateway's own figure") {
		t.Errorf("the batch: %d %q", code, errOut)
	}
	if total, _ := srv.ImageRequests(); total != 0 {
		t.Errorf("%d requests went out", total)
	}
}

// Through a gateway that makes one image a request, the command line
// learns it, then sends --n 2 as two requests of one image, as the window
// offers, and says so: two images are written, two requests went out.
func TestTheCommandLineSplitsWhereTheServiceMakesOneImage(t *testing.T) {
	const key = "sk-one-image-0123456789"
	srv := demoservice.New(demoservice.Config{Key: key, Quirks: []demoservice.Quirk{demoservice.QuirkOneImage}})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	env, out, errOut := profileEnv(t, secretstest.NewMemory())
	env.Library = filepath.Join(t.TempDir(), "library")
	if code := run(t, env, "", "profile", "add", "--name", "Relay", "--base-url", ts.URL+"/v1"); code != 0 {
		t.Fatalf("add: %s", errOut)
	}
	if code := run(t, env, key+"\n", "key", "set"); code != 0 {
		t.Fatalf("key: %s", errOut)
	}
	dir := t.TempDir()
	if code := run(t, env, "", "gen", "--prompt", "a fox", "--n", "2", "--out", dir); code != 0 || !strings.Contains(errOut.String(), "asked for 2 images, the service sent 1") {
		t.Fatalf("first gen: %d %q", code, errOut)
	}
	before, _ := srv.ImageRequests()
	if code := run(t, env, "", "gen", "--prompt", "a fox", "--n", "2", "--out", dir); code != 0 {
		t.Fatalf("second gen: %q", errOut)
	}
	after, _ := srv.ImageRequests()
	said := errOut.String()
	if after-before != 2 || !strings.Contains(said, "Easel sends 2 requests of one image") || !strings.Contains(said, "request 2 of 2") ||
		strings.Count(out.String(), ".png") != 2 {
		t.Errorf("%d requests; stderr %q; stdout %q", after-before, said, out)
	}
}

// Through sub2api, whose /v1/sub2api/billing gives the key's group's
// rate on the list prices: a key at 0.8 is written at 0.8 of the list
// price, what sub2api billed it, and `easel balance` names the source.
func TestSub2APIKeysPayTheirGroupsRate(t *testing.T) {
	const key = "sk-sub2api-0123456789"
	srv := demoservice.New(demoservice.Config{Console: demoservice.ConsoleSub2API, Groups: map[string]demoservice.Group{
		key: {Name: "plus", Models: []string{"gpt-image-1"}, Ratio: 0.8},
	}})
	env, out, errOut := gatewayEnv(t, srv, key, "plus")
	if code := run(t, env, "", "gen", "--prompt", "a kite", "--quality", "medium", "--size", "1024x1024", "--out", t.TempDir()); code != 0 {
		t.Fatalf("gen: %s", errOut)
	}
	billed := float64(srv.BilledQuota(key)) / 1e6
	lib, err := library.OpenWithoutRepair(env.Library)
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := lib.Ledger().Entries(context.Background(), time.Time{})
	lib.Close()
	if len(entries) != 1 || entries[0].Cost == nil || math.Abs(*entries[0].Cost-billed) > 1e-6 {
		t.Errorf("entries %+v; sub2api billed $%.6f", entries, billed)
	}
	if code := run(t, env, "", "balance"); code != 0 || !strings.Contains(out.String(), "group rate ×0.8 (from the gateway's /v1/sub2api/billing)") {
		t.Errorf("balance: %q %q", out, errOut)
	}
}

// `easel batch` killed with SIGKILL mid-run keeps every image that had
// arrived: each cell is on disk as it ends, not when the batch does.
func TestAKilledBatchKeepsWhatArrived(t *testing.T) {
	srv := demoservice.New(demoservice.Config{Pace: 400 * time.Millisecond})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	home, out := t.TempDir(), t.TempDir()
	cmd := child(t, home, ts.URL, "sk-batch-0123456789", "batch", "--prompt", "a {animal}", "--var", "animal=cat,dog,owl,elk,fox,yak,emu,ant", "--concurrency", "1",
		"--size", "1024x1024", "--quality", "low", "--out", out)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for srv.Delivered() < 3 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // mid-way through the next cell
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	files, _ := filepath.Glob(filepath.Join(out, "batch-*-0*.png"))
	if delivered := srv.Delivered(); delivered < 3 || len(files) != delivered {
		t.Errorf("%d images handed over, %d files kept: %v", delivered, len(files), files)
	}
}

// A planted link at the next name is skipped, never written through, and
// two writes of one name keep both.
func TestKeepFileNeverWritesThroughALink(t *testing.T) {
	dir, outside := t.TempDir(), filepath.Join(t.TempDir(), "victim.txt")
	if err := os.WriteFile(outside, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "shot.png")); err != nil {
		t.Skipf("cannot make a link here (Windows asks for a privilege): %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "shot.png")); err != nil {
		t.Skip("the system said it made a link, but there is none (Wine 8 stubs CreateSymbolicLink)")
	}
	p1, err1 := keepFile(dir, "shot", ".png", []byte("one"))
	p2, err2 := keepFile(dir, "shot", ".png", []byte("two"))
	if err1 != nil || err2 != nil || filepath.Base(p1) != "shot-2.png" || filepath.Base(p2) != "shot-3.png" {
		t.Errorf("wrote %s %v, %s %v", p1, err1, p2, err2)
	}
	if data, _ := os.ReadFile(outside); string(data) != "keep me" {
		t.Errorf("the link's target was written: %q", data)
	}
}

// Where the images cannot be written (a name too long for the system),
// the command line says so before it pays: nothing goes out.
func TestTheCommandLineChecksWhereItWritesBeforePaying(t *testing.T) {
	srv := demoservice.New(demoservice.Config{Key: "sk-cli-test-key-123456"})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	env, _, errOut := testEnv(t, ts.URL+"/v1")
	out := filepath.Join(t.TempDir(), strings.Repeat("n", 300))
	if code := Run([]string{"gen", "--prompt", "a fox", "--out", out}, env); code != 1 || !strings.Contains(errOut.String(), "nothing was sent") {
		t.Errorf("exit %d: %q", code, errOut)
	}
	if total, _ := srv.ImageRequests(); total != 0 {
		t.Errorf("%d requests went out", total)
	}
}

// A gallery library that is truncated, or has a damaged page, is said
// before anything is paid for: the request's cost could not be written.
func TestADamagedLibraryStopsAPaidRequest(t *testing.T) {
	for _, damage := range []string{"truncated", "corrupt page"} {
		t.Run(damage, func(t *testing.T) {
			srv := demoservice.New(demoservice.Config{Key: "sk-cli-test-key-123456"})
			ts := httptest.NewServer(srv)
			defer ts.Close()
			env, _, errOut := testEnv(t, ts.URL+"/v1")
			env.Library = filepath.Join(t.TempDir(), "library")
			if damage == "truncated" {
				db := damaged.Filled(t, env.Library)
				data, _ := os.ReadFile(db)
				if err := os.WriteFile(db, data[:len(data)/3], 0o600); err != nil {
					t.Fatal(err)
				}
			} else {
				damaged.Gallery(t, env.Library)
			}
			code := Run([]string{"gen", "--prompt", "a fox", "--out", t.TempDir()}, env)
			if code != 1 || !strings.Contains(errOut.String(), "nothing was sent") {
				t.Errorf("exit %d: %q", code, errOut)
			}
			if total, _ := srv.ImageRequests(); total != 0 {
				t.Errorf("%d requests went out", total)
			}
		})
	}
}
