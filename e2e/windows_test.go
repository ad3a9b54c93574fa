//go:build e2e

package e2e

// The Windows release under Wine: make e2e-windows runs these against
// dist/windows (EASEL_WINDOWS_DIR) through e2e/wine/exec (WINE_EXEC), on
// a 1366x768 display, the screen of the laptops many designers have.

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb/xproto"
)

// wine is the Windows release and the way to run it.
type wine struct{ dir, exec string }

// wineRelease returns the release under test, or skips.
func wineRelease(t *testing.T) wine {
	w := wine{dir: os.Getenv("EASEL_WINDOWS_DIR"), exec: os.Getenv("WINE_EXEC")}
	if w.dir == "" || w.exec == "" {
		t.Skip("EASEL_WINDOWS_DIR and WINE_EXEC not set: run through make e2e-windows")
	}
	return w
}

// command runs program (Easel.exe, easel.com, or a Windows command such
// as cmd) under Wine.
func (w wine) command(program string, args ...string) *exec.Cmd {
	if strings.Contains(program, ".") && !filepath.IsAbs(program) {
		program = filepath.Join(w.dir, program)
	}
	return exec.Command(w.exec, append([]string{program}, args...)...)
}

// prefix is the Wine prefix the programs run in.
func (w wine) prefix(t *testing.T) string {
	out, err := exec.Command(filepath.Join(filepath.Dir(w.exec), "prefix")).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// winPath is a Linux path as a program under Wine names it (Wine's Z: is /).
func winPath(p string) string { return "Z:" + strings.ReplaceAll(p, "/", `\`) }

// easelWindows finds the visible top-level windows named Easel.
func easelWindows() []xproto.Window {
	out, _ := exec.Command("xdotool", "search", "--onlyvisible", "--name", "^Easel( .*)?$").Output()
	var ws []xproto.Window
	for _, f := range strings.Fields(string(out)) {
		if id, err := strconv.ParseUint(f, 10, 32); err == nil {
			ws = append(ws, xproto.Window(id))
		}
	}
	return ws
}

// startWine opens Easel.exe with its gallery in home and waits for its
// window. Under Wine the window belongs to Wine's process, so it is found
// by its name rather than by the program's pid.
func startWine(t *testing.T, w wine, home string, args ...string) *proc {
	t.Helper()
	cmd := w.command("Easel.exe", args...)
	cmd.Env = append(os.Environ(), "EASEL_HOME="+winPath(filepath.Join(home, "easel")), "LANG=en_US.UTF-8")
	prefix := w.prefix(t)
	// Killing Wine's loader may leave the Windows process and its window
	// behind: end every process of the prefix.
	p := launch(t, cmd, func() {
		kill := exec.Command("wineserver", "-k")
		kill.Env = append(os.Environ(), "WINEPREFIX="+prefix)
		_ = kill.Run()
	})
	out := p.out
	deadline := time.Now().Add(90 * time.Second)
	for {
		if ws := easelWindows(); len(ws) == 1 {
			p.window = ws[0]
			return p
		}
		select {
		case err := <-p.done:
			t.Fatalf("Easel.exe ended (%v) before its window showed:\n%s", err, out)
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no Easel window under Wine:\n%s", out)
		}
	}
}

// startWineDemo opens Easel.exe on the demo service in a fresh home and
// waits until its window is drawn, as startDemo does on Linux; the
// context bounds the test at three minutes.
func startWineDemo(t *testing.T) (p *proc, home string, ctx context.Context) {
	t.Helper()
	home = t.TempDir()
	p = startWine(t, wineRelease(t), home, "--demo")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	p.waitDrawn(ctx)
	return p, home, ctx
}

// screenSize is the X display's size.
func screenSize(t *testing.T) image.Point {
	c, err := x11()
	if err != nil {
		t.Fatal(err)
	}
	s := xproto.Setup(c).DefaultScreen(c)
	return image.Pt(int(s.WidthInPixels), int(s.HeightInPixels))
}

// windowRect is where w is on the screen.
func windowRect(t *testing.T, w xproto.Window) image.Rectangle {
	c, err := x11()
	if err != nil {
		t.Fatal(err)
	}
	g, err := xproto.GetGeometry(c, xproto.Drawable(w)).Reply()
	if err != nil {
		t.Fatal(err)
	}
	root := xproto.Setup(c).DefaultScreen(c).Root
	at, err := xproto.TranslateCoordinates(c, w, root, 0, 0).Reply()
	if err != nil {
		t.Fatal(err)
	}
	return image.Rect(int(at.DstX), int(at.DstY), int(at.DstX)+int(g.Width), int(at.DstY)+int(g.Height))
}

// waitFile waits until a finished file is in dir (or below it).
func waitFile(ctx context.Context, t *testing.T, dir string, out *bytes.Buffer) string {
	t.Helper()
	for {
		var found string
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".tmp") && found == "" {
				found = p
			}
			return nil
		})
		if found != "" {
			return found
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no file in %s:\n%s", dir, out)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// The release exe under Wine opens on the demo service within the screen,
// generates an image into the gallery, and quits with Ctrl+Q, status 0.
func TestWindowsReleaseGeneratesUnderWine(t *testing.T) {
	p, home, ctx := startWineDemo(t)

	screen := screenSize(t)
	if r := windowRect(t, p.window); !r.In(image.Rectangle{Max: screen}) {
		t.Errorf("the window %v does not fit the %v screen", r, screen)
	}
	p.generate("a lighthouse under Wine")
	waitFile(ctx, t, filepath.Join(home, "easel", "images"), p.out)
	// The card shows the finished image once the gallery has it.
	time.Sleep(2 * time.Second)
	done := p.screenshot()
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		// The whole screen, to show the window within it.
		c, _ := x11()
		whole, err := grab(xproto.Setup(c).DefaultScreen(c).Root)
		if err != nil {
			t.Fatal(err)
		}
		save(t, filepath.Join(dir, "windows-wine-1366x768.png"), whole)
		save(t, filepath.Join(dir, "windows-wine-generate.png"), done)
	}
	p.key("ctrl+q")
	if err := p.waitExit(30 * time.Second); err != nil {
		t.Fatalf("Easel.exe did not exit cleanly: %v\n%s", err, p.out)
	}
	if n := libraryCount(t, home, "lighthouse"); n != 1 {
		t.Errorf("%d images of the prompt in the gallery, want 1", n)
	}
}

// easelCom runs easel.com under Wine in dir, with env, feeding stdin.
func easelCom(t *testing.T, w wine, dir, stdin string, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := w.command("easel.com", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	return runCommand(t, cmd)
}

// writePNG writes a w x h picture to path: grey, or with a transparent
// top half when hole (a mask: alpha 0 is what may change).
func writePNG(t *testing.T, path string, w, h int, hole bool) {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			a := uint8(255)
			if hole && y < h/2 {
				a = 0
			}
			img.SetNRGBA(x, y, color.NRGBA{uint8(x), uint8(y), 128, a})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// The command line under Wine, through easel.com, against a native demo
// service: gen writes a file, edit sends two images and a mask, chat
// prints the reply; from cmd.exe, `easel` finds easel.com, prints there
// and sets ERRORLEVEL.
func TestWindowsCommandLineUnderWine(t *testing.T) {
	w := wineRelease(t)
	base := serveDemo(t, binary(t, "EASEL_BIN"))
	dir := t.TempDir()
	env := []string{"OPENAI_BASE_URL=" + base, "OPENAI_API_KEY=sk-e2e-demo-key-000111"}

	out, errOut, code := easelCom(t, w, dir, "", env, "gen", "--prompt", "a lighthouse", "--size", "1024x1024", "--out", "imgs")
	paths := strings.Fields(out)
	if code != 0 || len(paths) != 1 {
		t.Fatalf("gen: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	made := filepath.Join(dir, strings.ReplaceAll(paths[0], `\`, "/"))
	if _, err := os.Stat(made); err != nil {
		t.Fatalf("gen printed %q but wrote no file there: %v", paths[0], err)
	}

	writePNG(t, filepath.Join(dir, "second.png"), 512, 512, false)
	writePNG(t, filepath.Join(dir, "mask.png"), 1024, 1024, true)
	out, errOut, code = easelCom(t, w, dir, "", env, "edit", "--image", paths[0], "--image", "second.png",
		"--mask", "mask.png", "--prompt", "put the second image in the first", "--out", "imgs")
	if code != 0 || len(strings.Fields(out)) != 1 {
		t.Fatalf("edit: exit %d, stdout %q, stderr %q", code, out, errOut)
	}

	out, errOut, code = easelCom(t, w, dir, "", env, "chat", "name three poster layouts")
	if code != 0 || !strings.Contains(out, "Demo reply") {
		t.Fatalf("chat: exit %d, stdout %q, stderr %q", code, out, errOut)
	}

	_, errOut, code = easelCom(t, w, dir, "", env, "gen", "--prompt", "x", "--model", "fault-rate-limit")
	if code != 1 || !strings.Contains(errOut, "rate limited") || strings.Contains(errOut, "sk-e2e-demo") {
		t.Errorf("a failure: exit %d, stderr %q", code, errOut)
	}

	// cmd.exe, in the release's folder: `easel` is easel.com (PATHEXT
	// puts .COM first), and its output and status reach the shell.
	cmd := w.command("cmd", "/v:on", "/c", "easel models & echo EXIT=!ERRORLEVEL! & easel gen --size & echo EXIT=!ERRORLEVEL!")
	cmd.Dir = w.dir
	cmd.Env = append(os.Environ(), env...)
	shell, _ := cmd.CombinedOutput()
	got := string(shell)
	if !strings.Contains(got, "gpt-image-1") || !strings.Contains(got, "EXIT=0") || !strings.Contains(got, "EXIT=2") {
		t.Errorf("in cmd.exe: %q", got)
	}
}

// A key set with `easel key set` goes to the Windows Credential Manager
// and comes back from it (the demo service refuses any other key), and
// is in no file of Easel's or of the user's folders.
func TestWindowsKeyRoundTripsThroughTheCredentialStore(t *testing.T) {
	w := wineRelease(t)
	base := serveDemo(t, binary(t, "EASEL_BIN"))
	dir := t.TempDir()
	const key = "sk-e2e-demo-key-000111"
	prefix := w.prefix(t)
	users := filepath.Join(prefix, "drive_c", "users")
	_ = exec.Command("find", users, "-path", "*/AppData/Roaming/Easel", "-prune", "-exec", "rm", "-rf", "{}", ";").Run()

	run := func(stdin string, args ...string) (string, int) {
		out, errOut, code := easelCom(t, w, dir, stdin, nil, args...)
		return out + errOut, code
	}
	if out, code := run("", "profile", "add", "--name", "Wine Studio", "--base-url", base); code != 0 {
		t.Fatalf("profile add: %d %s", code, out)
	}
	t.Cleanup(func() {
		run("", "key", "delete", "--profile", "Wine Studio")
		run("", "profile", "remove", "Wine Studio")
	})
	if out, code := run(key+"\n", "key", "set", "--profile", "Wine Studio"); code != 0 {
		t.Fatalf("key set: %d %s", code, out)
	}
	if out, code := run("", "models", "--profile", "Wine Studio"); code != 0 || !strings.Contains(out, "gpt-image-1") {
		t.Fatalf("models with the stored key: %d %s", code, out)
	}
	for _, root := range []string{users, dir} {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !d.Type().IsRegular() {
				return nil
			}
			data, _ := os.ReadFile(p)
			if bytes.Contains(data, []byte(key)) || bytes.Contains(data, utf16le(key)) {
				t.Errorf("the key is in %s", p)
			}
			return nil
		})
	}
}

// utf16le is s as Windows keeps text in UTF-16.
func utf16le(s string) []byte {
	var b []byte
	for _, r := range s {
		b = append(b, byte(r), byte(r>>8))
	}
	return b
}

// A second Easel.exe with a file, while a window runs on the same
// gallery, hands the file over the named pipe and exits without a window.
func TestWindowsSecondStartHandsItsFileToTheRunningWindow(t *testing.T) {
	w := wineRelease(t)
	p, home, ctx := startWineDemo(t)
	before := p.screenshot()
	if n := bluePixels(before, editTabHeader); n > 20 {
		t.Fatalf("Edit is already shown (%d blue pixels on its tab)", n)
	}
	file := filepath.Join(t.TempDir(), "reference.png")
	writePNG(t, file, 64, 64, false)

	second := w.command("Easel.exe", winPath(file))
	second.Env = append(os.Environ(), "EASEL_HOME="+winPath(filepath.Join(home, "easel")))
	out, err := second.CombinedOutput()
	if err != nil {
		t.Fatalf("the second start did not exit cleanly: %v\n%s", err, out)
	}
	if n := len(easelWindows()); n != 1 {
		t.Errorf("%d Easel windows after the second start, want 1", n)
	}
	p.waitScreen(ctx, "Edit in the running window", func(shot *image.RGBA) bool { return bluePixels(shot, editTabHeader) > 20 })
	p.key("ctrl+q")
	if err := p.waitExit(30 * time.Second); err != nil {
		t.Errorf("exit: %v", err)
	}
}

// regQuery reads a value of the registry under Wine ("" for the key's
// default), and whether it is there.
func regQuery(t *testing.T, w wine, key, value string) (string, bool) {
	args := []string{"query", key}
	if value == "" {
		args = append(args, "/ve")
	} else {
		args = append(args, "/v", value)
	}
	out, err := w.command("reg", args...).CombinedOutput()
	return string(out), err == nil
}

// The installer, run silently as a user would from a script, puts Easel
// in %LOCALAPPDATA%\Programs\Easel with a Start menu entry, registers
// "Open with Easel" for PNG, JPEG and WebP and the folder on PATH, and
// its uninstaller removes exactly that and keeps the user's gallery.
func TestWindowsInstallerInstallsAndUninstalls(t *testing.T) {
	w := wineRelease(t)
	setup := os.Getenv("EASEL_WINDOWS_SETUP")
	if setup == "" {
		t.Skip("EASEL_WINDOWS_SETUP not set")
	}
	users := filepath.Join(w.prefix(t), "drive_c", "users")
	user, _ := filepath.Glob(filepath.Join(users, "*", "AppData", "Local"))
	if len(user) == 0 {
		t.Fatal("no user folder in the Wine prefix")
	}
	local := user[0]
	roaming := filepath.Join(filepath.Dir(local), "Roaming")
	installed := filepath.Join(local, "Programs", "Easel")
	gallery := filepath.Join(local, "Easel", "keep.txt")
	_ = os.MkdirAll(filepath.Dir(gallery), 0o700)
	_ = os.WriteFile(gallery, []byte("a designer's work"), 0o600)
	t.Cleanup(func() { os.RemoveAll(filepath.Dir(gallery)) })

	if out, err := w.command(setup, "/S").CombinedOutput(); err != nil {
		t.Fatalf("setup /S: %v %s", err, out)
	}
	for _, f := range []string{"Easel.exe", "easel.com", "Uninstall.exe"} {
		if _, err := os.Stat(filepath.Join(installed, f)); err != nil {
			t.Errorf("not installed: %v", err)
		}
	}
	menu := filepath.Join(roaming, "Microsoft", "Windows", "Start Menu", "Programs", "Easel.lnk")
	if _, err := os.Stat(menu); err != nil {
		t.Errorf("no Start menu entry: %v", err)
	}
	if out, ok := regQuery(t, w, `HKCU\Software\Classes\Applications\Easel.exe\shell\open\command`, ""); !ok || !strings.Contains(out, `Easel.exe" "%1"`) {
		t.Errorf("Open with Easel is not registered: %s", out)
	}
	for _, ext := range []string{".png", ".jpg", ".jpeg", ".webp"} {
		if out, ok := regQuery(t, w, `HKCU\Software\Classes\`+ext+`\OpenWithProgids`, "Easel.Image"); !ok {
			t.Errorf("%s does not offer Easel: %s", ext, out)
		}
	}
	if out, _ := regQuery(t, w, `HKCU\Environment`, "Path"); !strings.Contains(out, `Programs\Easel`) {
		t.Errorf("the folder is not on PATH: %s", out)
	}
	if out, ok := regQuery(t, w, `HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\Easel`, "DisplayVersion"); !ok {
		t.Errorf("not listed in Apps: %s", out)
	}

	// _?= runs the uninstaller in place, so it is done when it returns.
	uninstall := w.command(filepath.Join(installed, "Uninstall.exe"), "/S", `_?=`+`C:\users\`+filepath.Base(filepath.Dir(filepath.Dir(local)))+`\AppData\Local\Programs\Easel`)
	if out, err := uninstall.CombinedOutput(); err != nil {
		t.Fatalf("uninstall: %v %s", err, out)
	}
	for _, f := range []string{"Easel.exe", "easel.com"} {
		if _, err := os.Stat(filepath.Join(installed, f)); err == nil {
			t.Errorf("%s is left after uninstalling", f)
		}
	}
	if _, err := os.Stat(menu); err == nil {
		t.Error("the Start menu entry is left")
	}
	if _, ok := regQuery(t, w, `HKCU\Software\Classes\Applications\Easel.exe\shell\open\command`, ""); ok {
		t.Error("Open with Easel is still registered")
	}
	if out, _ := regQuery(t, w, `HKCU\Environment`, "Path"); strings.Contains(out, `Programs\Easel`) {
		t.Errorf("the folder is still on PATH: %s", out)
	}
	if got, err := os.ReadFile(gallery); err != nil || string(got) != "a designer's work" {
		t.Errorf("the gallery was touched by the uninstaller: %q %v", got, err)
	}
	os.RemoveAll(installed)
}
