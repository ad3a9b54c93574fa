package ui

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/config"
	"easel/internal/secrets"
)

// profileForm edits one profile: the first-run dialog shows its first
// rows, Settings all of them. The key field starts empty: a saved key is
// never shown again, only replaced.
type profileForm struct {
	app  *App
	orig config.Profile
	// newID is the id a new profile gets, fixed when the form opens so a
	// test and the save that follows speak of the same profile.
	newID string

	name, baseURL, key    *widget.Entry
	chatModel, imageModel *widget.SelectEntry
	size, quality, format *widget.Select
	timeout               *widget.Entry
	jobs                  *widget.Select
	test                  *widget.Button
	result                *widget.Label
	form                  *widget.Form
}

// newProfileForm fills a form from p; full adds the defaults and limits
// rows that Settings shows.
func newProfileForm(a *App, p config.Profile, full bool) *profileForm {
	f := &profileForm{app: a, orig: p, newID: config.NewID()}
	f.name = &widget.Entry{Text: p.Name, PlaceHolder: "e.g. OpenAI, Studio gateway, Local"}
	f.baseURL = &widget.Entry{Text: p.BaseURL, PlaceHolder: config.DefaultBaseURL}
	f.key = newKeyEntry()
	f.test = &widget.Button{Text: "Test connection", Icon: theme.ConfirmIcon(), OnTapped: f.testConnection}
	f.result = hintLabel("")
	keyHint := "Kept in the system keyring, never in a file. Leave empty for a local server that takes no key."
	f.form = widget.NewForm(
		formItem("Name", f.name, ""),
		formItem("Base URL", f.baseURL, "The address up to /v1, as the service documents it."),
		formItem("API key", f.key, keyHint),
	)
	if p.ID != "" && !p.ReadOnly {
		f.key.SetPlaceHolder("Saved key is kept — type to replace it")
	}
	if full {
		f.chatModel = widget.NewSelectEntry(nil)
		f.chatModel.SetText(p.ChatModel)
		f.chatModel.SetPlaceHolder("e.g. gpt-4.1")
		f.imageModel = widget.NewSelectEntry(nil)
		f.imageModel.SetText(p.ImageModel)
		f.imageModel.SetPlaceHolder("e.g. gpt-image-1")
		sizes := []string{"Form default"}
		for _, s := range sizePresets[:len(sizePresets)-1] {
			sizes = append(sizes, s.label)
		}
		f.size = widget.NewSelect(sizes, nil)
		f.size.SetSelected("Form default")
		for _, s := range sizePresets {
			if s.value != "" && s.value == p.Image.Size {
				f.size.SetSelected(s.label)
			}
		}
		f.quality = defaultSelect(qualityChoice, p.Image.Quality)
		f.format = defaultSelect(formatChoice, p.Image.OutputFormat)
		f.timeout = &widget.Entry{PlaceHolder: "10"}
		if p.TimeoutSeconds > 0 {
			f.timeout.SetText(strconv.Itoa(p.TimeoutSeconds / 60))
		}
		counts := make([]string, config.MaxJobsLimit)
		for i := range counts {
			counts[i] = strconv.Itoa(i + 1)
		}
		f.jobs = widget.NewSelect(counts, nil)
		f.jobs.SetSelected("3")
		if p.MaxJobs > 0 {
			f.jobs.SetSelected(strconv.Itoa(p.MaxJobs))
		}
		f.form.Append("Chat model", f.chatModel)
		f.form.Append("Image model", f.imageModel)
		f.form.Append("Default size", f.size)
		f.form.Append("Default quality", f.quality)
		f.form.Append("Default format", f.format)
		f.form.AppendItem(formItem("Time-out (min)", f.timeout, "Longest wait for one image; slow services need 10 or more."))
		f.form.AppendItem(formItem("Jobs at once", f.jobs, "More than the account allows only earns rate-limit errors."))
	}
	if p.ReadOnly {
		for _, e := range []*widget.Entry{f.name, f.baseURL, f.key} {
			e.Disable()
		}
		f.key.SetPlaceHolder("From OPENAI_API_KEY")
	}
	return f
}

// defaultSelect is a Select of a choice's labels plus "Form default".
func defaultSelect(c choice, value string) *widget.Select {
	s := widget.NewSelect(append([]string{"Form default"}, c.labels...), nil)
	s.SetSelected("Form default")
	for i, v := range c.values {
		if v == value {
			s.SetSelected(c.labels[i])
		}
	}
	return s
}

// profile reads the form into a profile, keeping orig's id and consent.
func (f *profileForm) profile() (config.Profile, error) {
	p := f.orig
	p.Name, p.BaseURL = strings.TrimSpace(f.name.Text), strings.TrimSpace(f.baseURL.Text)
	if p.BaseURL == "" {
		p.BaseURL = config.DefaultBaseURL
	}
	if f.chatModel != nil {
		p.ChatModel, p.ImageModel = strings.TrimSpace(f.chatModel.Text), strings.TrimSpace(f.imageModel.Text)
		p.Image.Size = ""
		for _, s := range sizePresets {
			if s.label == f.size.Selected {
				p.Image.Size = s.value
			}
		}
		p.Image.Quality = qualityChoice.value(f.quality.Selected)
		p.Image.OutputFormat = formatChoice.value(f.format.Selected)
		p.TimeoutSeconds = 0
		if t := strings.TrimSpace(f.timeout.Text); t != "" {
			min, err := strconv.Atoi(t)
			if err != nil || min < 1 {
				return p, fmt.Errorf("time-out: %q is not a whole number of minutes", t)
			}
			p.TimeoutSeconds = min * 60
		}
		p.MaxJobs, _ = strconv.Atoi(f.jobs.Selected)
	}
	if p.ID == "" {
		p.ID = f.newID
	}
	if !p.ReadOnly {
		if err := p.Validate(); err != nil {
			return p, err
		}
	}
	return p, nil
}

// typedKey is the key as typed; for an existing profile an empty field
// means "keep the saved key".
func (f *profileForm) typedKey() string { return strings.TrimSpace(f.key.Text) }

// keyForUse is the key a test or a connection uses: the typed one, else
// the saved one (read off the UI goroutine by the caller).
func (f *profileForm) keyForUse(ctx context.Context) (string, error) {
	if k := f.typedKey(); k != "" || f.orig.ID == "" {
		return k, nil
	}
	if f.orig.ReadOnly {
		_, key, _ := config.Environment(f.app.getenv)
		return key, nil
	}
	key, err := f.app.acct.keys.Get(ctx, f.orig.ID)
	if errors.Is(err, secrets.ErrNoKey) {
		return "", nil
	}
	return key, err
}

// testConnection lists the models with the form's address and key, and
// fills the model fields' choices with what it found.
func (f *profileForm) testConnection() {
	p, err := f.profile()
	if err != nil {
		f.showResult(err.Error(), widget.DangerImportance)
		return
	}
	f.showResult("Connecting…", widget.LowImportance)
	f.test.Disable()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		key, err := f.keyForUse(ctx)
		if err != nil {
			f.app.bridge.Do(func() { f.test.Enable(); f.showResult(err.Error(), widget.DangerImportance) })
			return
		}
		f.app.bridge.Do(func() {
			if p.NeedsPlainHTTPConsent(key) && !f.app.acct.consent[p.ID] {
				f.test.Enable()
				f.showResult("Not tested: the key would travel unencrypted.", widget.WarningImportance)
				f.app.askPlainHTTP(p, func() {
					f.orig.PlainHTTPConfirmed = true
					f.testConnection()
				})
				return
			}
			go f.listModels(p, key)
		})
	}()
}

func (f *profileForm) listModels(p config.Profile, key string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ms, err := api.New(p.ClientConfig(key)).Models(ctx)
	f.app.bridge.Do(func() {
		f.test.Enable()
		if err != nil {
			f.showResult(errorText(err), widget.DangerImportance)
			return
		}
		images, chats := api.ModelsFor(ms, api.EndpointImages), api.ModelsFor(ms, api.EndpointChat)
		f.showResult(fmt.Sprintf("Connected: %d models listed (%d for images, %d for chat).", len(ms), len(images), len(chats)), widget.SuccessImportance)
		if f.chatModel != nil {
			f.chatModel.SetOptions(chats)
			f.imageModel.SetOptions(images)
		}
		f.app.models.lists[p.ID] = ms
	})
}

func (f *profileForm) showResult(text string, imp widget.Importance) {
	f.result.Importance = imp
	f.result.SetText(text)
}

// save writes the profile and its typed key, then runs then with the
// saved profile. A keyring that cannot take the key is offered the
// session instead; plain http asks for consent first.
func (f *profileForm) save(then func(p config.Profile)) {
	p, err := f.profile()
	if err != nil {
		f.showResult(err.Error(), widget.DangerImportance)
		return
	}
	key := f.typedKey()
	if p.NeedsPlainHTTPConsent(key) && !f.app.acct.consent[p.ID] {
		f.app.askPlainHTTP(p, func() {
			f.orig.ID, f.orig.PlainHTTPConfirmed = p.ID, true
			f.save(then)
		})
		return
	}
	if !f.app.saveProfile(p) {
		return
	}
	f.orig = p
	if key == "" {
		then(p)
		return
	}
	f.showResult("Saving the key in the system keyring…", widget.LowImportance)
	go func() {
		err := f.app.acct.keys.Set(context.Background(), p.ID, key)
		f.app.bridge.Do(func() {
			if err == nil {
				f.key.SetText("")
				f.key.SetPlaceHolder("Saved key is kept — type to replace it")
				f.showResult("Saved; the key is in the system keyring.", widget.SuccessImportance)
				then(p)
				return
			}
			f.app.keyringFailed(err)
			d := dialog.NewConfirm("Keep the key for this session only?",
				"The system keyring is unavailable ("+shortCause(err)+"), so the key cannot be saved. Easel can keep it in memory until it quits; you will be asked again next time.",
				func(ok bool) {
					if ok {
						f.app.acct.keys.KeepForSession(p.ID, key)
						f.showResult("Saved; the key is kept for this session only.", widget.WarningImportance)
						then(p)
					}
				}, f.app.win)
			d.SetConfirmText("Keep for this session")
			d.Show()
		})
	}()
}
