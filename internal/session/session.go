// Package session is which service the window talks to: the profiles
// file, the keys, the profile connected now and its client, the consent
// given to send a key over plain http, and each profile's model list. It
// is the window's account logic without the window: a Session decides,
// its Observer (the window) draws and asks the user, and every answer
// that arrives from a goroutine (a key read from the keyring, a model
// list) comes back through the post function the window gives it, so a
// Session is used from one goroutine only and is tested without Fyne.
package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/demoservice"
	"easel/internal/secrets"
)

// NoServiceText is shown where a request would start when no service is
// set up yet.
func NoServiceText() string {
	return catalogue.T("No service is set up: add a profile in Settings (File ▸ Settings…), or use the built-in demo service (File ▸ Use the demo service).")
}

// DemoReadyText is the note of the connected demo service.
func DemoReadyText() string {
	return catalogue.T("Using the built-in demo service: drawn locally, priced at list prices, never charged.")
}

// modelListTimeout bounds one fetch of a model list.
const modelListTimeout = 30 * time.Second

// Observer is what a Session tells and asks the window. Every call comes
// on the Session's own goroutine (directly, or through post).
type Observer interface {
	// Changed says the connected profile, its client or the note changed.
	Changed()
	// ModelsChanged says the connected profile's model list arrived or
	// failed.
	ModelsChanged()
	// KeyringFailed says the keyring cannot keep or read keys.
	KeyringFailed(err error)
	// AskPlainHTTP asks whether p's key may cross the network in clear
	// text; then runs if the user agrees (after the Session records it).
	AskPlainHTTP(p config.Profile, agreed func())
	// FirstRun asks a user with no profile to add one.
	FirstRun()
	// Failed reports something the user asked for that could not be done.
	Failed(err error)
}

// Options say where a Session keeps its profiles and keys, and which
// profile it opens on.
type Options struct {
	// ConfigPath is the profiles file; "" is the user's config folder.
	ConfigPath string
	// Keys is where keys are kept; nil is the OS keyring.
	Keys *secrets.Keys
	// Getenv reads OPENAI_BASE_URL and OPENAI_API_KEY; nil is os.Getenv.
	Getenv func(string) string
	// Demo opens on the built-in demo service.
	Demo bool
	// BaseURL opens on a keyless service at this address, as the demo
	// profile (tests point it at their own fake service).
	BaseURL string
	// Profile opens on this profile, by name or id.
	Profile string
	// StartDemo starts the built-in demo service and returns its base
	// URL; nil runs the demo service in this process.
	StartDemo func() (string, error)
}

// Session is the connected service and everything that chooses it. Use
// it from one goroutine (the UI's); it reports back through post.
type Session struct {
	opts  Options
	obs   Observer
	post  func(func())
	store *config.Store
	// keyring holds the profiles' keys; keys is its store.
	keyring *Keyring
	keys    *secrets.Keys
	file    config.File

	// current is the connected profile, client its service client; nil
	// until a profile is connected (or while its key is being read).
	current config.Profile
	client  *api.Client
	// note says why nothing is connected, where a send button would be.
	note string
	// demoURL is the in-process demo service, once started.
	demoURL string
	// consent holds plain-http consent given this session to profiles
	// that cannot record it (the Environment profile).
	consent map[string]bool
	// loadErr is why the profiles file could not be read at start.
	loadErr error

	models    map[string][]api.Model
	modelErrs map[string]error
	// work counts the goroutines under way (file writes, key reads, model
	// lists), for Wait.
	work sync.WaitGroup
}

// goBackground runs f on a goroutine that Wait waits for.
func (s *Session) goBackground(f func()) {
	s.work.Add(1)
	go func() {
		defer s.work.Done()
		f()
	}()
}

// Wait waits for the Session's goroutines: a profile being written, a key
// being read, a model list being fetched. Their answers may still be
// posted afterwards.
func (s *Session) Wait() { s.work.Wait() }

// New makes a Session on its profiles file and keys; post runs a function
// on the Session's goroutine (the window's bridge), and obs is told of
// every change. Nothing is connected until Start.
func New(opts Options, obs Observer, post func(func())) *Session {
	path := opts.ConfigPath
	if path == "" {
		var err error
		if path, err = config.DefaultPath(); err != nil {
			path = "profiles.json"
		}
	}
	keys := opts.Keys
	if keys == nil {
		keys = secrets.New(secrets.OSKeyring{}, 0)
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.StartDemo == nil {
		opts.StartDemo = startDemoService
	}
	return &Session{opts: opts, obs: obs, post: post, store: config.Open(path), keys: keys,
		keyring: &Keyring{keys: keys, failed: obs.KeyringFailed},
		consent: map[string]bool{}, models: map[string][]api.Model{}, modelErrs: map[string]error{}}
}

// Start reads the profiles and connects the one the window should open
// on: --profile, --demo, the active profile, the environment's, or none
// (the first-run dialog asks). It returns the error that kept the
// profiles file from being read, if any; Easel then starts without it.
func (s *Session) Start() error {
	f, err := s.store.Load()
	s.file, s.loadErr = f, err
	env, _, hasEnv := config.Environment(s.opts.Getenv)
	active, hasActive := f.ActiveProfile()
	readsKey := false
	switch {
	case s.opts.BaseURL != "":
		s.connect(DemoProfile(s.opts.BaseURL), "")
	case s.opts.Demo:
		s.UseDemo()
	case s.opts.Profile != "":
		if p, ok := s.Find(s.opts.Profile); ok {
			readsKey = s.Activate(p)
		} else {
			s.SetNote(catalogue.F("No profile is called %q. Pick one below, or add it in Settings.", s.opts.Profile))
		}
	case f.Active == config.DemoID:
		s.UseDemo()
	case hasActive:
		readsKey = s.Activate(active)
	case f.Active == config.EnvironmentID && hasEnv, len(f.Profiles) == 0 && hasEnv:
		readsKey = s.Activate(env)
	case len(f.Profiles) == 0:
		s.SetNote(NoServiceText())
		s.obs.FirstRun()
	default:
		s.SetNote(catalogue.T("Pick a profile below to connect."))
	}
	// Reading a profile's key tells whether the keyring works (and
	// raises the banner when not); with no key to read, ask it once, so
	// the banner shows before a profile is added. One D-Bus call at
	// start-up, not two.
	if !readsKey {
		s.goBackground(func() {
			if err := s.keys.Check(context.Background()); secrets.IsUnavailable(err) {
				s.post(func() { s.keyring.Failed(err) })
			}
		})
	}
	return err
}

// DemoProfile is the built-in demo service as a profile.
func DemoProfile(base string) config.Profile {
	return config.Profile{ID: config.DemoID, Name: catalogue.T("Demo service"), BaseURL: base, ReadOnly: true}
}

// Current is the connected profile (or the one whose key is being read).
func (s *Session) Current() config.Profile { return s.current }

// Client is the connected profile's service client; nil when nothing is
// connected.
func (s *Session) Client() *api.Client { return s.client }

// Getenv reads the environment the Session was given.
func (s *Session) Getenv(k string) string { return s.opts.Getenv(k) }

// Text is what a tab shows beside its send button: why nothing is
// connected, or "" when a service is.
func (s *Session) Text() string {
	if s.client == nil {
		if s.note != "" {
			return s.note
		}
		return NoServiceText()
	}
	return ""
}

// StatusText is the connected service's address, or why there is none.
func (s *Session) StatusText() string {
	if s.client != nil {
		return s.current.BaseURL
	}
	return s.Text()
}

// ReadyText is the note shown beside a send button once connected.
func (s *Session) ReadyText() string {
	if s.client == nil {
		return s.Text()
	}
	if s.current.ID == config.DemoID {
		return DemoReadyText()
	}
	return catalogue.F("Connected to “%s”.", s.current.Name)
}

// File is the profiles file as last read or written.
func (s *Session) File() config.File { return s.file }

// Profiles is every profile the window offers: the environment's, the
// file's, and the demo service.
func (s *Session) Profiles() []config.Profile {
	return append(config.All(s.file, s.opts.Getenv), DemoProfile(s.demoURL))
}

// Find looks a profile up by id or name (case folded).
func (s *Session) Find(ref string) (config.Profile, bool) {
	for _, p := range s.Profiles() {
		if p.ID == ref || strings.EqualFold(p.Name, ref) {
			return p, true
		}
	}
	return config.Profile{}, false
}

// Activate connects a profile: the demo starts its service, the
// environment's key is at hand, a stored profile's key is read from the
// keyring off the Session's goroutine. It reports whether it reads the
// keyring.
func (s *Session) Activate(p config.Profile) (readsKey bool) {
	switch {
	case p.ID == config.DemoID:
		s.UseDemo()
	case p.ID == config.EnvironmentID:
		_, key, _ := config.Environment(s.opts.Getenv)
		s.ConnectWithConsent(p, key)
	default:
		readsKey = true
		s.client = nil
		s.current = p
		s.SetNote(catalogue.F("Reading the key of %q from the system keyring…", p.Name))
		s.goBackground(func() {
			key, err := s.keys.Get(context.Background(), p.ActiveAccount())
			s.post(func() { s.keyRead(p, key, err) })
		})
	}
	s.rememberActive(p.ID)
	return readsKey
}

// keyRead connects p once its key has been read.
func (s *Session) keyRead(p config.Profile, key string, err error) {
	if s.current.ID != p.ID || s.current.ActiveAccount() != p.ActiveAccount() {
		return // the user picked another profile or group meanwhile
	}
	switch {
	case err == nil:
		s.ConnectWithConsent(p, key)
	case errors.Is(err, secrets.ErrNoKey):
		s.ConnectWithConsent(p, "") // a local server, or a key still to add
	case config.IsLocal(p.BaseURL):
		// A server on this machine usually takes no key: connect
		// without one rather than leave the profile unusable.
		s.keyring.Failed(err)
		s.ConnectWithConsent(p, "")
	default:
		s.keyring.Failed(err)
		s.SetNote(catalogue.F("The key of %q cannot be read: the system keyring is unavailable. Enter it for this session from the bar at the top.", p.Name))
	}
}

// rememberActive records the profile the window opens on next time.
func (s *Session) rememberActive(id string) {
	if s.file.Active == id {
		return
	}
	s.update(func(f *config.File) error { f.Active = id; return nil }, nil)
}

// update changes the profiles file off the Session's goroutine (it locks
// and fsyncs) and records the result; done, if given, runs after a
// successful write.
func (s *Session) update(change func(*config.File) error, done func()) {
	s.goBackground(func() {
		f, err := s.store.Update(change)
		s.post(func() {
			if err != nil {
				s.obs.Failed(err)
				return
			}
			s.file = f
			s.obs.Changed()
			if done != nil {
				done()
			}
		})
	})
}

// Prefer writes an app-wide choice (the language, the drift limit) to
// the profiles file, which the command line reads too; done runs once it
// is written.
func (s *Session) Prefer(change func(f *config.File), done func()) {
	s.update(func(f *config.File) error {
		change(f)
		return nil
	}, done)
}

// ConnectWithConsent asks before a key goes over plain http to another
// machine, then connects.
func (s *Session) ConnectWithConsent(p config.Profile, key string) {
	if !s.NeedsConsent(p, key) {
		s.connect(p, key)
		return
	}
	s.client = nil
	s.current = p
	s.SetNote(catalogue.F("%q is not connected: its key would travel unencrypted.", p.Name))
	s.AskConsent(p, func(p config.Profile) { s.connect(p, key) })
}

// NeedsConsent reports whether p's key must be agreed to before it is
// sent over plain http.
func (s *Session) NeedsConsent(p config.Profile, key string) bool {
	return p.NeedsPlainHTTPConsent(key) && !s.consent[p.ID]
}

// AskConsent asks the user about plain http for p; on yes it runs then
// with the profile as agreed to, at once, and records the consent (in
// the profiles file, in the background, when the profile is stored).
func (s *Session) AskConsent(p config.Profile, then func(config.Profile)) {
	s.obs.AskPlainHTTP(p, func() {
		s.consent[p.ID] = true
		if !p.ReadOnly && p.ID != "" {
			p.PlainHTTPConfirmed = true
			s.SaveProfile(p, nil)
		}
		then(p)
	})
}

// SaveProfile writes a changed profile to the file (off the Session's
// goroutine); done runs once it is written. A failure goes to Failed.
func (s *Session) SaveProfile(p config.Profile, done func()) {
	s.update(func(f *config.File) error { return f.Put(p) }, done)
}

// DeleteProfile removes a profile and its key. It disconnects first when
// p is the connected profile. done gets the key's deletion error, if
// any: the profile is gone, and the user should know a key may remain.
func (s *Session) DeleteProfile(p config.Profile, done func(keyErr error)) {
	s.update(func(f *config.File) error { f.Remove(p.ID); return nil }, func() {
		if s.current.ID == p.ID {
			s.current = config.Profile{}
			s.Disconnect(catalogue.T("The profile in use was deleted. Pick another below."))
		}
		s.goBackground(func() {
			err := s.keys.Delete(context.Background(), p.ID)
			for _, g := range p.Groups {
				if gerr := s.keys.Delete(context.Background(), p.KeyAccount(g)); gerr != nil && !errors.Is(gerr, secrets.ErrNoKey) && err == nil {
					err = gerr
				}
			}
			s.post(func() { done(err) })
		})
	})
}

// connect makes p's client the one new jobs run on.
func (s *Session) connect(p config.Profile, key string) {
	s.current, s.client, s.note = p, api.New(p.ClientConfig(key)), ""
	s.obs.Changed()
	s.RefreshModels(false)
}

// Disconnect leaves no client connected, saying why.
func (s *Session) Disconnect(note string) {
	s.client = nil
	s.SetNote(note)
}

// SetNote says why nothing is connected.
func (s *Session) SetNote(note string) {
	s.note = note
	s.obs.Changed()
}

// UseDemo (File ▸ Use the demo service) starts the built-in demo service
// in this process, once, and connects to it.
func (s *Session) UseDemo() {
	if s.demoURL == "" {
		base, err := s.opts.StartDemo()
		if err != nil {
			s.obs.Failed(fmt.Errorf(catalogue.T("the demo service could not start: %w"), err))
			return
		}
		s.demoURL = base
	}
	s.connect(DemoProfile(s.demoURL), "")
	s.rememberActive(config.DemoID)
}

// startDemoService runs the built-in demo service in this process, for
// the life of the process, and returns its base URL.
func startDemoService() (string, error) {
	return demoservice.New(demoservice.Config{Pace: demoservice.DemoPace}).Listen(context.Background(), "127.0.0.1:0")
}

// UseSessionKey keeps p's key in memory for this session (a keyring that
// cannot store it) and connects with it.
func (s *Session) UseSessionKey(p config.Profile, key string) {
	s.keys.KeepForSession(p.ActiveAccount(), key)
	s.ConnectWithConsent(p, key)
}

// Models is the connected profile's model list and the error of its last
// fetch; both nil while it is unknown.
func (s *Session) Models() ([]api.Model, error) {
	return s.models[s.current.ActiveAccount()], s.modelErrs[s.current.ActiveAccount()]
}

// UseGroup switches the connected profile to the key of one of its
// groups (its own key for "" or its own group), remembers the choice in
// the profiles file, and reconnects: the model list follows the key.
func (s *Session) UseGroup(group string) {
	p := s.current
	if p.ID == "" || p.ReadOnly || p.UsingGroup() == group {
		return
	}
	p.ActiveGroup = group
	if !p.HasGroup(group) {
		p.ActiveGroup = ""
	}
	s.SaveProfile(p, nil)
	s.Activate(p)
}

// SetModels records a list fetched elsewhere (Settings' Test connection)
// for a profile.
func (s *Session) SetModels(profileID string, ms []api.Model) {
	s.models[profileID] = ms
	delete(s.modelErrs, profileID)
	if profileID == s.current.ID {
		s.obs.ModelsChanged()
	}
}

// RefreshModels fetches the connected profile's model list off the
// Session's goroutine; without force a list already fetched is reused.
func (s *Session) RefreshModels(force bool) {
	p, c := s.current, s.client
	if c == nil {
		return
	}
	// Each group's key may list other models: the list follows the key.
	account := p.ActiveAccount()
	if _, ok := s.models[account]; ok && !force {
		s.obs.ModelsChanged()
		return
	}
	s.goBackground(func() {
		ctx, cancel := context.WithTimeout(context.Background(), modelListTimeout)
		defer cancel()
		ms, err := c.Models(ctx)
		s.post(func() {
			if err == nil {
				s.models[account] = ms
				delete(s.modelErrs, account)
			} else if _, ok := s.models[account]; !ok {
				s.modelErrs[account] = err
			}
			if s.current.ActiveAccount() == account {
				s.obs.ModelsChanged()
			}
		})
	})
}
