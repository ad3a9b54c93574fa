package library

import (
	"context"
	"image/color"
	"os"
	"path/filepath"
	"testing"
	"time"

	"easel/internal/honesty"
)

// What agrees with what is remembered adds to its count; what disagrees
// replaces it from one; each profile and model is its own; Forget drops
// one model's or a whole profile's.
func TestTraitsAreLearntPerProfileAndModel(t *testing.T) {
	l, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	t0 := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	ignored := []honesty.Check{{Trait: honesty.Stream, Honoured: false, Asked: "stream", Got: "json"}}
	for i := range 3 {
		if err := l.Memory().Learn(ctx, gen("p1", "gpt-image-1"), ignored, t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	_ = l.Memory().Learn(ctx, gen("p1", "dall-e-3"), []honesty.Check{{Trait: honesty.Stream, Honoured: true}}, t0)
	_ = l.Memory().Learn(ctx, gen("p2", "gpt-image-1"), []honesty.Check{{Trait: honesty.Count, Honoured: false, Asked: "4", Got: "1"}}, t0)

	k, err := l.Memory().Known(ctx, gen("p1", "gpt-image-1"))
	if err != nil || len(k) != 1 || k[0].Honoured || k[0].Times != 3 || !k[0].First.Equal(t0) || !k[0].Last.Equal(t0.Add(2*time.Minute)) {
		t.Fatalf("known %+v (%v)", k, err)
	}
	// The service changed: it streams now.
	_ = l.Memory().Learn(ctx, gen("p1", "gpt-image-1"), []honesty.Check{{Trait: honesty.Stream, Honoured: true}}, t0.Add(time.Hour))
	if k, _ = l.Memory().Known(ctx, gen("p1", "gpt-image-1")); !k[0].Honoured || k[0].Times != 1 || !k[0].First.Equal(t0.Add(time.Hour)) {
		t.Errorf("after a change: %+v", k)
	}
	if all, _ := l.Memory().Traits(ctx, "p1", ""); len(all) != 2 {
		t.Errorf("profile p1 holds %+v", all)
	}
	if err := l.Memory().Forget(ctx, "p1", "dall-e-3"); err != nil {
		t.Fatal(err)
	}
	if all, _ := l.Memory().Traits(ctx, "p1", ""); len(all) != 1 || all[0].Model != "gpt-image-1" {
		t.Errorf("after forgetting one model: %+v", all)
	}
	_ = l.Memory().Forget(ctx, "p1", "")
	if all, _ := l.Memory().Traits(ctx, "p1", ""); len(all) != 0 {
		t.Errorf("after forgetting the profile: %+v", all)
	}
	if other, _ := l.Memory().Traits(ctx, "p2", ""); len(other) != 1 {
		t.Errorf("another profile's memory went too: %+v", other)
	}
}

// gen is the service key of profile's own key generating with model.
func gen(profile, model string) ServiceKey {
	return ServiceKey{Profile: profile, Model: model, Endpoint: EndpointGenerate}
}

// A gateway serves each key's group and each endpoint through its own
// channels: a relay group's key that forces one image says nothing of the
// default group's key, nor of edits; what was learnt before keys were
// told apart (AnyKey) holds until a key learns its own.
func TestTraitsAreKeptPerKeyAndEndpoint(t *testing.T) {
	l, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	t0 := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	relay := ServiceKey{Profile: "p", Group: "relay", Model: "gpt-image-1", Endpoint: EndpointGenerate}
	one := []honesty.Check{{Trait: honesty.Count, Honoured: false, Asked: "2", Got: "1"}}
	if err := l.Memory().Learn(ctx, relay, one, t0); err != nil {
		t.Fatal(err)
	}
	if k, _ := l.Memory().Known(ctx, relay); len(k) != 1 || k[0].Honoured {
		t.Errorf("the relay key's own memory: %+v", k)
	}
	def := relay
	def.Group = "default"
	if k, _ := l.Memory().Known(ctx, def); len(k) != 0 {
		t.Errorf("the default key inherited the relay's traits: %+v", k)
	}
	edits := relay
	edits.Endpoint = EndpointEdit
	if k, _ := l.Memory().Known(ctx, edits); len(k) != 0 {
		t.Errorf("edits inherited what generations showed: %+v", k)
	}
	old := ServiceKey{Profile: "p", Group: AnyKey, Model: "gpt-image-1", Endpoint: AnyKey}
	_ = l.Memory().Learn(ctx, old, []honesty.Check{{Trait: honesty.Stream, Honoured: false}}, t0)
	if k, _ := l.Memory().Known(ctx, def); len(k) != 1 || k[0].Trait != honesty.Stream {
		t.Errorf("what was learnt for any key holds for the default key: %+v", k)
	}
	_ = l.Memory().Learn(ctx, def, []honesty.Check{{Trait: honesty.Stream, Honoured: true}}, t0.Add(time.Hour))
	if k, _ := l.Memory().Known(ctx, def); len(k) != 1 || !k[0].Honoured {
		t.Errorf("the key's own memory wins over the old one: %+v", k)
	}
}

// An item keeps what its answer did of what was asked.
func TestItemKeepsItsHonesty(t *testing.T) {
	l, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	report := honesty.Report{Checks: []honesty.Check{{Trait: honesty.Mask, Changed: 0.48}}, Restored: true}
	id, err := l.Add(context.Background(), NewItem{Image: pngOf(t, 4, 4, color.NRGBA{1, 2, 3, 255}), Kind: "edit", Prompt: "p", Honesty: report})
	if err != nil {
		t.Fatal(err)
	}
	it, err := l.Get(context.Background(), id)
	if err != nil || len(it.Honesty.Checks) != 1 || it.Honesty.Checks[0].Changed != 0.48 || !it.Honesty.Restored {
		t.Errorf("kept %+v (%v)", it.Honesty, err)
	}
}

// The command line opens the library without repairing it (a walk of
// every image): what a crash left stays for the window's next start.
func TestOpenWithoutRepairLeavesRecoveryToTheWindow(t *testing.T) {
	dir := t.TempDir()
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	half := filepath.Join(dir, "images", "2026-11", "20261124-190000-aabbccddeeff.png.123.tmp")
	if err := os.MkdirAll(filepath.Dir(half), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(half, []byte("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	cli, err := OpenWithoutRepair(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := cli.Memory().Learn(context.Background(), gen("p", "m"), []honesty.Check{{Trait: honesty.Stream}}, time.Now()); err != nil {
		t.Errorf("the command line cannot remember: %v", err)
	}
	cli.Close()
	if _, err := os.Stat(half); err != nil {
		t.Fatalf("opening without repair repaired: %v", err)
	}
	l, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	if _, err := os.Stat(half); err == nil {
		t.Error("the window's open did not repair")
	}
}

// A library at version 9 keeps what its services were seen to do, for
// any key and endpoint of the profile and model, and its balances, for
// the profile's own key (schema 10).
func TestUpgradeFromV9KeepsTraitsForEveryKey(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lib")
	copyTree(t, filepath.Join("testdata", "v9", "library"), dir)
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	for _, k := range []ServiceKey{KeyFor("p-0a1b2c3d4e5f", "", "gpt-image-1", false), KeyFor("p-0a1b2c3d4e5f", "vip", "gpt-image-1", true)} {
		if known, err := l.Memory().Known(ctx, k); err != nil || len(known) != 2 {
			t.Errorf("%+v after the upgrade: %+v %v", k, known, err)
		}
	}
	all, _ := l.Memory().Traits(ctx, "p-0a1b2c3d4e5f", "")
	for _, tr := range all {
		if tr.Group != AnyKey || tr.Endpoint != AnyKey {
			t.Errorf("an old trait was given a key: %+v", tr)
		}
	}
	if b, ok, err := l.Ledger().BalanceOf(ctx, "p-0a1b2c3d4e5f", ""); err != nil || !ok || b.Credit != 25 || b.Used != 3.5 {
		t.Errorf("the balance: %+v %v %v", b, ok, err)
	}
	if e, _ := l.Ledger().Entries(ctx, time.Time{}); len(e) != 2 || e[0].Billing != "" || e[0].Group != "" {
		t.Errorf("the ledger: %+v", e)
	}
}
