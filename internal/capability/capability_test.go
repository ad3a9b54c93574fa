package capability

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func day(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

// Every shipped family says where its facts come from and when: a fact
// of unknown origin would be shown as fact.
func TestEveryShippedFamilyHasASourceAndADate(t *testing.T) {
	fams := Shipped().Families()
	if len(fams) < 6 {
		t.Fatalf("%d families shipped", len(fams))
	}
	for _, s := range fams {
		if s.Source == "" || s.Date == "" {
			t.Errorf("%s has no source or date", s.Family)
		}
		if _, err := time.Parse(time.DateOnly, s.Date); err != nil {
			t.Errorf("%s: date %q is not a day: %v", s.Family, s.Date, err)
		}
		if s.Price != nil && (s.Price.Source == "" || s.Price.Date == "") {
			t.Errorf("%s: its price has no source or date", s.Family)
		}
		for f, opt := range s.Options {
			for _, w := range opt.Dated {
				for _, d := range []string{w.From, w.Until} {
					if _, err := time.Parse(time.DateOnly, d); d != "" && err != nil {
						t.Errorf("%s %s %s: %q is not a day", s.Family, f, w.Value, d)
					}
				}
			}
		}
	}
}

func TestASheetWithoutASourceIsRefused(t *testing.T) {
	for _, data := range []string{
		`{"families":[{"family":"x","match":["x*"],"date":"2026-01-01"}]}`,
		`{"families":[{"family":"x","match":["x*"],"source":"me"}]}`,
		`{"families":[{"family":"x","source":"me","date":"2026-01-01"}]}`,
		`{"families":[{"family":"x","match":["x*"],"source":"me","date":"2026-01-01","price":{"text_in":1}}]}`,
		`{"families":[{"family":"x","match":["[x"],"source":"me","date":"2026-01-01"}]}`,
	} {
		if _, err := parse([]byte(data)); err == nil {
			t.Errorf("accepted %s", data)
		}
	}
}

func TestANewSnapshotTakesItsFamilysSheet(t *testing.T) {
	b := Shipped()
	for model, family := range map[string]string{
		"gpt-image-2.6-flare":            "gpt-image-2.6",
		"gpt-image-2.6-sunburst":         "gpt-image-2.6",
		"gpt-image-2.6-flare-2026-12-01": "gpt-image-2.6",
		"openai/gpt-image-2.5-flare":     "gpt-image-2.5",
		"GPT-Image-2.5-Sunburst":         "gpt-image-2.5",
		"gpt-image-2":                    "gpt-image-2",
		"gpt-image-2-2026-04-21":         "gpt-image-2",
		"gpt-image-1-mini":               "gpt-image-1",
		"dall-e-3":                       "dall-e-3",
	} {
		s, ok := b.For(model)
		if !ok || s.Family != family {
			t.Errorf("%s: family %q (found %v), want %s", model, s.Family, ok, family)
		}
	}
	if s, ok := b.For("flux-pro"); ok {
		t.Errorf("flux-pro took %s's sheet", s.Family)
	}
}

func TestNewestQualitiesAreTakenAndUnknownOnesAreNotRefused(t *testing.T) {
	b := Shipped()
	now := day("2026-11-27")
	s, _ := b.For("gpt-image-2.6-flare")
	for _, v := range []struct{ field, value string }{{"quality", "xhigh"}, {"quality", "max"}, {"complexity", "low"}, {"output_format", "svg"}, {"output_format", "gif"}} {
		if got, _ := s.Judge(v.field, v.value, now); got != Takes {
			t.Errorf("2.6 %s=%s: %v, want Takes", v.field, v.value, got)
		}
	}
	old, _ := b.For("gpt-image-1")
	if got, _ := old.Judge("quality", "xhigh", now); got != Unknown {
		t.Errorf("gpt-image-1 quality xhigh: %v; a value the sheet does not list must go to the service", got)
	}
	if got, _ := old.Judge("complexity", "low", now); got != Unknown {
		t.Errorf("gpt-image-1 complexity: %v", got)
	}
}

func TestTransparencyFollowsItsDates(t *testing.T) {
	s, _ := Shipped().For("gpt-image-2")
	for d, want := range map[string]Verdict{"2026-08-20": Refuses, "2026-08-21": Takes, "2026-09-29": Takes, "2026-09-30": Refuses, "2026-11-27": Refuses} {
		if got, _ := s.Judge("background", "transparent", day(d)); got != want {
			t.Errorf("%s: %v, want %v", d, got, want)
		}
		offers, _ := s.Offers("background", day(d))
		if slices.Contains(offers, "transparent") != (want == Takes) {
			t.Errorf("%s: the form offers %v", d, offers)
		}
	}
}

func TestNearestIsTheClosestStepTheModelTakes(t *testing.T) {
	now := day("2026-11-27")
	one, _ := Shipped().For("gpt-image-1")
	if got := one.Nearest("quality", "xhigh", now); got != "high" {
		t.Errorf("nearest to xhigh on gpt-image-1: %q", got)
	}
	if got := one.Nearest("quality", "ultra", now); got != "auto" {
		t.Errorf("nearest to an unknown word: %q", got)
	}
	d3, _ := Shipped().For("dall-e-3")
	if got := d3.Nearest("quality", "high", now); got != "hd" {
		t.Errorf("nearest to high on dall-e-3: %q", got)
	}
}

func TestTheUsersFileReplacesAFamilyAndAddsOne(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "models.json")
	own := `{"families":[
	 {"family":"gpt-image-2.6","match":["gpt-image-2.6*"],"source":"my gateway's page","date":"2026-11-20","options":{"quality":{"takes":["low","ultra"]}}},
	 {"family":"seedream","match":["seedream-*"],"source":"vendor docs","date":"2026-10-01","endpoints":["generations"]}]}`
	if err := os.WriteFile(file, []byte(own), 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := b.For("gpt-image-2.6-flare")
	if s.Source != "my gateway's page" {
		t.Errorf("the user's sheet did not replace the shipped one: %s", s.Source)
	}
	if got, _ := s.Judge("quality", "ultra", day("2026-11-27")); got != Takes {
		t.Error("the user's value is not taken")
	}
	if s, ok := b.For("seedream-4"); !ok || s.Serves("edits") {
		t.Errorf("the user's new family: %v %+v", ok, s)
	}
	if n := len(b.Families()); n != len(Shipped().Families())+1 {
		t.Errorf("%d families", n)
	}
	if _, err := Load(filepath.Join(dir, "none.json")); err != nil {
		t.Errorf("a missing file: %v", err)
	}
	if err := os.WriteFile(file, []byte(`{"families":[{"family":"x"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := Load(file); err == nil || !strings.Contains(err.Error(), "models.json") {
		t.Errorf("a broken file: %v", err)
	} else if _, ok := b.For("gpt-image-1"); !ok {
		t.Error("a broken file lost the shipped sheets")
	}
}

func TestOnlyAFamilyThatShippedLatelyIsNew(t *testing.T) {
	b := Shipped()
	s26, _ := b.For("gpt-image-2.6-flare")
	s1, _ := b.For("gpt-image-1")
	if !s26.IsNew(day("2026-11-27")) || s26.IsNew(day("2027-06-01")) || s26.IsNew(day("2026-10-01")) {
		t.Error("2.6 is new from 2026-11-04 for 120 days")
	}
	if s1.IsNew(day("2026-11-27")) {
		t.Error("gpt-image-1 is not new")
	}
}

// #53: a user's sheet took prices of 1e308 (+Inf in the ledger) or below
// zero, and max_frames of a billion (a billion frames sent). Each is
// refused with what is wrong; a real sheet's numbers pass.
func TestASheetsNumbersAreBounded(t *testing.T) {
	const head = `{"families":[{"family":"x","match":["x*"],"source":"me","date":"2026-01-01",`
	for _, data := range []string{
		head + `"price":{"image_out":1e308,"source":"me","date":"2026-01-01"}}]}`,
		head + `"price":{"text_in":-1,"source":"me","date":"2026-01-01"}}]}`,
		head + `"price":{"image_out":40,"output_tokens":{"high":-5},"source":"me","date":"2026-01-01"}}]}`,
		head + `"gif":{"max_frames":1000000000,"max_sheet_side":4096}}]}`,
		head + `"sizes":{"custom":{"multiple":16,"max_aspect":3,"max_side":1000000000,"min_pixels":1,"max_pixels":1}}}]}`,
	} {
		if _, err := parse([]byte(data)); err == nil || !strings.Contains(err.Error(), "outside") {
			t.Errorf("%s: %v", data, err)
		}
	}
	if _, err := parse([]byte(head + `"price":{"image_out":40,"output_tokens":{"high":6240},"source":"me","date":"2026-01-01"},"gif":{"max_frames":8,"max_sheet_side":4096}}]}`)); err != nil {
		t.Errorf("a real sheet: %v", err)
	}
}
