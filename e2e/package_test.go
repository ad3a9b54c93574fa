//go:build e2e

package e2e

import (
	"bytes"
	"debug/elf"
	"image/png"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The tarball `make package` builds holds a stripped, -trimpath release
// binary that runs, a valid .desktop entry that offers Easel for PNG,
// JPEG and WebP, and the icon; `make install` puts exactly three files in
// a user's HOME and `make uninstall` takes exactly those away.
func TestPackageInstallsAndUninstalls(t *testing.T) {
	tarball := os.Getenv("EASEL_PACKAGE")
	if tarball == "" {
		t.Skip("EASEL_PACKAGE not set: run through make e2e")
	}
	out, err := exec.Command("tar", "-tJf", tarball).CombinedOutput()
	if err != nil {
		t.Fatalf("tar: %v %s", err, out)
	}
	for _, want := range []string{"easel/usr/local/bin/easel", "easel/usr/local/share/applications/dev.easel.app.desktop",
		"easel/usr/local/share/pixmaps/dev.easel.app.png"} {
		if !strings.Contains(string(out), want+"\n") {
			t.Errorf("the tarball lacks %s:\n%s", want, out)
		}
	}
	root := filepath.Join(t.TempDir(), "unpacked")
	os.MkdirAll(root, 0o755)
	if out, err := exec.Command("tar", "-xJf", tarball, "-C", root).CombinedOutput(); err != nil {
		t.Fatalf("tar: %v %s", err, out)
	}
	usr := filepath.Join(root, "easel", "usr", "local")

	bin := filepath.Join(usr, "bin", "easel")
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	if f.Section(".symtab") != nil {
		t.Error("the binary is not stripped")
	}
	f.Close()
	repo, _ := filepath.Abs("..")
	if data, _ := os.ReadFile(bin); bytes.Contains(data, []byte(repo+"/internal")) {
		t.Errorf("the binary holds the build's paths (%s): not built with -trimpath", repo)
	}
	home := t.TempDir()
	run := exec.Command(bin, "profile", "list")
	run.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "OPENAI_API_KEY=", "OPENAI_BASE_URL=")
	if out, err := run.CombinedOutput(); err != nil {
		t.Errorf("the packaged binary does not run: %v %s", err, out)
	}

	desktop := filepath.Join(usr, "share", "applications", "dev.easel.app.desktop")
	validate(t, desktop)
	entry, _ := os.ReadFile(desktop)
	for _, want := range []string{"Exec=easel %F", "MimeType=image/png;image/jpeg;image/webp;", "Icon=dev.easel.app", "Name=Easel"} {
		if !strings.Contains(string(entry), want+"\n") {
			t.Errorf("the desktop entry lacks %q:\n%s", want, entry)
		}
	}
	icon, err := os.Open(filepath.Join(usr, "share", "pixmaps", "dev.easel.app.png"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(icon)
	icon.Close()
	if err != nil || cfg.Width != 512 || cfg.Height != 512 {
		t.Errorf("the icon is %dx%d (%v), want 512x512", cfg.Width, cfg.Height, err)
	}

	// Install into a fresh HOME, with Go's caches where they are.
	target := t.TempDir()
	os.WriteFile(filepath.Join(target, "already-here"), []byte("the user's"), 0o600)
	before := files(t, target)
	installed := []string{".local/bin/easel", ".local/share/applications/dev.easel.app.desktop",
		".local/share/icons/hicolor/512x512/apps/dev.easel.app.png"}
	makeIn(t, target, "install")
	after := files(t, target)
	if got, want := strings.Join(after, " "), strings.Join(sorted(append(before, installed...)), " "); got != want {
		t.Errorf("make install left:\n%s\nwant:\n%s", got, want)
	}
	validate(t, filepath.Join(target, installed[1]))
	if entry, _ := os.ReadFile(filepath.Join(target, installed[1])); !strings.Contains(string(entry), "Exec="+filepath.Join(target, installed[0])+" %F\n") {
		t.Errorf("the installed entry does not start the installed binary:\n%s", entry)
	}
	makeIn(t, target, "uninstall")
	if got := files(t, target); strings.Join(got, " ") != strings.Join(before, " ") {
		t.Errorf("make uninstall left %v, want %v", got, before)
	}
}

// validate runs desktop-file-validate, which prints nothing for a valid
// entry.
func validate(t *testing.T, path string) {
	t.Helper()
	out, err := exec.Command("desktop-file-validate", path).CombinedOutput()
	if err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Errorf("desktop-file-validate %s: %v\n%s", filepath.Base(path), err, out)
	}
}

// makeIn runs a make target of the repository with HOME set to home and
// Go's caches left where they are.
func makeIn(t *testing.T, home, target string) {
	t.Helper()
	env := os.Environ()
	for _, v := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		out, _ := exec.Command("go", "env", v).Output()
		env = append(env, v+"="+strings.TrimSpace(string(out)))
	}
	cmd := exec.Command("make", "-C", "..", "--no-print-directory", target, "HOME="+home)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make %s: %v\n%s", target, err, out)
	}
}

// files lists the regular files under dir, relative and sorted.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return err
	})
	return sorted(out)
}

func sorted(s []string) []string {
	s = append([]string(nil), s...)
	sort.Strings(s)
	return s
}
