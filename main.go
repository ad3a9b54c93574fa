// Command easel is a designer's desktop studio for OpenAI-compatible image
// and chat services. With no arguments it opens the window; `easel gen`,
// `edit`, `chat`, `models`, `profile`, `key` and `serve-demo` are the command line (see
// README.md).
package main

import (
	"flag"
	"os"

	"fyne.io/fyne/v2/app"

	_ "easel/internal/posixlocale" // before Fyne initialises: see the package doc

	"easel/internal/cli"
	"easel/ui"
)

func main() {
	if len(os.Args) > 1 && cli.IsCommand(os.Args[1]) {
		os.Exit(cli.Run(os.Args[1:], cli.OSEnv()))
	}
	demo := flag.Bool("demo", false, "open the window on the built-in demo service")
	profile := flag.String("profile", "", "open the window on this profile (see `easel profile list`)")
	flag.Parse()

	a := app.NewWithID(ui.AppID)
	// Before anything reaches the driver: Fyne reads the migrations once.
	app.SetMetadata(ui.WithFyneDo(a.Metadata()))
	ui.Run(a, ui.Options{Demo: *demo, Profile: *profile})
}
