package cli

import (
	"embed"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/template"

	"easel/internal/buildinfo"
	"easel/internal/catalogue"
)

// summary is each command's one line in `easel help`.
func summary(command string) string {
	return map[string]string{
		"models":     catalogue.T("list the models the profile's service offers"),
		"gen":        catalogue.T("generate images from a prompt"),
		"edit":       catalogue.T("edit images with a prompt, a mask and marks"),
		"outpaint":   catalogue.T("extend a picture onto a larger canvas"),
		"batch":      catalogue.T("send a prompt template for every row of values"),
		"cutout":     catalogue.T("make a flat background transparent, on this machine"),
		"info":       catalogue.T("describe image files: format, size, colours, Content Credentials"),
		"chat":       catalogue.T("ask the chat model, the reply streamed to stdout"),
		"spend":      catalogue.T("what the requests cost, today and this month"),
		"balance":    catalogue.T("what the key has left, by the gateway's own figure"),
		"jobs":       catalogue.T("list requests a kill cut off, with the command to send each again"),
		"thread":     catalogue.T("list the turns of a picture's thread: prompts, costs, what each changed"),
		"serve-demo": catalogue.T("run the built-in demo service"),
		"profile":    catalogue.T("add, list, pick and remove profiles"),
		"key":        catalogue.T("set or remove the profile's key in the system keyring"),
		"help":       catalogue.T("list the commands"),
		"version":    catalogue.T("print the version, commit, Go and Fyne"),
		"completion": catalogue.T("print a shell completion script: bash, zsh, fish or powershell"),
	}[command]
}

// printHelp lists the commands with one line each, and how to start the
// window.
func printHelp(w io.Writer) {
	fmt.Fprintln(w, catalogue.T("Usage: easel [--demo] [--profile NAME] [IMAGE…]   opens the window"))
	fmt.Fprintln(w, catalogue.T("       easel COMMAND [FLAGS]                     runs a command; easel COMMAND --help lists its flags"))
	fmt.Fprintln(w)
	fmt.Fprintln(w, catalogue.T("Commands:"))
	for _, c := range Commands {
		fmt.Fprintf(w, "  %-11s %s\n", c, summary(c))
	}
}

func runHelp(args []string, env Env) error {
	if len(args) > 0 && IsCommand(args[0]) && args[0] != "help" {
		// easel help gen: the command's own flags.
		return report2(Run([]string{args[0], "--help"}, env))
	}
	printHelp(env.Stdout)
	return nil
}

// report2 keeps a nested Run's status: 2 (its --help) is no failure here.
func report2(code int) error {
	if code == 0 || code == 2 {
		return nil
	}
	return errUsage
}

func runVersion(env Env) error {
	fmt.Fprintln(env.Stdout, buildinfo.Describe())
	return nil
}

// completions are the shells' completion scripts: the commands, then
// files for their arguments.
//
//go:embed completion
var completions embed.FS

// runCompletion prints the completion script for a shell.
func runCompletion(args []string, env Env) error {
	if len(args) != 1 {
		return usageErr(env, catalogue.T("completion takes one shell: bash, zsh, fish or powershell"))
	}
	script, err := template.ParseFS(completions, "completion/easel."+filepath.Base(args[0]))
	if err != nil {
		return usageErr(env, catalogue.F("completion: %q is not bash, zsh, fish or powershell", args[0]))
	}
	type command struct{ Name, Line string }
	data := struct {
		Words    string
		Commands []command
	}{Words: strings.Join(Commands, " ")}
	for _, c := range Commands {
		data.Commands = append(data.Commands, command{c, fishQuote(summary(c))})
	}
	return script.Execute(env.Stdout, data)
}

// fishQuote quotes s for fish.
func fishQuote(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}

// TakeLogLevel takes a leading --log-level LEVEL (or --log-level=LEVEL)
// off args, for the window and every command alike: `easel --log-level
// info gen …`. It returns the level named there, else fallback (the
// environment's EASEL_LOG_LEVEL).
func TakeLogLevel(args []string, fallback string) (string, []string) {
	level := fallback
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case (a == "--log-level" || a == "-log-level") && i+1 < len(args):
			level = args[i+1]
			args = append(args[:i:i], args[i+2:]...)
			i--
		case strings.HasPrefix(a, "--log-level=") || strings.HasPrefix(a, "-log-level="):
			level = a[strings.IndexByte(a, '=')+1:]
			args = append(args[:i:i], args[i+1:]...)
			i--
		case !strings.HasPrefix(a, "-"):
			return level, args // the command or a file: its own flags follow
		}
	}
	return level, args
}
