// Command easel is a designer's desktop studio for OpenAI-compatible image
// and chat services. With no arguments it opens the window; `easel gen`,
// `edit`, `chat`, `models` and `serve-demo` are the command line (see
// README.md).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"fyne.io/fyne/v2/app"

	_ "easel/internal/posixlocale" // before Fyne initialises: see the package doc

	"easel/internal/cli"
	"easel/internal/fakeapi"
	"easel/ui"
)

func main() {
	if len(os.Args) > 1 && cli.IsCommand(os.Args[1]) {
		os.Exit(cli.Run(os.Args[1:], cli.OSEnv()))
	}
	demo := flag.Bool("demo", false, "open the window on the built-in demo service")
	flag.Parse()

	opts := ui.Options{}
	if *demo {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		base, err := fakeapi.New(fakeapi.Config{Pace: fakeapi.DemoPace}).Listen(ctx, "127.0.0.1:0")
		if err != nil {
			fmt.Fprintln(os.Stderr, "easel: cannot start the demo service:", err)
			os.Exit(1)
		}
		opts.Demo, opts.BaseURL = true, base
	}
	ui.New(app.NewWithID(ui.AppID), opts).ShowAndRun()
}
