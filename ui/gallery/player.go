package gallery

import (
	"bytes"
	"fmt"
	"image/png"
	"time"

	"easel/ui/widgets/iconbutton"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/export"
	"easel/internal/imageio"
	"easel/internal/library"
	"easel/ui/dialogs"
	"easel/ui/widgets/zoomview"
)

// player plays a GIF in the large view: its frames at their own pace,
// paused, stepped one by one, and each frame saved as a PNG of its own.
type player struct {
	host  Host
	view  *zoomview.View
	bar   *fyne.Container
	pause *iconbutton.Button
	label *widget.Label
	item  library.Item
	anim  imageio.Animation
	at    int
	// playing is set while frames advance; timer is the next frame's.
	playing bool
	timer   *time.Timer
}

func newPlayer(h Host, v *zoomview.View) *player {
	p := &player{host: h, view: v, label: widget.NewLabel("")}
	p.pause = iconbutton.New(catalogue.T("Pause or play"), theme.MediaPauseIcon(), p.toggle)
	prev := iconbutton.New(catalogue.T("Previous frame"), theme.MediaSkipPreviousIcon(), func() { p.stepFrame(-1) })
	next := iconbutton.New(catalogue.T("Next frame"), theme.MediaSkipNextIcon(), func() { p.stepFrame(1) })
	save := &widget.Button{Text: catalogue.T("Save this frame…"), Icon: theme.DocumentSaveIcon(), OnTapped: p.saveFrame}
	p.bar = container.NewHBox(p.pause, prev, next, p.label, save)
	p.bar.Hide()
	return p
}

// play starts it's animation, or hides the bar for an item without one.
func (p *player) play(it library.Item, a imageio.Animation) {
	p.stop()
	p.item, p.anim, p.at = it, a, 0
	if len(a.Frames) < 2 {
		p.bar.Hide()
		return
	}
	p.bar.Show()
	p.playing = true
	p.pause.SetIcon(theme.MediaPauseIcon())
	p.showFrame()
	p.schedule()
}

// schedule shows the next frame when this one's time is up.
func (p *player) schedule() {
	d := p.anim.Delays[p.at]
	p.timer = time.AfterFunc(d, func() {
		p.host.Work().Do(func() {
			if !p.playing {
				return
			}
			p.at = (p.at + 1) % len(p.anim.Frames)
			p.showFrame()
			p.schedule()
		})
	})
}

func (p *player) showFrame() {
	p.view.SetImage(p.anim.Frames[p.at], false)
	p.label.SetText(catalogue.F("Frame %d of %d · %d ms", p.at+1, len(p.anim.Frames), p.anim.Delays[p.at].Milliseconds()))
}

// stop ends the playing (the view closed, or another item shown).
func (p *player) stop() {
	p.playing = false
	if p.timer != nil {
		p.timer.Stop()
	}
}

func (p *player) toggle() {
	if p.playing {
		p.stop()
		p.pause.SetIcon(theme.MediaPlayIcon())
		return
	}
	p.playing = true
	p.pause.SetIcon(theme.MediaPauseIcon())
	p.schedule()
}

// stepFrame pauses and shows the frame d on.
func (p *player) stepFrame(d int) {
	if len(p.anim.Frames) == 0 {
		return
	}
	p.stop()
	p.pause.SetIcon(theme.MediaPlayIcon())
	p.at = (p.at + d + len(p.anim.Frames)) % len(p.anim.Frames)
	p.showFrame()
}

// saveFrame writes the frame shown as a PNG where the user picks, in
// Easel's own file picker.
func (p *player) saveFrame() {
	if len(p.anim.Frames) == 0 {
		return
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, p.anim.Frames[p.at]); err != nil {
		dialog.ShowError(err, p.host.Window())
		return
	}
	b := p.anim.Frames[p.at].Bounds()
	name := fmt.Sprintf("%s-%d-frame%d.png", export.NameWords(p.item), p.item.ID, p.at+1)
	dialogs.SaveAsSaying(p.host, api.Image{Data: buf.Bytes(), Format: "png", Width: b.Dx(), Height: b.Dy()}, name,
		catalogue.F("Frame %d of the GIF is written as a PNG.", p.at+1), nil)
}
