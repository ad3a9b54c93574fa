package chat

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/conversations"
	"easel/internal/pricing"
	"easel/internal/spend"
	"easel/internal/work"
	"easel/ui/kit"
	"easel/ui/modelpick"
)

// settingsForm is a conversation's own settings (model, system prompt,
// temperature, max tokens) and the presets that fill the system prompt.
// It shows a conversation's settings and reads them back; the
// conversation is the Room's.
type settingsForm struct {
	host Host
	// stores has the conversations' store (where presets are), nil
	// until open.
	stores interface{ Store() *conversations.Store }

	model      *modelpick.Picker
	system     *widget.Entry
	presets    *widget.Select
	presetList []conversations.Preset
	temp       *widget.Entry
	maxTok     *widget.Entry
}

// noPreset is the preset choice that leaves the system prompt as typed.
func noPreset() string { return catalogue.T("No preset") }

// newSettingsForm makes the model picker and the folded settings: the
// system prompt and its presets, temperature and max tokens, each sent
// only when set.
func newSettingsForm(h Host, stores interface{ Store() *conversations.Store }) (*settingsForm, fyne.CanvasObject) {
	t := &settingsForm{host: h, stores: stores}
	t.model = t.host.Models().New(api.EndpointChat, catalogue.T("Chat model, e.g. gpt-4o-mini"), t.host.Service().Current().ChatModel)
	t.system = widget.NewMultiLineEntry()
	t.system.SetPlaceHolder(catalogue.T("System prompt: how the assistant should answer (optional)"))
	t.system.Wrapping = fyne.TextWrapWord
	t.system.SetMinRowsVisible(3)
	t.presets = widget.NewSelect(nil, t.applyPreset)
	t.presets.PlaceHolder = catalogue.T("Presets")
	savePreset := &widget.Button{Text: catalogue.T("Save as preset…"), Icon: theme.DocumentSaveIcon(), OnTapped: t.savePreset}
	t.temp = widget.NewEntry()
	t.temp.SetPlaceHolder(catalogue.T("not sent (the model's default)"))
	t.temp.Validator = func(s string) error {
		if strings.TrimSpace(s) == "" {
			return nil
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || v < 0 || v > 2 {
			return errors.New(catalogue.T("a number from 0 to 2"))
		}
		return nil
	}
	t.maxTok = widget.NewEntry()
	t.maxTok.SetPlaceHolder(catalogue.T("not sent (no limit)"))
	t.maxTok.Validator = func(s string) error {
		if strings.TrimSpace(s) == "" {
			return nil
		}
		if n, err := strconv.Atoi(strings.TrimSpace(s)); err != nil || n < 1 {
			return errors.New(catalogue.T("a whole number above 0"))
		}
		return nil
	}
	form := widget.NewForm(
		widget.NewFormItem(catalogue.T("System"), t.system),
		widget.NewFormItem(catalogue.T("Preset"), container.NewBorder(nil, nil, nil, savePreset, t.presets)),
		widget.NewFormItem(catalogue.T("Temperature"), t.temp),
		widget.NewFormItem(catalogue.T("Max tokens"), t.maxTok),
	)
	return t, widget.NewAccordion(widget.NewAccordionItem(catalogue.T("Settings: system prompt, temperature, max tokens"), form))
}

// show fills the fields from conversation c.
func (t *settingsForm) show(c conversations.Conversation) {
	t.model.SetText(c.Model)
	t.system.SetText(c.System)
	t.temp.SetText("")
	if c.Temperature != nil {
		t.temp.SetText(strconv.FormatFloat(*c.Temperature, 'g', -1, 64))
	}
	t.maxTok.SetText("")
	if c.MaxTokens != nil {
		t.maxTok.SetText(strconv.Itoa(*c.MaxTokens))
	}
	t.loadPresets()
}

// read is conversation c with the fields' values.
func (t *settingsForm) read(c conversations.Conversation) (conversations.Conversation, error) {
	c.Model, c.System = t.model.Text(), t.system.Text
	c.Temperature, c.MaxTokens = nil, nil
	if s := strings.TrimSpace(t.temp.Text); s != "" {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || v < 0 || v > 2 {
			return c, fmt.Errorf(catalogue.T("the temperature %q is not a number from 0 to 2: correct it or leave it empty"), s)
		}
		c.Temperature = &v
	}
	if s := strings.TrimSpace(t.maxTok.Text); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return c, fmt.Errorf(catalogue.T("the max tokens %q is not a whole number above 0: correct it or leave it empty"), s)
		}
		c.MaxTokens = &n
	}
	return c, nil
}

// estimate is what a message of text with images images will cost at
// p's prices, sent after the branch path with these settings; the
// reply's length is not known, so it is a range.
func (t *settingsForm) estimate(p config.Profile, path []conversations.Message, text string, images int) pricing.Estimate {
	req := api.ChatRequest{Model: t.model.Text(), Messages: []api.Message{{Role: api.RoleSystem, Content: t.system.Text}}}
	for _, m := range path {
		req.Messages = append(req.Messages, api.Message{Role: m.Role, Content: m.Content})
	}
	req.Messages = append(req.Messages, api.Message{Role: api.RoleUser, Content: text, Images: make([]api.InputImage, images)})
	if n, err := strconv.Atoi(strings.TrimSpace(t.maxTok.Text)); err == nil && n > 0 {
		req.MaxTokens = &n
	}
	return spend.Chat(p.Prices, req)
}

func sameSettings(a, b conversations.Conversation) bool {
	eqF := (a.Temperature == nil) == (b.Temperature == nil) && (a.Temperature == nil || *a.Temperature == *b.Temperature)
	eqI := (a.MaxTokens == nil) == (b.MaxTokens == nil) && (a.MaxTokens == nil || *a.MaxTokens == *b.MaxTokens)
	return a.Model == b.Model && a.System == b.System && eqF && eqI
}

// loadPresets lists the presets off the UI goroutine.
func (t *settingsForm) loadPresets() {
	store := t.stores.Store()
	if store == nil {
		t.showPresets([]conversations.Preset{conversations.PromptWriter})
		return
	}
	work.Load(t.host.Work(), store.Presets, func(ps []conversations.Preset, err error) {
		if err != nil {
			ps = []conversations.Preset{conversations.PromptWriter}
		}
		t.showPresets(ps)
	})
}

func (t *settingsForm) showPresets(ps []conversations.Preset) {
	t.presetList = ps
	names := []string{noPreset()}
	for _, p := range ps {
		names = append(names, p.Name)
	}
	t.presets.Options = names
	t.presets.Selected = ""
	for _, p := range ps {
		if p.System == t.system.Text && p.System != "" {
			t.presets.Selected = p.Name
		}
	}
	t.presets.Refresh()
}

// applyPreset puts a preset's system prompt in the field.
func (t *settingsForm) applyPreset(name string) {
	if name == noPreset() {
		t.system.SetText("")
		return
	}
	for _, p := range t.presetList {
		if p.Name == name && t.system.Text != p.System {
			t.system.SetText(p.System)
		}
	}
}

// savePreset asks for a name and saves the system prompt under it.
func (t *settingsForm) savePreset() {
	if strings.TrimSpace(t.system.Text) == "" {
		dialog.ShowInformation(catalogue.T("No system prompt"), catalogue.T("Write a system prompt first: a preset keeps it to use again."), t.host.Window())
		return
	}
	if t.stores.Store() == nil {
		return
	}
	name := kit.NewDialogEntry()
	d := dialog.NewForm(catalogue.T("Save as preset"), catalogue.T("Save"), catalogue.T("Cancel"), []*widget.FormItem{widget.NewFormItem(catalogue.T("Name"), name)}, func(ok bool) {
		if !ok {
			return
		}
		system, store := t.system.Text, t.stores.Store()
		work.Run(t.host.Work(), func(ctx context.Context) error { return store.SavePreset(ctx, name.Text, system) }, func(err error) {
			if err != nil {
				dialog.ShowError(err, t.host.Window())
				return
			}
			t.loadPresets()
		})
	}, t.host.Window())
	kit.AnswerKeys(d, name)
	d.Resize(fyne.NewSize(420, d.MinSize().Height))
	d.Show()
	t.host.Window().Canvas().Focus(name)
}

// fileName makes a title a file's name: letters, digits, dashes.
func fileName(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range title {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteRune('-')
			dash = true
		}
		if b.Len() >= 60 {
			break
		}
	}
	s := strings.Trim(b.String(), "-")
	if s == "" {
		return "conversation"
	}
	return s
}
