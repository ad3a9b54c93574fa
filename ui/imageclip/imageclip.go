// Package imageclip puts an image on the system clipboard, as a PNG, so
// it pastes into another app (a chat, a slide, an editor). Fyne's
// clipboard carries text only; golang.design/x/clipboard speaks each
// desktop's own clipboard (X11, the Windows clipboard, NSPasteboard).
// On X11 the clipboard is served by this process: a copy pastes while
// Easel runs.
package imageclip

import (
	"bytes"
	"errors"
	"image/png"
	"sync"

	"golang.design/x/clipboard"

	"easel/internal/catalogue"
	"easel/internal/imageio"
)

var (
	initOnce sync.Once
	initErr  error
)

// ready starts the clipboard once; it fails without a display.
func ready() error {
	initOnce.Do(func() { initErr = clipboard.Init() })
	return initErr
}

// CopyImage puts the image in data (PNG, JPEG or WebP; what is not PNG
// is converted, as clipboards carry PNG) on the clipboard. Call it off
// the UI goroutine: converting a large image takes a moment.
func CopyImage(data []byte) error {
	if err := ready(); err != nil {
		return errors.New(catalogue.F("the clipboard cannot be reached: %v", err))
	}
	format, _, _, err := imageio.SniffImage(data)
	if err != nil {
		return err
	}
	if format != "png" {
		img, err := imageio.DecodeForScreen(data)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			return err
		}
		data = buf.Bytes()
	}
	clipboard.Write(clipboard.FmtImage, data)
	return nil
}
