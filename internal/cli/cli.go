// Package cli is Easel's command line: the same service client as the
// window, for scripts, quick checks and the demo server. Each subcommand
// prints its results on stdout (one image path per line) and a failure as
// one line on stderr with its kind and hint; the exit status is 1 for a
// failure and 2 for a usage mistake.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/library"
	"easel/internal/secrets"
)

// Commands are the subcommand names main dispatches to Run.
var Commands = []string{"models", "gen", "edit", "outpaint", "batch", "cutout", "info", "chat", "spend", "balance", "jobs", "thread", "serve-demo", "profile", "key",
	"help", "version", "completion"}

// IsCommand reports whether name is a subcommand.
func IsCommand(name string) bool {
	for _, c := range Commands {
		if c == name {
			return true
		}
	}
	return false
}

// Env is what a command reads and writes, so tests run it in-process.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Getenv reads OPENAI_BASE_URL and OPENAI_API_KEY.
	Getenv func(string) string
	// Profiles is the profiles file; Keys the keyring.
	Profiles *config.Store
	Keys     *secrets.Keys
	// Library is the gallery's folder, whose library remembers what
	// each service honours (shared with the window); "" remembers
	// nothing.
	Library string
}

// OSEnv is the real process environment.
func OSEnv() Env {
	path, err := config.DefaultPath()
	if err != nil {
		path = "profiles.json" // no home folder: the current one
	}
	lib, _ := library.Dir()
	return Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv,
		Profiles: config.Open(path), Keys: secrets.New(secrets.OSKeyring{}, 0), Library: lib}
}

// errUsage marks a mistake in the command line itself (exit 2).
var errUsage = errors.New("usage")

// errSaid is a failure the command has already said (on stderr, or in
// its JSON document): exit status 1 and nothing more.
var errSaid = errors.New("said")

// Run runs one subcommand and returns the exit status. Ctrl+C and SIGTERM
// (what `kill`, `timeout`, systemd and a logout send) cancel the request
// in flight alike: it is written down as it ended. First, it says which
// earlier requests a kill cut off.
func Run(args []string, env Env) int {
	if len(args) == 0 || !IsCommand(args[0]) {
		fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("unknown command; use one of: %s", strings.Join(Commands, ", ")))
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch args[0] {
	case "serve-demo", "help", "version", "completion":
	default:
		noticeCutOff(ctx, env)
	}
	return report(commands[args[0]](ctx, args[1:], env), env)
}

// commands run each subcommand on its arguments (set in init: help runs
// Run again, for a command's own flags).
var commands map[string]func(ctx context.Context, args []string, env Env) error

func init() {
	commands = map[string]func(ctx context.Context, args []string, env Env) error{
		"models": runModels, "gen": runGen, "edit": runEdit, "outpaint": runOutpaint, "batch": runBatch,
		"cutout": runCutout, "info": runInfo, "chat": runChat, "spend": runSpend, "balance": runBalance,
		"jobs": runJobs, "thread": runThread, "serve-demo": runServeDemo, "profile": runProfile, "key": runKey,
		"help":       func(_ context.Context, args []string, env Env) error { return runHelp(args, env) },
		"version":    func(_ context.Context, _ []string, env Env) error { return runVersion(env) },
		"completion": func(_ context.Context, args []string, env Env) error { return runCompletion(args, env) },
	}
}

func report(err error, env Env) int {
	if err == nil {
		return 0
	}
	if errors.Is(err, errUsage) || errors.Is(err, flag.ErrHelp) {
		return 2
	}
	if errors.Is(err, errSaid) {
		return 1
	}
	var ae *api.Error
	if errors.As(err, &ae) {
		fmt.Fprintln(env.Stderr, "easel: "+oneLine(ae.Line()))
		return 1
	}
	fmt.Fprintln(env.Stderr, "easel: "+oneLine(err.Error()))
	return 1
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// newFlags makes a FlagSet that reports usage mistakes on stderr.
func newFlags(name string, env Env) *flag.FlagSet {
	fs := flag.NewFlagSet("easel "+name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	return fs
}

// parse parses args and turns a parse failure into errUsage.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	return nil
}

func usageErr(env Env, format string, a ...any) error {
	fmt.Fprintf(env.Stderr, "easel: "+format+"\n", a...)
	return errUsage
}
