// Package catalogue holds every sentence Easel says to a person, in each
// language it speaks, and says them in the language chosen: the window,
// its dialogs and cards, the explanations of failures and the command
// line all ask it, so a language is added by adding one file beside
// this one (easel.<language>.json) and nothing else.
//
// A message is looked up by its English text (what the code reads, as
// gettext does), so the code stays readable and the English file is the
// list of what there is to translate. Messages that take values are
// fmt formats; a translation may reorder them with explicit argument
// indexes (%[2]s). Plural forms follow the language's own rules (CLDR,
// through go-i18n, the library Fyne's lang package is built on): English
// has one and other, Chinese only other.
//
// What a service says (its error text, a model's reply, a prompt) never
// goes through here: it is shown as it came, and only explained.
package catalogue

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

//go:embed easel.*.json
var files embed.FS

// Language is one language Easel speaks.
type Language struct {
	// Tag is its BCP 47 tag ("en", "zh-Hans"); Name is its name in
	// itself, as a picker lists it.
	Tag, Name string
}

// nameKey is the message that holds each file's own name for its
// language.
const nameKey = "@language"

var (
	mu        sync.RWMutex
	bundle    *i18n.Bundle
	localizer *i18n.Localizer
	current   = language.English
	languages []Language
	// messages are each language's messages by English text, for the
	// tests and for Has.
	messages = map[language.Tag]map[string]*i18n.Message{}
)

func init() {
	bundle = i18n.NewBundle(language.English)
	entries, err := fs.ReadDir(files, ".")
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		data, err := files.ReadFile(e.Name())
		if err != nil {
			panic(err)
		}
		if err := load(e.Name(), data); err != nil {
			panic(fmt.Sprintf("catalogue: %s: %v", e.Name(), err))
		}
	}
	sort.Slice(languages, func(i, j int) bool {
		return languages[i].Tag == "en" || languages[j].Tag != "en" && languages[i].Tag < languages[j].Tag
	})
	localizer = i18n.NewLocalizer(bundle, "en")
}

// load adds one language file: a JSON object from English text to its
// translation, either a string or an object of plural forms ("one",
// "other", …).
func load(name string, data []byte) error {
	tagText := strings.TrimSuffix(strings.TrimPrefix(path.Base(name), "easel."), ".json")
	tag, err := language.Parse(strings.ReplaceAll(tagText, "_", "-"))
	if err != nil {
		return err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	msgs := map[string]*i18n.Message{}
	base, _ := tag.Base()
	tighten := base.String() == "zh" || base.String() == "ja"
	for id, v := range raw {
		m := &i18n.Message{ID: id, LeftDelim: "\x00{", RightDelim: "}\x00"}
		var s string
		if err := json.Unmarshal(v, &s); err == nil {
			m.Other = s
		} else {
			var forms map[string]string
			if err := json.Unmarshal(v, &forms); err != nil {
				return fmt.Errorf("%q is neither a text nor plural forms", id)
			}
			m.Zero, m.One, m.Two, m.Few, m.Many, m.Other = forms["zero"], forms["one"], forms["two"], forms["few"], forms["many"], forms["other"]
		}
		if tighten {
			for _, f := range []*string{&m.Zero, &m.One, &m.Two, &m.Few, &m.Many, &m.Other} {
				*f = tightened(*f)
			}
		}
		msgs[id] = m
	}
	list := make([]*i18n.Message, 0, len(msgs))
	for _, m := range msgs {
		list = append(list, m)
	}
	if err := bundle.AddMessages(tag, list...); err != nil {
		return err
	}
	messages[tag] = msgs
	own := tag.String()
	if m, ok := msgs[nameKey]; ok {
		own = m.Other
	}
	languages = append(languages, Language{Tag: tag.String(), Name: own})
	return nil
}

// Languages are the languages Easel speaks, English first.
func Languages() []Language { return append([]Language(nil), languages...) }

// Use speaks the first of prefs (BCP 47 tags or POSIX locales such as
// "zh_CN.UTF-8", most preferred first) that Easel speaks, or English; it
// returns the tag chosen.
func Use(prefs ...string) string {
	supported := make([]language.Tag, len(languages))
	for i, l := range languages {
		supported[i] = language.Make(l.Tag)
	}
	var wanted []language.Tag
	for _, p := range prefs {
		p = strings.TrimSpace(p)
		if p == "" || p == "C" || p == "POSIX" {
			continue
		}
		p, _, _ = strings.Cut(p, ".") // zh_CN.UTF-8
		p, _, _ = strings.Cut(p, "@")
		if t, err := language.Parse(strings.ReplaceAll(p, "_", "-")); err == nil {
			wanted = append(wanted, t)
		}
	}
	chosen := language.English
	if len(wanted) > 0 {
		_, i, conf := language.NewMatcher(supported).Match(wanted...)
		if conf != language.No {
			chosen = supported[i]
		}
	}
	mu.Lock()
	defer mu.Unlock()
	current = chosen
	localizer = i18n.NewLocalizer(bundle, chosen.String(), "en")
	return chosen.String()
}

// Current is the tag of the language spoken now.
func Current() string {
	mu.RLock()
	defer mu.RUnlock()
	return current.String()
}

func localize(id string, count any) string {
	mu.RLock()
	l := localizer
	mu.RUnlock()
	out, err := l.Localize(&i18n.LocalizeConfig{MessageID: id, PluralCount: count,
		DefaultMessage: &i18n.Message{ID: id, Other: id, LeftDelim: "\x00{", RightDelim: "}\x00"}})
	if err != nil && out == "" {
		return id
	}
	return out
}

// T is text in the language spoken: a sentence, a label, a title.
func T(text string) string { return localize(text, nil) }

// F is a format in the language spoken, filled with args as fmt does.
func F(format string, args ...any) string { return fmt.Sprintf(localize(format, nil), args...) }

// N is a format for n of something in the language spoken, in the plural
// form n takes there; the message's key is its English "other" form and
// its catalogue entry gives every form. args fill it as fmt does (n is
// usually the first of them).
func N(other string, n int, args ...any) string {
	return fmt.Sprintf(localize(other, n), args...)
}

// Duration writes a span as the language writes it, to the second (to
// the tenth under ten seconds when precise): "41s", "1m5s" in English,
// "41 秒", "1 分 5 秒" in Chinese.
func Duration(d time.Duration) string {
	if d < 0 {
		d = -d
	}
	if d < 10*time.Second && d%time.Second != 0 {
		return F("%.1fs", d.Seconds())
	}
	d = d.Round(time.Second)
	h, m, s := int(d/time.Hour), int(d%time.Hour/time.Minute), int(d%time.Minute/time.Second)
	switch {
	case h > 0:
		return F("%dh%dm%ds", h, m, s)
	case m > 0:
		return F("%dm%ds", m, s)
	}
	return F("%ds", s)
}

// Files are the language files as they are, by language tag, for Fyne's
// own lang package to load too (ui does, so its translations and its
// choice of language are looked up again after main has chosen).
func Files() map[string][]byte {
	out := map[string][]byte{}
	entries, _ := fs.ReadDir(files, ".")
	for _, e := range entries {
		data, err := files.ReadFile(e.Name())
		if err != nil {
			continue
		}
		tag := strings.TrimSuffix(strings.TrimPrefix(e.Name(), "easel."), ".json")
		out[strings.ReplaceAll(tag, "_", "-")] = data
	}
	return out
}

// tightened drops the spaces a Chinese or Japanese sentence sets around
// Latin words and numbers ("连接 OpenAI 服务"): the window wraps text
// only at spaces when it finds one within the line, so such a space makes
// a short line where a break between two characters would fill it. Spaces
// between two Latin words ("LM Studio") stay.
func tightened(s string) string {
	r := []rune(s)
	out := make([]rune, 0, len(r))
	for i, c := range r {
		if c == ' ' && i > 0 && i+1 < len(r) && (wide(r[i-1]) && wordy(r[i+1]) || wordy(r[i-1]) && wide(r[i+1])) {
			continue
		}
		out = append(out, c)
	}
	return string(out)
}

// wordy reports a character a word or a number is made of, or a value's
// mark (%d, $, ¥, quotes): a space between one and a wide character goes;
// one beside a dash or a slash stays, as it sets the dash apart.
func wordy(c rune) bool {
	return unicode.IsLetter(c) || unicode.IsDigit(c) || strings.ContainsRune("%$¥\"“”「」（）", c)
}

// wide reports a character of a script written without spaces: Han,
// kana, and their punctuation.
func wide(c rune) bool {
	return unicode.Is(unicode.Han, c) || unicode.Is(unicode.Hiragana, c) || unicode.Is(unicode.Katakana, c) ||
		(c >= 0x3000 && c <= 0x303F) || (c >= 0xFF00 && c <= 0xFFEF)
}
