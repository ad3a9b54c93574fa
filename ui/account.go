package ui

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/config"
	"easel/internal/fakeapi"
	"easel/internal/secrets"
)

// account is which service the window talks to: the profiles file, the
// keyring, and the profile that is connected now.
type account struct {
	store *config.Store
	keys  *secrets.Keys
	file  config.File
	// current is the connected profile, client its service client; nil
	// until a profile is connected (or while its key is being read).
	current config.Profile
	client  *api.Client
	// note says why nothing is connected, where a send button would be.
	note string
	// demoURL is the in-process demo service, once started.
	demoURL string
	// consent holds plain-http consent given this session to profiles that
	// cannot record it (the Environment profile).
	consent map[string]bool
	// keyringErr is why the keyring failed, once it has.
	keyringErr error
}

// noServiceText is shown where a request would start when no service is
// set up yet.
const noServiceText = "No service is set up: add a profile in Settings (File ▸ Settings…), or use the built-in demo service (File ▸ Use the demo service)."

// demoProfile is the built-in demo service as a profile.
func demoProfile(base string) config.Profile {
	return config.Profile{ID: config.DemoID, Name: "Demo service", BaseURL: base, ReadOnly: true}
}

// startAccount reads the profiles and connects the one the window should
// open on: --profile, --demo, the active profile, the environment's, or
// none (the first-run dialog asks).
func (a *App) startAccount() {
	path := a.opts.ConfigPath
	if path == "" {
		var err error
		if path, err = config.DefaultPath(); err != nil {
			path = "profiles.json"
		}
	}
	a.acct.store = config.Open(path)
	a.acct.keys = a.opts.Keys
	if a.acct.keys == nil {
		a.acct.keys = secrets.New(secrets.OSKeyring{}, 0)
	}
	a.acct.consent = map[string]bool{}
	f, err := a.acct.store.Load()
	a.acct.file = f
	if err != nil {
		a.banner.show(bannerConfig, err.Error(), "", nil)
	}
	env, _, hasEnv := config.Environment(a.getenv)
	active, hasActive := f.ActiveProfile()
	readsKey := false
	switch {
	case a.opts.BaseURL != "":
		a.connect(demoProfile(a.opts.BaseURL), "")
	case a.opts.Demo:
		a.useDemo()
	case a.opts.Profile != "":
		if p, ok := a.findProfile(a.opts.Profile); ok {
			readsKey = a.activate(p)
		} else {
			a.setNote(fmt.Sprintf("No profile is called %q. Pick one below, or add it in Settings.", a.opts.Profile))
		}
	case f.Active == config.DemoID:
		a.useDemo()
	case hasActive:
		readsKey = a.activate(active)
	case f.Active == config.EnvironmentID && hasEnv, len(f.Profiles) == 0 && hasEnv:
		readsKey = a.activate(env)
	case len(f.Profiles) == 0:
		a.setNote(noServiceText)
		a.onWindow(a.showFirstRun)
	default:
		a.setNote("Pick a profile below to connect.")
	}
	// Reading a profile's key tells whether the keyring works (and raises
	// the banner when not); with no key to read, ask it once, so the
	// banner shows before a profile is added. One D-Bus call at start-up,
	// not two.
	if !readsKey {
		go a.checkKeyring()
	}
}

func (a *App) getenv(k string) string {
	if a.opts.Getenv != nil {
		return a.opts.Getenv(k)
	}
	return os.Getenv(k)
}

// profiles is every profile the window offers: the environment's, the
// file's, and the demo service.
func (a *App) profiles() []config.Profile {
	return append(config.All(a.acct.file, a.getenv), demoProfile(a.acct.demoURL))
}

func (a *App) findProfile(ref string) (config.Profile, bool) {
	for _, p := range a.profiles() {
		if p.ID == ref || strings.EqualFold(p.Name, ref) {
			return p, true
		}
	}
	return config.Profile{}, false
}

// checkKeyring asks the keyring whether it works, off the UI goroutine,
// and raises the banner when it does not.
func (a *App) checkKeyring() {
	err := a.acct.keys.Check(context.Background())
	if secrets.IsUnavailable(err) {
		a.bridge.Do(func() { a.keyringFailed(err) })
	}
}

// keyringFailed shows that keys cannot be kept in the keyring.
func (a *App) keyringFailed(err error) {
	a.acct.keyringErr = err
	a.wordKeyringBanner()
}

// wordKeyringBanner words the keyring banner for the connected profile:
// the demo and the environment's profile need no keyring, so only a
// stored profile is offered a key kept in memory for the session.
func (a *App) wordKeyringBanner() {
	err := a.acct.keyringErr
	if err == nil {
		return
	}
	text := "The system keyring is unavailable, so keys cannot be saved or read (" + shortCause(err) + "). "
	if p := a.acct.current; p.ID != "" && !p.ReadOnly {
		a.banner.show(bannerKeyring, text+"You can keep a key in memory for this session only.",
			"Enter a key for this session…", func() { a.askSessionKey(a.acct.current) })
		return
	}
	a.banner.show(bannerKeyring, text+"A profile you add or pick can keep its key in memory for this session.", "", nil)
}

func shortCause(err error) string {
	var u *secrets.UnavailableError
	if errors.As(err, &u) {
		return shorten(u.Cause.Error(), 90)
	}
	return shorten(err.Error(), 90)
}

// activate connects a profile: the demo starts its service, the
// environment's key is at hand, a stored profile's key is read from the
// keyring off the UI goroutine. It reports whether it reads the keyring.
func (a *App) activate(p config.Profile) (readsKey bool) {
	switch {
	case p.ID == config.DemoID:
		a.useDemo()
	case p.ID == config.EnvironmentID:
		_, key, _ := config.Environment(a.getenv)
		a.connectWithConsent(p, key)
	default:
		readsKey = true
		a.disconnect(fmt.Sprintf("Reading the key of %q from the system keyring…", p.Name))
		a.acct.current = p
		go func() {
			key, err := a.acct.keys.Get(context.Background(), p.ID)
			a.bridge.Do(func() {
				if a.acct.current.ID != p.ID {
					return // the user picked another profile meanwhile
				}
				switch {
				case err == nil:
					a.connectWithConsent(p, key)
				case errors.Is(err, secrets.ErrNoKey):
					a.connectWithConsent(p, "") // a local server, or a key still to add
				default:
					a.keyringFailed(err)
					a.setNote(fmt.Sprintf("The key of %q cannot be read: the system keyring is unavailable. Enter it for this session from the bar at the top.", p.Name))
				}
			})
		}()
	}
	a.rememberActive(p.ID)
	return readsKey
}

// rememberActive records the profile the window opens on next time.
func (a *App) rememberActive(id string) {
	if a.acct.store == nil || a.acct.file.Active == id {
		return
	}
	f, err := a.acct.store.Update(func(f *config.File) error { f.Active = id; return nil })
	if err == nil {
		a.acct.file = f
	}
}

// connectWithConsent asks before a key goes over plain http to another
// machine, then connects.
func (a *App) connectWithConsent(p config.Profile, key string) {
	if !p.NeedsPlainHTTPConsent(key) || a.acct.consent[p.ID] {
		a.connect(p, key)
		return
	}
	a.disconnect(fmt.Sprintf("%q is not connected: its key would travel unencrypted.", p.Name))
	a.acct.current = p
	a.askPlainHTTP(p, func() { a.connect(p, key) })
}

// askPlainHTTP warns that the key would cross the network in clear text;
// yes records the consent for the profile and runs then.
func (a *App) askPlainHTTP(p config.Profile, then func()) {
	host := p.BaseURL
	if u, err := url.Parse(p.BaseURL); err == nil {
		host = u.Host
	}
	d := dialog.NewConfirm("Send the key without encryption?",
		fmt.Sprintf("Profile %q talks to %s over plain http. Anyone on the network between this computer and %s can read its key and spend your balance.\n\nUse https if the server offers it. Send the key over http anyway for this profile?", p.Name, host, host),
		func(ok bool) {
			if !ok {
				return
			}
			a.acct.consent[p.ID] = true
			if !p.ReadOnly {
				p.PlainHTTPConfirmed = true
				a.saveProfile(p)
			}
			then()
		}, a.win)
	d.SetConfirmText("Send over http")
	d.SetDismissText("Cancel")
	a.onWindow(d.Show)
}

// saveProfile writes a changed profile to the file, reporting a failure.
func (a *App) saveProfile(p config.Profile) bool {
	f, err := a.acct.store.Update(func(f *config.File) error { return f.Put(p) })
	if err != nil {
		dialog.ShowError(err, a.win)
		return false
	}
	a.acct.file = f
	a.statusBar.refresh()
	return true
}

// connect makes p's client the one new jobs run on.
func (a *App) connect(p config.Profile, key string) {
	c := api.New(p.ClientConfig(key))
	a.acct.current, a.acct.client, a.acct.note = p, c, ""
	if a.svc.runner != nil {
		a.svc.runner.SetLimit(p.ID, p.MaxJobs)
	}
	a.onWindow(func() { a.win.SetTitle(windowTitle(p)) })
	ready := fmt.Sprintf("Connected to %q.", p.Name)
	if p.ID == config.DemoID {
		ready = "Using the built-in demo service: images are drawn locally, nothing is charged."
	}
	a.setServiceState(ready)
	a.statusBar.refresh()
	if a.banner.text(bannerKeyring) != "" { // still shown: reword it
		a.wordKeyringBanner()
	}
	a.applyProfileDefaults(p)
	a.refreshModels(false)
}

// applyProfileDefaults puts a profile's default models and image options
// into the built tabs.
func (a *App) applyProfileDefaults(p config.Profile) {
	for _, f := range []*imageOptionsForm{a.generate.options, a.edit.options} {
		if f != nil {
			f.applyDefaults(p.ImageModel, p.Image)
		}
	}
	if a.chat.model != nil && p.ChatModel != "" {
		a.chat.model.entry.SetText(p.ChatModel)
	}
}

// disconnect leaves no client connected, saying why.
func (a *App) disconnect(note string) {
	a.acct.client = nil
	a.setNote(note)
}

func (a *App) setNote(note string) {
	a.acct.note = note
	a.setServiceState(note)
	a.statusBar.refresh()
}

// setServiceState enables the send buttons of the built tabs when a
// client is connected, and shows text beside them.
func (a *App) setServiceState(text string) {
	ready := a.acct.client != nil && a.svc.runner != nil
	if a.svc.runner == nil && a.svc.libErr != nil {
		text = "The gallery folder could not be opened, so images could not be saved: " + a.svc.libErr.Error()
	}
	for _, t := range []struct {
		button interface {
			Enable()
			Disable()
		}
		status interface{ SetText(string) }
		built  bool
	}{
		{a.generate.generate, a.generate.status, a.generate.generate != nil},
		{a.edit.send, a.edit.status, a.edit.send != nil},
	} {
		if !t.built {
			continue
		}
		if ready {
			t.button.Enable()
		} else {
			t.button.Disable()
		}
		t.status.SetText(text)
	}
}

// serviceText is what a tab shows beside its send button when it is
// built: why nothing is connected, or nothing.
func (a *App) serviceText() string {
	if a.acct.client == nil {
		if a.acct.note != "" {
			return a.acct.note
		}
		return noServiceText
	}
	return ""
}

// useDemo (File ▸ Use the demo service) starts the built-in demo service
// in this process, once, and connects to it.
func (a *App) useDemo() {
	if a.acct.demoURL == "" {
		base, err := startDemoService()
		if err != nil {
			a.onWindow(func() {
				dialog.ShowError(fmt.Errorf("the demo service could not start: %w", err), a.win)
			})
			return
		}
		a.acct.demoURL = base
	}
	a.connect(demoProfile(a.acct.demoURL), "")
	a.rememberActive(config.DemoID)
}

// startDemoService runs the built-in demo service in this process, for
// the life of the process, and returns its base URL.
func startDemoService() (string, error) {
	return fakeapi.New(fakeapi.Config{Pace: fakeapi.DemoPace}).Listen(context.Background(), "127.0.0.1:0")
}

// askSessionKey asks for p's key and keeps it in memory only, for a
// keyring that cannot store it.
func (a *App) askSessionKey(p config.Profile) {
	if p.ID == "" || p.ReadOnly {
		dialog.ShowInformation("No profile to unlock",
			"Pick or add a profile first (File ▸ Settings…); its key can then be kept for this session.", a.win)
		return
	}
	entry := newKeyEntry()
	d := dialog.NewForm(fmt.Sprintf("Key for %q, this session only", p.Name), "Use key", "Cancel",
		[]*widget.FormItem{formItem("API key", entry, "Kept in memory until Easel quits; never written to disk. Leave empty for a local server that takes none.")},
		func(ok bool) {
			if !ok {
				return
			}
			a.acct.keys.KeepForSession(p.ID, entry.Text)
			a.connectWithConsent(p, entry.Text)
		}, a.win)
	d.Resize(fyne.NewSize(520, 0))
	d.Show()
	a.win.Canvas().Focus(entry)
}

func isNoKey(err error) bool { return errors.Is(err, secrets.ErrNoKey) }
