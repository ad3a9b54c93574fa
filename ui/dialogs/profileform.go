package dialogs

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/secrets"
	"easel/internal/work"
	"easel/ui/imageform"
	"easel/ui/kit"
)

// ProfileForm edits one profile: the first-run dialog shows its first
// rows, Settings all of them. The key field starts empty: a saved key is
// never shown again, only replaced.
type ProfileForm struct {
	host Host
	orig config.Profile
	// newID is the id a new profile gets, fixed when the form opens so a
	// test and the save that follows speak of the same profile.
	newID string

	// Name, BaseURL and Key are the profile's first rows.
	Name, BaseURL, Key *widget.Entry
	// ChatModel and ImageModel are the profile's default models.
	ChatModel, ImageModel *widget.SelectEntry
	size, quality, format *widget.Select
	timeout               *widget.Entry
	// Jobs is how many jobs run at once on the profile.
	Jobs *widget.Select
	// Groups are the gateway account groups the profile holds keys for.
	Groups *groupsEditor
	// Prices are the profile's prices and budget, on their own tab.
	Prices *pricesEditor
	// Test is Test connection, Result its answer.
	Test   *widget.Button
	Result *widget.Label
	form   *widget.Form
	// initial is every field as the form opened or was last saved, to
	// tell unsaved changes.
	initial []string
}

// fields is every field's value, in order.
func (f *ProfileForm) fields() []string {
	out := []string{f.Name.Text, f.BaseURL.Text, f.Key.Text}
	if f.ChatModel != nil {
		out = append(out, f.ChatModel.Text, f.ImageModel.Text, f.size.Selected, f.quality.Selected,
			f.format.Selected, f.timeout.Text, f.Jobs.Selected)
		out = append(out, f.Groups.fields()...)
		out = append(out, f.Prices.fields()...)
	}
	return out
}

// Dirty reports whether the form holds changes that are not saved.
func (f *ProfileForm) Dirty() bool { return !slices.Equal(f.fields(), f.initial) }

// ConfirmDiscard runs close at once when nothing is unsaved; otherwise it
// asks first, keeping the form open by default.
func (f *ProfileForm) ConfirmDiscard(close func()) {
	if !f.Dirty() {
		close()
		return
	}
	name := strings.TrimSpace(f.Name.Text)
	if name == "" {
		name = catalogue.T("the new profile")
	}
	d := dialog.NewConfirm(catalogue.T("Discard unsaved changes?"),
		catalogue.F("The changes to %s are not saved. Discard them?", name),
		func(discard bool) {
			if discard {
				close()
			}
		}, f.host.Window())
	d.SetConfirmText(catalogue.T("Discard changes"))
	d.SetConfirmImportance(widget.DangerImportance)
	d.SetDismissText(catalogue.T("Keep editing"))
	d.Show()
}

// NewProfileForm fills a form from p; full adds the defaults and limits
// rows that Settings shows.
func NewProfileForm(h Host, p config.Profile, full bool) *ProfileForm {
	f := &ProfileForm{host: h, orig: p, newID: config.NewID()}
	f.Name = &widget.Entry{Text: p.Name, PlaceHolder: catalogue.T("e.g. OpenAI, Studio gateway, Local")}
	f.BaseURL = &widget.Entry{Text: p.BaseURL, PlaceHolder: config.DefaultBaseURL}
	f.Key = kit.KeyEntry()
	f.Test = &widget.Button{Text: catalogue.T("Test connection"), Icon: theme.ConfirmIcon(), OnTapped: f.TestConnection}
	f.Result = kit.HintLabel("")
	// The key field says where a typed key will be kept.
	keyHint := catalogue.T("Kept in the system keyring, never in a file. Leave empty for a local server that takes no key.")
	if h.Session().Keys().Err() != nil {
		keyHint = catalogue.T("The system keyring is unavailable: a key typed here is kept in memory for this session only, never in a file.")
	}
	f.form = widget.NewForm(
		kit.FormItem(catalogue.T("Name"), f.Name, ""),
		kit.FormItem(catalogue.T("Base URL"), f.BaseURL, catalogue.T("The address up to /v1, as the service documents it.")),
		kit.FormItem(catalogue.T("API key"), f.Key, keyHint),
	)
	if p.ID != "" && !p.ReadOnly {
		f.Key.SetPlaceHolder(keyPlaceholder(secrets.StateSaved))
	}
	if full {
		f.ChatModel = widget.NewSelectEntry(nil)
		f.ChatModel.SetText(p.ChatModel)
		f.ChatModel.SetPlaceHolder(catalogue.T("e.g. gpt-4.1"))
		f.ImageModel = widget.NewSelectEntry(nil)
		f.ImageModel.SetText(p.ImageModel)
		f.ImageModel.SetPlaceHolder(catalogue.T("e.g. gpt-image-1"))
		sizes := []string{formDefault()}
		for _, s := range imageform.SizePresets()[:len(imageform.SizePresets())-1] {
			sizes = append(sizes, s.Label)
		}
		f.size = widget.NewSelect(sizes, nil)
		f.size.SetSelected(formDefault())
		for _, s := range imageform.SizePresets() {
			if s.Value != "" && s.Value == p.Image.Size {
				f.size.SetSelected(s.Label)
			}
		}
		f.quality = defaultSelect(imageform.QualityChoice(), p.Image.Quality)
		f.format = defaultSelect(imageform.FormatChoice(), p.Image.OutputFormat)
		f.timeout = &widget.Entry{PlaceHolder: "10"}
		if p.TimeoutSeconds > 0 {
			f.timeout.SetText(strconv.Itoa(p.TimeoutSeconds / 60))
		}
		counts := make([]string, config.MaxJobsLimit)
		for i := range counts {
			counts[i] = strconv.Itoa(i + 1)
		}
		f.Jobs = widget.NewSelect(counts, nil)
		f.Jobs.SetSelected("3")
		if p.MaxJobs > 0 {
			f.Jobs.SetSelected(strconv.Itoa(p.MaxJobs))
		}
		f.form.Append(catalogue.T("Chat model"), f.ChatModel)
		f.form.Append(catalogue.T("Image model"), f.ImageModel)
		f.form.Append(catalogue.T("Default size"), f.size)
		f.form.Append(catalogue.T("Default quality"), f.quality)
		f.form.Append(catalogue.T("Default format"), f.format)
		f.form.AppendItem(kit.FormItem(catalogue.T("Time-out (min)"), f.timeout, catalogue.T("Longest wait for one image; slow services need 10 or more.")))
		f.form.AppendItem(kit.FormItem(catalogue.T("Jobs at once"), f.Jobs, catalogue.T("More than the account allows only earns rate-limit errors.")))
		f.Groups = newGroupsEditor(p)
		f.form.AppendItem(kit.FormItem(catalogue.T("Key's group"), f.Groups.Own, catalogue.T("Gateways (new-api, one-api) offer models and prices per account group; name this key's group to hold others.")))
		f.form.AppendItem(kit.FormItem(catalogue.T("Other groups"), f.Groups.Box, catalogue.T("A key for each further group of this gateway; pick the one in use beside the profile below the tabs.")))
		f.Prices = newPricesEditor(h, p)
	}
	if p.ReadOnly {
		for _, e := range []*widget.Entry{f.Name, f.BaseURL, f.Key} {
			e.Disable()
		}
		if f.Groups != nil {
			f.Groups.Own.Disable()
			f.Groups.add.Disable()
		}
		f.Key.SetPlaceHolder(catalogue.T("From OPENAI_API_KEY"))
	}
	f.initial = f.fields()
	return f
}

// formDefault is the choice that leaves the form's own default.
func formDefault() string { return catalogue.T("Form default") }

// defaultSelect is a Select of a choice's labels plus "Form default".
func defaultSelect(c imageform.Choice, value string) *widget.Select {
	s := widget.NewSelect(append([]string{formDefault()}, c.Labels...), nil)
	s.SetSelected(formDefault())
	for i, v := range c.Values {
		if v == value {
			s.SetSelected(c.Labels[i])
		}
	}
	return s
}

// profile reads the form into a profile, keeping orig's id and consent.
func (f *ProfileForm) profile() (config.Profile, error) {
	p := f.orig
	p.Name, p.BaseURL = strings.TrimSpace(f.Name.Text), strings.TrimSpace(f.BaseURL.Text)
	if p.BaseURL == "" {
		p.BaseURL = config.DefaultBaseURL
	}
	if f.ChatModel != nil {
		p.ChatModel, p.ImageModel = strings.TrimSpace(f.ChatModel.Text), strings.TrimSpace(f.ImageModel.Text)
		p.Image.Size = ""
		for _, s := range imageform.SizePresets() {
			if s.Label == f.size.Selected {
				p.Image.Size = s.Value
			}
		}
		p.Image.Quality = imageform.QualityChoice().Value(f.quality.Selected)
		p.Image.OutputFormat = imageform.FormatChoice().Value(f.format.Selected)
		p.TimeoutSeconds = 0
		if t := strings.TrimSpace(f.timeout.Text); t != "" {
			min, err := strconv.Atoi(t)
			if err != nil || min < 1 {
				return p, fmt.Errorf(catalogue.T("time-out: %q is not a whole number of minutes"), t)
			}
			p.TimeoutSeconds = min * 60
		}
		p.MaxJobs, _ = strconv.Atoi(f.Jobs.Selected)
		f.Groups.apply(&p)
		if err := f.Prices.apply(&p); err != nil {
			return p, err
		}
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
func (f *ProfileForm) typedKey() string { return strings.TrimSpace(f.Key.Text) }

// keyForUse is the key a test or a connection uses: typed, else the
// saved one of orig (the form's profile as it was opened). It is called
// off the UI goroutine with both read on it before, never the widgets.
func (f *ProfileForm) keyForUse(ctx context.Context, typed string, orig config.Profile) (string, error) {
	if typed != "" || orig.ID == "" {
		return typed, nil
	}
	if orig.ReadOnly {
		_, key, _ := config.Environment(f.host.Session().Getenv)
		return key, nil
	}
	return f.host.Session().Keys().Stored(ctx, orig.ID)
}

// TestConnection lists the models with the form's address and key, and
// fills the model fields' choices with what it found. The typed key and
// the profile are read here, on the UI goroutine; the keyring and the
// service are asked off it.
func (f *ProfileForm) TestConnection() {
	p, err := f.profile()
	if err != nil {
		f.ShowResult(err.Error(), widget.DangerImportance)
		return
	}
	typed, orig := f.typedKey(), f.orig
	f.ShowResult(catalogue.T("Connecting…"), widget.LowImportance)
	f.Test.Disable()
	f.host.Work().Go(func(window context.Context) {
		ctx, cancel := context.WithTimeout(window, 30*time.Second)
		defer cancel()
		key, err := f.keyForUse(ctx, typed, orig)
		if err != nil {
			f.host.Work().Do(func() { f.Test.Enable(); f.ShowResult(err.Error(), widget.DangerImportance) })
			return
		}
		f.host.Work().Do(func() {
			s := f.host.Session()
			if s.NeedsConsent(p, key) {
				f.Test.Enable()
				f.ShowResult(catalogue.T("Not tested: the key would travel unencrypted."), widget.WarningImportance)
				s.AskConsent(p, func(config.Profile) {
					f.orig.PlainHTTPConfirmed = true
					f.TestConnection()
				})
				return
			}
			f.host.Work().Go(func(ctx context.Context) { f.listModels(ctx, p, key) })
		})
	})
}

func (f *ProfileForm) listModels(ctx context.Context, p config.Profile, key string) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	ms, err := api.New(p.ClientConfig(key)).Models(ctx)
	f.host.Work().Do(func() {
		f.Test.Enable()
		if err != nil {
			f.ShowResult(kit.ErrorText(err), widget.DangerImportance)
			return
		}
		images, chats := api.ModelsFor(ms, api.EndpointImages), api.ModelsFor(ms, api.EndpointChat)
		f.ShowResult(catalogue.F("Connected: %d models listed (%d for images, %d for chat).", len(ms), len(images), len(chats)), widget.SuccessImportance)
		if f.ChatModel != nil {
			f.ChatModel.SetOptions(chats)
			f.ImageModel.SetOptions(images)
		}
		f.host.Session().SetModels(p.ID, ms)
	})
}

// ShowResult shows a line under Test connection.
func (f *ProfileForm) ShowResult(text string, imp widget.Importance) {
	f.Result.Importance = imp
	f.Result.SetText(text)
}

// Save writes the profile and its typed key, then runs then with the
// saved profile. A keyring that cannot take the key is offered the
// session instead; plain http asks for consent first.
func (f *ProfileForm) Save(then func(p config.Profile)) {
	p, err := f.profile()
	if err != nil {
		f.ShowResult(err.Error(), widget.DangerImportance)
		return
	}
	key := f.typedKey()
	s := f.host.Session()
	if s.NeedsConsent(p, key) {
		s.AskConsent(p, func(saved config.Profile) {
			f.orig.ID, f.orig.PlainHTTPConfirmed = saved.ID, true
			f.Save(then)
		})
		return
	}
	f.ShowResult(catalogue.T("Saving…"), widget.LowImportance)
	var groupSet map[string]string
	var groupDrop []string
	if f.Groups != nil {
		groupSet, groupDrop = f.Groups.groupKeys(f.orig, p)
	}
	s.SaveProfile(p, func() {
		f.orig = p
		f.initial = f.fields()
		finish := func(p config.Profile) {
			if len(groupSet) == 0 && len(groupDrop) == 0 {
				then(p)
				return
			}
			work.Run(f.host.Work(), func(ctx context.Context) error { return s.Keys().SaveGroups(ctx, groupSet, groupDrop) }, func(err error) {
				if err != nil {
					f.ShowResult(catalogue.T("Saved, but a group's key could not be kept in the system keyring: ")+ShortCause(err), widget.WarningImportance)
				} else {
					f.clearGroupKeys()
				}
				then(p)
			})
		}
		if key == "" {
			f.ShowResult(catalogue.T("Saved."), widget.SuccessImportance)
			finish(p)
			return
		}
		f.saveKey(p, key, finish)
	})
}

// clearGroupKeys empties the group key fields once their keys are saved.
func (f *ProfileForm) clearGroupKeys() {
	for _, r := range f.Groups.rows {
		r.saved = strings.TrimSpace(r.Name.Text)
		if r.Key.Text != "" {
			r.Key.SetText("")
			r.Key.SetPlaceHolder(catalogue.T("Key saved in the keyring — type to replace it"))
		}
	}
	f.initial = f.fields()
}

// saveKey puts the typed key in the keyring, off the UI goroutine.
func (f *ProfileForm) saveKey(p config.Profile, key string, then func(p config.Profile)) {
	s := f.host.Session()
	f.ShowResult(catalogue.T("Saving the key in the system keyring…"), widget.LowImportance)
	work.Run(f.host.Work(), func(ctx context.Context) error { return s.Keys().Save(ctx, p.ID, key) }, func(err error) {
		if err == nil {
			f.Key.SetText("")
			f.initial = f.fields()
			f.Key.SetPlaceHolder(keyPlaceholder(secrets.StateSaved))
			f.ShowResult(catalogue.T("Saved; the key is in the system keyring."), widget.SuccessImportance)
			then(p)
			return
		}
		s.Keys().Failed(err)
		d := dialog.NewConfirm(catalogue.T("Keep the key for this session only?"),
			catalogue.F("The system keyring is unavailable (%s), so the key cannot be saved. Easel can keep it in memory until it quits; you will be asked again next time.", ShortCause(err)),
			func(ok bool) {
				if ok {
					s.Keys().KeepForSession(p.ID, key)
					f.initial = f.fields()
					f.Key.SetPlaceHolder(keyPlaceholder(secrets.StateSession))
					f.ShowResult(catalogue.T("Saved; the key is kept for this session only."), widget.WarningImportance)
					then(p)
				}
			}, f.host.Window())
		d.SetConfirmText(catalogue.T("Keep for this session"))
		d.Show()
	})
}

// keyPlaceholder says, in the empty key field, where the profile's key
// is kept.
func keyPlaceholder(st secrets.State) string {
	switch st {
	case secrets.StateSession:
		return catalogue.T("Key kept for this session — type to replace it")
	case secrets.StateSaved:
		return catalogue.T("Key saved in the keyring — type to replace it")
	case secrets.StateNone:
		return catalogue.T("No key saved (fine for local servers)")
	default:
		return catalogue.T("The keyring is unavailable — a key typed here is kept for this session")
	}
}

// ShortCause is the keyring's own words for a failure, cut to a line.
func ShortCause(err error) string {
	var u *secrets.UnavailableError
	if errors.As(err, &u) {
		return kit.Shorten(u.Cause.Error(), 90)
	}
	return kit.Shorten(err.Error(), 90)
}

// KeyHint is the line under the key field: where a typed key is kept.
func (f *ProfileForm) KeyHint() string { return f.form.Items[2].HintText }
