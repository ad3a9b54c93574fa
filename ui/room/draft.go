package room

import (
	"encoding/json"

	"fyne.io/fyne/v2"

	"easel/internal/api"
)

// Draft is what a tab was about to send when the window closed: its
// prompt and its options. It comes back at the next start, so a long
// prompt and a careful set of options are not lost to a restart.
type Draft struct {
	Prompt  string           `json:"prompt"`
	Options api.ImageOptions `json:"options"`
	// Match is Edit's "Match the first image": kept as the choice, not
	// as the size it sent then, which a new first image would not fit.
	Match bool `json:"match,omitempty"`
}

// SaveDraft keeps the tab's prompt and options under key.
func (s *Sender) SaveDraft(p fyne.Preferences, key string) {
	d := Draft{Options: s.options.Options(), Match: s.options.Matching()}
	if s.advice.entry != nil {
		d.Prompt = s.advice.entry.Text
	}
	if data, err := json.Marshal(d); err == nil {
		p.SetString(key, string(data))
	}
}

// RestoreDraft puts back the prompt and options kept under key, if any.
// The options are applied now and again once the profile's defaults have
// been (Connected), which would otherwise replace them; a draft that
// cannot be read is left alone.
func (s *Sender) RestoreDraft(p fyne.Preferences, key string) {
	var d Draft
	if err := json.Unmarshal([]byte(p.String(key)), &d); err != nil {
		return
	}
	if s.advice.entry != nil && d.Prompt != "" {
		s.advice.entry.SetText(d.Prompt)
	}
	if d.Options.Model != "" {
		s.options.SetOptions(d.Options)
		if d.Match {
			s.options.MatchFirst()
		}
		s.advice.draft = &d
	}
}
