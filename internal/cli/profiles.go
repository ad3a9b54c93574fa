package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"golang.org/x/term"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/secrets"
	"easel/internal/session"
)

// target is the --profile and --allow-plain-http flags every command that
// talks to the service takes.
type target struct {
	profile    string
	group      string
	allowPlain bool
}

func (t *target) register(fs *flag.FlagSet) {
	fs.StringVar(&t.profile, "profile", "", catalogue.T("profile name (default: OPENAI_* when set, else the active profile)"))
	fs.StringVar(&t.group, "group", "", catalogue.T("the gateway account group whose key to use (default: the profile's group in use)"))
	fs.BoolVar(&t.allowPlain, "allow-plain-http", false, catalogue.T("send the key over plain http to a host that is not this machine, this once"))
}

// resolve picks the profile and its key: --profile when given, else the
// environment's OPENAI_* when set, else the active profile.
func (t *target) resolve(ctx context.Context, env Env) (config.Profile, string, error) {
	envProfile, envKey, hasEnv := config.Environment(env.Getenv)
	ref := t.profile
	if ref == "" && hasEnv || strings.EqualFold(ref, config.EnvironmentID) {
		if !hasEnv {
			return config.Profile{}, "", errors.New(catalogue.T("the Environment profile needs OPENAI_BASE_URL or OPENAI_API_KEY to be set"))
		}
		return t.consent(envProfile, envKey)
	}
	f, err := loadProfiles(env)
	if err != nil {
		return config.Profile{}, "", err
	}
	var p config.Profile
	var ok bool
	if ref == "" {
		if p, ok = f.ActiveProfile(); !ok {
			return config.Profile{}, "", errors.New(catalogue.T("no profile is set up: add one with `easel profile add --name NAME --base-url URL` and `easel key set`, or set OPENAI_BASE_URL and OPENAI_API_KEY"))
		}
	} else if p, ok = f.Find(ref); !ok {
		return config.Profile{}, "", fmt.Errorf(catalogue.T("no profile is called %q; `easel profile list` shows them"), ref)
	}
	account := p.ActiveAccount()
	if t.group != "" {
		if t.group != p.Group && !p.HasGroup(t.group) {
			return config.Profile{}, "", fmt.Errorf(catalogue.T("profile %q holds no key for group %q; its groups: %s (add one with `easel key set --group %s`)"), p.Name, t.group, strings.Join(groupNames(p), ", "), t.group)
		}
		account = p.KeyAccount(t.group)
		p.ActiveGroup = t.group // this run's key in use
	}
	key, err := env.Keys.Get(ctx, account)
	switch {
	case errors.Is(err, secrets.ErrNoKey):
		key = "" // local servers take none
	case err != nil:
		return config.Profile{}, "", fmt.Errorf(catalogue.T("%w; set OPENAI_BASE_URL and OPENAI_API_KEY for this shell instead"), err)
	}
	return t.consent(p, key)
}

func (t *target) consent(p config.Profile, key string) (config.Profile, string, error) {
	if p.NeedsPlainHTTPConsent(key) && !t.allowPlain {
		return config.Profile{}, "", fmt.Errorf(catalogue.T("profile %q would send its key unencrypted over plain http to %s; use https, confirm once with --allow-plain-http, or for good in the window's Settings"), p.Name, p.BaseURL)
	}
	return p, key, nil
}

// client makes the service client of the resolved profile.
func (t *target) client(ctx context.Context, env Env) (*api.Client, config.Profile, error) {
	p, key, err := t.resolve(ctx, env)
	if err != nil {
		return nil, config.Profile{}, err
	}
	cfg := p.ClientConfig(key)
	cfg.OnWait = func(d time.Duration) {
		fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("the service asks to wait %s before another request; waiting, then sending once more", catalogue.Duration(d)))
	}
	return api.New(cfg), p, nil
}

// runProfile is `easel profile list|add|use|remove`.
func runProfile(ctx context.Context, args []string, env Env) error {
	if len(args) == 0 {
		return usageErr(env, catalogue.T("profile needs one of: list, add, use, remove"))
	}
	if asksHelp(args[0]) {
		fmt.Fprintln(env.Stdout, catalogue.T("usage: easel profile list|add|use|remove; easel profile ACTION --help lists its flags"))
		return nil
	}
	switch args[0] {
	case "list":
		return profileList(ctx, args[1:], env)
	case "add":
		return profileAdd(args[1:], env)
	case "use":
		return profileUse(args[1:], env)
	case "remove":
		return profileRemove(ctx, args[1:], env)
	}
	return usageErr(env, catalogue.T("profile: unknown action %q; use list, add, use or remove"), args[0])
}

func profileList(ctx context.Context, args []string, env Env) error {
	if err := parse(newFlags("profile list", env), args); err != nil {
		return err
	}
	// What could be read is listed; what could not is said, and the exit
	// status tells a script the file needs attention.
	f, loadErr := env.Profiles.Load()
	w := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	for _, p := range config.All(f, env.Getenv) {
		mark := " "
		if p.ID == f.Active {
			mark = "*"
		}
		key := catalogue.T("key from OPENAI_API_KEY")
		if !p.ReadOnly {
			key = keyState(ctx, env, p.ID)
		}
		if len(p.Groups) > 0 || p.Group != "" {
			// A gateway's keys, one per account group: each with its
			// state, the one in use marked.
			var parts []string
			for _, g := range p.KeyGroups() {
				label := g
				if label == "" {
					label = catalogue.T("own key")
				}
				if g == p.UsingGroup() {
					label += catalogue.T(" (in use)")
				}
				parts = append(parts, label+": "+keyState(ctx, env, p.KeyAccount(g)))
			}
			key = catalogue.F("groups %s", strings.Join(parts, "; "))
		}
		fmt.Fprintf(w, "%s %s\t%s\t%s\n", mark, p.Name, p.BaseURL, key)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return loadErr
}

// loadProfiles reads the profiles file for a command that goes on with
// what could be read: an unreadable file or unusable values are said on
// stderr (the file itself is left as it is), other errors stop it.
func loadProfiles(env Env) (config.File, error) {
	if env.Profiles == nil {
		return config.File{}, errors.New(catalogue.T("no profiles file"))
	}
	f, err := env.Profiles.Load()
	var corrupt *config.CorruptError
	var problems *config.ProblemsError
	if errors.As(err, &corrupt) || errors.As(err, &problems) {
		fmt.Fprintln(env.Stderr, "easel: "+oneLine(err.Error()))
		return f, nil
	}
	return f, err
}

func keyState(ctx context.Context, env Env, id string) string {
	switch env.Keys.State(ctx, id) {
	case secrets.StateSaved, secrets.StateSession:
		return catalogue.T("key saved")
	case secrets.StateNone:
		return catalogue.T("no key")
	default:
		return catalogue.T("keyring unavailable")
	}
}

func profileAdd(args []string, env Env) error {
	fs := newFlags("profile add", env)
	var p config.Profile
	fs.StringVar(&p.Name, "name", "", catalogue.T("profile name (required)"))
	fs.StringVar(&p.BaseURL, "base-url", config.DefaultBaseURL, catalogue.T("service address, ending in /v1"))
	fs.StringVar(&p.ChatModel, "chat-model", "", catalogue.T("default chat model"))
	fs.StringVar(&p.ImageModel, "image-model", "", catalogue.T("default image model"))
	timeout := fs.Duration("timeout", 0, catalogue.T("longest wait for one image request, e.g. 10m (default: 10m)"))
	fs.IntVar(&p.MaxJobs, "jobs", 0, catalogue.T("jobs at once on this account (default 3)"))
	fs.BoolVar(&p.PlainHTTPConfirmed, "allow-plain-http", false, catalogue.T("agree to send the key over plain http to a host that is not this machine"))
	use := fs.Bool("use", false, catalogue.T("make it the active profile"))
	if err := parse(fs, args); err != nil {
		return err
	}
	p.ID, p.TimeoutSeconds = config.NewID(), int(*timeout/time.Second)
	_, err := env.Profiles.Update(func(f *config.File) error {
		if err := f.Put(p); err != nil {
			return err
		}
		if *use || f.Active == "" {
			f.Active = p.ID
		}
		return nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("profile %q added; save its key with: easel key set --profile %q", p.Name, p.Name))
	return nil
}

func profileUse(args []string, env Env) error {
	fs := newFlags("profile use", env)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageErr(env, catalogue.T("usage: easel profile use NAME"))
	}
	_, err := env.Profiles.Update(func(f *config.File) error {
		p, ok := f.Find(fs.Arg(0))
		if !ok {
			return fmt.Errorf(catalogue.T("no profile is called %q"), fs.Arg(0))
		}
		f.Active = p.ID
		return nil
	})
	return err
}

func profileRemove(ctx context.Context, args []string, env Env) error {
	fs := newFlags("profile remove", env)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageErr(env, catalogue.T("usage: easel profile remove NAME"))
	}
	var removed config.Profile
	_, err := env.Profiles.Update(func(f *config.File) error {
		p, ok := f.Remove(fs.Arg(0))
		if !ok {
			return fmt.Errorf(catalogue.T("no profile is called %q"), fs.Arg(0))
		}
		removed = p
		return nil
	})
	if err != nil {
		return err
	}
	if err := env.Keys.Delete(ctx, removed.ID); err != nil {
		return fmt.Errorf(catalogue.T("profile %q removed, but its key could not be deleted: %w"), removed.Name, err)
	}
	return nil
}

// runKey is `easel key set|delete [--profile NAME]`; the key is read from
// standard input, never from the command line, where other users and the
// shell's history would see it.
func runKey(ctx context.Context, args []string, env Env) error {
	if len(args) > 0 && asksHelp(args[0]) {
		fmt.Fprintln(env.Stdout, catalogue.T("usage: easel key set|delete [--profile NAME] (set reads the key from standard input)"))
		return nil
	}
	if len(args) == 0 || (args[0] != "set" && args[0] != "delete") {
		return usageErr(env, catalogue.T("usage: easel key set|delete [--profile NAME] (set reads the key from standard input)"))
	}
	fs := newFlags("key "+args[0], env)
	ref := fs.String("profile", "", catalogue.T("profile name (default: the active profile)"))
	group := fs.String("group", "", catalogue.T("the gateway account group this key belongs to; a new one is added to the profile"))
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr(env, catalogue.T("key %s takes no arguments: the key is read from standard input"), args[0])
	}
	f, err := loadProfiles(env)
	if err != nil {
		return err
	}
	p, ok := f.ActiveProfile()
	if *ref != "" {
		p, ok = f.Find(*ref)
	}
	switch {
	case strings.EqualFold(*ref, config.EnvironmentID):
		return errors.New(catalogue.T("the Environment profile takes its key from OPENAI_API_KEY, not from the keyring"))
	case !ok && *ref != "":
		return fmt.Errorf(catalogue.T("no profile is called %q; `easel profile list` shows them"), *ref)
	case !ok:
		return errors.New(catalogue.T("no active profile: name one with --profile, or add one with `easel profile add`"))
	}
	g := strings.TrimSpace(*group)
	if args[0] == "delete" {
		return deleteKey(ctx, env, p, g)
	}
	if g != "" && g != p.Group && !p.HasGroup(g) {
		// A key of another group of the same gateway: the profile learns
		// the group first, so the key has its place.
		q := p
		if q.Group == "" && len(q.Groups) == 0 {
			q.Group = g // the profile's own key, now labelled
		} else {
			q.Groups = append(q.Groups, g)
		}
		if err := q.Validate(); err != nil {
			return err
		}
		if _, err := env.Profiles.Update(func(f *config.File) error { return f.Put(q) }); err != nil {
			return err
		}
		p = q
	}
	key, err := readKey(env, p.Name)
	if err != nil {
		return err
	}
	if err := env.Keys.Set(ctx, p.KeyAccount(g), key); err != nil {
		return fmt.Errorf(catalogue.T("the key was not saved: %w"), err)
	}
	if g != "" {
		fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("key saved in the system keyring for profile %q, group %q", p.Name, g))
	} else {
		fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("key saved in the system keyring for profile %q", p.Name))
	}
	return nil
}

// groupNames lists a profile's groups for a message.
func groupNames(p config.Profile) []string {
	var out []string
	for _, g := range p.KeyGroups() {
		if g == "" {
			g = "(its own key)"
		}
		out = append(out, g)
	}
	return out
}

// readKey reads one line: without echo from a terminal, as is from a pipe.
func readKey(env Env, name string) (string, error) {
	var line string
	if f, ok := env.Stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprint(env.Stderr, catalogue.F("Key for profile %q (not shown): ", name))
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(env.Stderr)
		if err != nil {
			return "", fmt.Errorf(catalogue.T("cannot read the key: %w"), err)
		}
		line = string(b)
	} else {
		s, err := bufio.NewReader(env.Stdin).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return "", fmt.Errorf(catalogue.T("cannot read the key: %w"), err)
		}
		line = s
	}
	key := strings.TrimSpace(line)
	if key == "" {
		return "", errors.New(catalogue.T("no key on standard input; pipe it in, e.g. `easel key set < key.txt`"))
	}
	return key, nil
}

// groupHint adds to a "no channel for this model in your group" answer
// which of the profile's other groups lists the model, if one does: the
// user holds that group's key, and --group sends with it.
func groupHint(ctx context.Context, env Env, p config.Profile, model string, err error) error {
	var e *api.Error
	if !errors.As(err, &e) || e.Kind != api.KindUnknownModel || len(p.Groups) == 0 {
		return err
	}
	if g, _, ok := session.GroupListing(ctx, env.Keys, p, model); ok {
		e.InAnotherGroup(model, g)
		e.Hint += catalogue.F(" This profile's group %q lists %q: send again with --group %s.", g, model, g)
	}
	return err
}

// deleteKey removes p's key of group g from the keyring (its own key
// when g is "" or its own group), and the group from the profile.
func deleteKey(ctx context.Context, env Env, p config.Profile, g string) error {
	if g == "" || g == p.Group || !p.HasGroup(g) {
		return env.Keys.Delete(ctx, p.ID)
	}
	if err := env.Keys.Delete(ctx, p.KeyAccount(g)); err != nil {
		return err
	}
	_, err := env.Profiles.Update(func(f *config.File) error {
		q, _ := f.Find(p.ID)
		q.Groups = slices.DeleteFunc(q.Groups, func(x string) bool { return x == g })
		if q.ActiveGroup == g {
			q.ActiveGroup = ""
		}
		return f.Put(q)
	})
	return err
}

// asksHelp reports an argument that asks for a command's usage.
func asksHelp(arg string) bool {
	return arg == "--help" || arg == "-h" || arg == "-help" || arg == "help"
}
