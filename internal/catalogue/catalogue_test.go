package catalogue

import (
	"testing"
	"time"
)

// The system's languages choose among those Easel speaks, POSIX locale
// names included; an unknown one is English.
func TestUseChoosesTheClosestLanguage(t *testing.T) {
	defer Use("en")
	for _, tc := range []struct {
		prefs []string
		want  string
	}{
		{[]string{"zh_CN.UTF-8"}, "zh-Hans"},
		{[]string{"zh-Hans-CN", "en-GB"}, "zh-Hans"},
		{[]string{"zh_SG"}, "zh-Hans"},
		{[]string{"fr_FR.UTF-8", "zh_CN"}, "zh-Hans"},
		{[]string{"de_DE.UTF-8"}, "en"},
		{[]string{"C"}, "en"},
		{nil, "en"},
		{[]string{"en_US.UTF-8", "zh_CN"}, "en"},
	} {
		if got := Use(tc.prefs...); got != tc.want {
			t.Errorf("%v: %s, want %s", tc.prefs, got, tc.want)
		}
	}
	env := map[string]string{"LANGUAGE": "zh_CN:en", "LANG": "de_DE.UTF-8"}
	if got := fromEnvironment(func(k string) string { return env[k] }); len(got) != 3 || got[0] != "zh_CN" || got[2] != "de_DE.UTF-8" {
		t.Errorf("environment: %v", got)
	}
}

// Both languages name themselves, and each speaks its own words.
func TestTheLanguagesNameThemselves(t *testing.T) {
	defer Use("en")
	langs := Languages()
	if len(langs) < 2 || langs[0].Tag != "en" || langs[0].Name != "English" {
		t.Fatalf("languages %+v", langs)
	}
	if T("no such message, English stands") != "no such message, English stands" {
		t.Error("an unknown message is not itself")
	}
}

// Plurals follow each language's rules: English has one and other,
// Chinese one form for every count.
func TestPluralsFollowTheLanguage(t *testing.T) {
	defer Use("en")
	Use("en")
	if got := N("%d images", 1, 1); got != "1 image" {
		t.Errorf("en one: %q", got)
	}
	if got := N("%d images", 4, 4); got != "4 images" {
		t.Errorf("en other: %q", got)
	}
	Use("zh-Hans")
	if got := N("%d images", 1, 1); got != "1张图片" {
		t.Errorf("zh: %q", got)
	}
	if got := F("Today %s of %s", "$0.34", "$2.00"); got != "今日$0.34 / $2.00" {
		t.Errorf("zh format: %q", got)
	}
	if got := N("≈ %[1]s for %[2]d images", 4, "¥1.20", 4); got != "4张约¥1.20" {
		t.Errorf("zh reordered: %q", got)
	}
}

// Spans are written as each language writes them.
func TestDurationsInEachLanguage(t *testing.T) {
	defer Use("en")
	Use("en")
	for d, want := range map[time.Duration]string{41 * time.Second: "41s", 65 * time.Second: "1m5s", 2500 * time.Millisecond: "2.5s", time.Hour + 2*time.Minute: "1h2m0s"} {
		if got := Duration(d); got != want {
			t.Errorf("en %v: %q, want %q", d, got, want)
		}
	}
	Use("zh-Hans")
	if got := Duration(65 * time.Second); got != "1分5秒" {
		t.Errorf("zh: %q", got)
	}
}
