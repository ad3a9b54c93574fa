// Command easel is a designer's desktop studio for OpenAI-compatible image
// and chat services. With no arguments it opens the window, and `easel
// a.png b.jpg` opens it with those images in Edit (or hands them to the
// window already open on the same gallery); `easel gen`, `edit`, `chat`,
// `models`, `profile`, `key` and `serve-demo` are the command line (see
// README.md).
package main

import (
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2/app"

	"easel/internal/applog"
	"easel/internal/c2pa"
	"easel/internal/capability"
	"easel/internal/catalogue"
	"easel/internal/cli"
	"easel/internal/config"
	"easel/internal/imageio"
	"easel/internal/instance"
	"easel/internal/library"
	_ "easel/internal/posixlocale" // before Fyne initialises: see the package doc
	"easel/internal/quarantine"
	"easel/ui"
)

func main() {
	// A child started to decode a picture does that and nothing else.
	quarantine.Serve(library.MakeThumbnail)
	// Every picture Easel has not seen before is drawn in such a child
	// first, in the window and in the commands alike.
	imageio.SetVetter(quarantine.Vetter)
	speak()
	logLevel, args := cli.TakeLogLevel(os.Args[1:], os.Getenv("EASEL_LOG_LEVEL"))
	closeLog := openLog(logLevel)
	loadSheets()
	trustRoots()
	if len(args) > 0 {
		// The conventions of command-line tools: --help and --version.
		switch args[0] {
		case "--help", "-help", "-h":
			args = append([]string{"help"}, args[1:]...)
		case "--version", "-version":
			args = []string{"version"}
		}
	}
	if len(args) > 0 && cli.IsCommand(args[0]) {
		code := cli.Run(args, cli.OSEnv())
		closeLog()
		os.Exit(code)
	}
	defer closeLog()
	demo := flag.Bool("demo", false, "open the window on the built-in demo service")
	profile := flag.String("profile", "", "open the window on this profile (see `easel profile list`)")
	flag.String("log-level", "", "how much logs/easel.log says: debug, info, warn (the default) or error")
	flag.Parse()
	for _, arg := range flag.Args() {
		if sentence, ok := cli.Unknown(arg); ok {
			fmt.Fprintln(os.Stderr, "easel: "+sentence)
			os.Exit(2)
		}
	}
	if why, ok := noDisplay(); ok {
		fmt.Fprintln(os.Stderr, "easel: "+why)
		os.Exit(1)
	}
	onX11Only()
	files := absolute(flag.Args())

	// One window per gallery: a second start hands its files over and
	// leaves. Without the socket (an odd runtime folder), Easel still
	// opens, as before single-instance existed.
	var srv *instance.Server
	if dir, err := library.Dir(); err == nil {
		var handed bool
		srv, handed, err = instance.Claim(dir, instance.Message{Files: files})
		switch {
		case handed:
			return
		case err != nil:
			fmt.Fprintln(os.Stderr, "easel: cannot check for a running window:", err)
		}
	}
	a := app.NewWithID(ui.AppID)
	// Before anything reaches the driver: Fyne reads the migrations once.
	app.SetMetadata(ui.WithFyneDo(a.Metadata()))
	ui.Run(a, ui.Options{Demo: *demo, Profile: *profile, Files: files, Instance: srv, StateDir: a.Storage().RootURI().Path(), Quarantine: true})
	if srv != nil {
		srv.Close()
	}
	if ui.RestartWanted() {
		relaunch()
	}
}

// systemLanguage is LANGUAGE as Easel was started with it, before speak
// set it to the language picked in Settings: a start again must not
// carry the old pick to Fyne's own words.
var systemLanguage, hadSystemLanguage = os.LookupEnv("LANGUAGE")

// relaunch starts Easel again, as it was started, once this window has
// closed and given up its single-instance socket: Settings' Restart now,
// for a new language.
func relaunch() {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "easel: cannot start again:", err)
		return
	}
	// The flags again (--demo, --profile), not the files: they are in
	// Edit's draft already.
	cmd := exec.Command(exe, os.Args[1:len(os.Args)-flag.NArg()]...)
	cmd.Env = os.Environ()
	if hadSystemLanguage {
		cmd.Env = append(cmd.Env, "LANGUAGE="+systemLanguage)
	} else {
		cmd.Env = slices.DeleteFunc(cmd.Env, func(kv string) bool { return strings.HasPrefix(kv, "LANGUAGE=") })
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "easel: cannot start again:", err)
	}
}

// trustRoots adds the Content Credentials roots the user trusts besides
// the bundled lists: trust-roots.pem (PEM certificates) beside the
// profiles, for a studio's own signer or a newer list.
func trustRoots() {
	path, err := config.DefaultPath()
	if err != nil {
		return
	}
	data, err := os.ReadFile(filepath.Join(filepath.Dir(path), "trust-roots.pem"))
	if err != nil {
		return
	}
	if _, err := c2pa.AddRoots(data); err != nil {
		slog.Warn("credentials: trust-roots.pem holds no certificate Easel can read", "err", err)
	}
}

// openLog starts the log in the gallery's folder (logs/easel.log), at
// level (debug, info, warn, error; warn when empty or unknown). It
// returns its closer.
func openLog(name string) func() {
	level := slog.LevelWarn
	_ = level.UnmarshalText([]byte(name))
	dir, err := library.Dir()
	if err != nil {
		applog.Discard()
		return func() {}
	}
	c, _ := applog.Open(filepath.Join(dir, applog.Folder), level)
	return func() { _ = c.Close() }
}

// speak chooses the language Easel speaks: the one picked in Settings,
// else the system's. A language picked in Settings is also given to
// Fyne's own words (its dialogs' buttons) through LANGUAGE, which its
// locale lookup reads first on Linux; elsewhere those follow the system.
func speak() {
	chosen := ""
	if path, err := config.DefaultPath(); err == nil {
		if f, err := config.Open(path).Load(); err == nil {
			chosen = f.Language
		}
	}
	tag := catalogue.Choose(chosen)
	if chosen != "" {
		_ = os.Setenv("LANGUAGE", strings.ReplaceAll(tag, "-", "_"))
	}
}

// absolute makes the file arguments absolute, as the window that opens
// them may be another process in another folder.
func absolute(args []string) []string {
	var out []string
	for _, a := range args {
		if p, err := filepath.Abs(a); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// loadSheets puts the user's model sheets (models.json beside
// profiles.json, or $EASEL_MODELS) before the shipped ones, for the
// window and the command line alike. A file that does not read is said
// and left out: the shipped sheets still apply.
func loadSheets() {
	path := os.Getenv("EASEL_MODELS")
	if path == "" {
		profiles, err := config.DefaultPath()
		if err != nil {
			return
		}
		path = filepath.Join(filepath.Dir(profiles), "models.json")
	}
	b, err := capability.Load(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "easel: "+catalogue.F("the model sheets in %s were not read (%v): the sheets Easel ships apply", path, err))
		slog.Warn("capability: a models.json was not read", "path", path, "err", err)
	}
	capability.Use(b)
}
