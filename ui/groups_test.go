package ui

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"easel/internal/api"
	"easel/internal/config"
	"easel/internal/demoservice"
	"easel/internal/library"
	"easel/internal/secrets"
	"easel/internal/secrets/secretstest"
	"easel/ui/jobview"
)

// A profile with keys for two groups of one gateway: a model only the
// other group has is answered with the group named, and the card offers
// to send with the key of the group that lists it; the status bar picks
// the group in use, and the model list follows its key.
func TestAnotherGroupsKeyIsOfferedAndPicked(t *testing.T) {
	const defaultKey, vipKey = "sk-ui-group-default-0123456789", "sk-ui-group-vip-0123456789"
	ts := httptest.NewServer(demoservice.New(demoservice.Config{Groups: map[string]demoservice.Group{
		defaultKey: {Name: "default", Models: []string{"gpt-image-1-mini", "gpt-4o-mini"}},
		vipKey:     {Name: "vip", Models: []string{"gpt-image-1", "gpt-image-1-mini", "gpt-4.1"}},
	}}))
	t.Cleanup(ts.Close)
	dir := t.TempDir()
	path := filepath.Join(dir, "profiles.json")
	p := config.Profile{ID: "p-gateway", Name: "Gateway", BaseURL: ts.URL + "/v1", Group: "default", Groups: []string{"vip"}, ImageModel: "gpt-image-1-mini"}
	if _, err := config.Open(path).Update(func(f *config.File) error { f.Active = p.ID; return f.Put(p) }); err != nil {
		t.Fatal(err)
	}
	backend := secretstest.NewMemory()
	keys := secrets.New(backend, 0)
	_ = keys.Set(context.Background(), p.KeyAccount("default"), defaultKey)
	_ = keys.Set(context.Background(), p.KeyAccount("vip"), vipKey)
	ea := newApp(t, test.NewTempApp(t), isolated(t, Options{ConfigPath: path, Keys: keys}))
	t.Cleanup(ea.win.Close)
	onUI(ea, func() { ea.SelectTab(TabGenerate) })
	waitFor(t, ea, "the default group's models", func() bool { return modelsKnown(ea) })
	onUI(ea, func() {
		if ms, _ := ea.session.Models(); slices.Contains(api.ModelIDs(ms), "gpt-image-1") {
			t.Errorf("the default group lists %v", api.ModelIDs(ms))
		}
		if !ea.status.bar.Group.Visible() || !slices.Equal(ea.status.bar.Group.Options, []string{"default", "vip"}) || ea.status.bar.Group.Selected != "default" {
			t.Errorf("group picker: %v %v %q", ea.status.bar.Group.Visible(), ea.status.bar.Group.Options, ea.status.bar.Group.Selected)
		}
	})

	onUI(ea, func() {
		ea.generate.Prompt().SetText("a lighthouse only vip may draw")
		ea.generate.Options().Model.Entry.SetText("gpt-image-1")
		test.Tap(ea.generate.Button())
	})
	waitFor(t, ea, "the unknown-model warning", func() bool { return findButton(ea.win, "Send anyway") != nil })
	onUI(ea, func() { tap(t, ea.win, "Send anyway") })
	waitFor(t, ea, "the offer", func() bool {
		cards := ea.generate.Jobs().Cards()
		if len(cards) == 0 {
			return false
		}
		_, shown := cards[0].OtherGroupOffer()
		return shown
	})
	var card *jobview.Card
	onUI(ea, func() {
		card = ea.generate.Jobs().Cards()[0]
		if text, _ := card.OtherGroupOffer(); text != "Send with group vip's key" || !strings.Contains(card.Status.Text, "Not offered to the group default") {
			t.Errorf("card %q offers %q", card.Status.Text, text)
		}
		// The name is right: no close names, the group is the cause.
		if h := card.Hint(); !strings.Contains(h, `this profile's key of group "vip" lists it`) || strings.Contains(h, "Closest") {
			t.Errorf("the card's hint: %q", h)
		}
	})
	onUI(ea, card.SendWithOtherGroup)
	waitFor(t, ea, "the image sent with vip's key", func() bool {
		n, _ := ea.lib.Count(context.Background(), library.Query{Search: "vip"})
		return n == 1
	})
	// It is billed (and learnt) as the vip key's.
	waitFor(t, ea, "the vip key's ledger entry", func() bool {
		entries, _ := ea.lib.Ledger().Entries(context.Background(), time.Time{})
		return len(entries) == 1 && entries[0].Group == "vip"
	})

	onUI(ea, func() { ea.status.bar.Group.SetSelected("vip") })
	waitFor(t, ea, "the vip group's models", func() bool {
		ms, _ := ea.session.Models()
		return slices.Contains(api.ModelIDs(ms), "gpt-4.1")
	})
	if f, _ := config.Open(path).Load(); f.Profiles[0].ActiveGroup != "vip" {
		t.Errorf("the group in use is not remembered: %+v", f.Profiles[0])
	}
}

// Settings name the profile key's group and add another group with its
// key: the profile lists the group, the key goes to the keyring under the
// profile and the group, and the field is emptied once it is saved.
func TestSettingsAddAGroupWithItsKey(t *testing.T) {
	base := keyedFake(t)
	backend := secretstest.NewMemory()
	ea := newServedAppWith(t, Options{Keys: secrets.New(backend, 0)})
	onUI(ea, func() {
		ea.showSettings()
		f := ea.settings.Form
		f.Name.SetText("Gateway")
		f.BaseURL.SetText(base)
		test.Type(f.Key, testKey)
		f.Groups.Own.SetText("default")
		f.Groups.AddGroup("vip", "sk-vip-key-0123456789")
		test.Tap(ea.settings.Use)
	})
	waitFor(t, ea, "the profile", func() bool { return ea.session.Current().Name == "Gateway" })
	var p config.Profile
	onUI(ea, func() { p = ea.session.Current() })
	if p.Group != "default" || !slices.Equal(p.Groups, []string{"vip"}) {
		t.Fatalf("profile %+v", p)
	}
	waitFor(t, ea, "the vip key in the keyring", func() bool {
		key, err := backend.Get(secrets.Service, p.KeyAccount("vip"))
		return err == nil && key == "sk-vip-key-0123456789"
	})
	if own, _ := backend.Get(secrets.Service, p.ID); own != testKey {
		t.Errorf("the profile's own key: %q", own)
	}
}

// newProfileAppWith opens a window on stored profile p (not the demo,
// which charges nothing; its id, name and base URL filled in) of a fresh
// fake service, on Text to image with its model list known, and returns
// the profiles file's path.
func newProfileAppWith(t *testing.T, p config.Profile) (*App, string) {
	t.Helper()
	ts := httptest.NewServer(demoservice.New(demoservice.Config{}))
	t.Cleanup(ts.Close)
	path := filepath.Join(t.TempDir(), "profiles.json")
	p.ID, p.Name, p.BaseURL = "p-priced", "Priced", ts.URL+"/v1"
	if _, err := config.Open(path).Update(func(f *config.File) error { f.Active = p.ID; return f.Put(p) }); err != nil {
		t.Fatal(err)
	}
	ea := newApp(t, test.NewTempApp(t), isolated(t, Options{ConfigPath: path}))
	t.Cleanup(ea.win.Close)
	onUI(ea, func() { ea.SelectTab(TabGenerate) })
	waitFor(t, ea, "the model list", func() bool { return len(ea.generate.Options().Model.Listed()) > 0 })
	return ea, path
}
