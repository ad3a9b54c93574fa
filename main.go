// Command easel is a designer's desktop studio for OpenAI-compatible image
// and chat services. With no arguments it opens the window; see README.md.
package main

import (
	"fyne.io/fyne/v2/app"

	"easel/ui"
)

func main() {
	ui.New(app.NewWithID(ui.AppID), ui.Options{}).ShowAndRun()
}
