// Package config keeps Easel's profiles: one per account (OpenAI, a
// company gateway, a reseller, a local server), each with its base URL,
// default models and options. The file is JSON, private to the user
// (0600), written atomically under a lock so the window and the command
// line can both change it, and it never holds a key: keys live in the
// OS keyring (package secrets).
package config

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/pricing"
)

// EnvironmentID is the id of the read-only profile made from
// OPENAI_BASE_URL and OPENAI_API_KEY; it is never stored.
const EnvironmentID = "environment"

// DemoID is the id of the built-in demo service; as the active profile it
// means "open on the demo service".
const DemoID = "demo"

// DefaultBaseURL is where a new profile points unless told otherwise.
const DefaultBaseURL = "https://api.openai.com/v1"

// MaxJobsLimit bounds how many jobs a profile may run at once: more only
// earns rate-limit errors.
const MaxJobsLimit = 10

// Profile is one account. The key is not here: it is in the keyring
// under the profile's ID.
type Profile struct {
	// ID is stable across renames; it is the keyring user.
	ID string `json:"id"`
	// Name is what the user calls the profile; unique, any case.
	Name string `json:"name"`
	// BaseURL ends in /v1, for example https://api.openai.com/v1.
	BaseURL string `json:"base_url"`
	// ChatModel and ImageModel are preselected in the pickers.
	ChatModel  string `json:"chat_model,omitempty"`
	ImageModel string `json:"image_model,omitempty"`
	// Image holds the image options a new request starts from.
	Image ImageDefaults `json:"image_defaults,omitzero"`
	// TimeoutSeconds bounds one image request; 0 uses the client default.
	TimeoutSeconds int `json:"request_timeout_seconds,omitempty"`
	// MaxJobs is how many jobs run at once on this account; 0 means 3.
	MaxJobs int `json:"max_jobs,omitempty"`
	// Group names the gateway's account group the profile's own key
	// belongs to ("default"), when the user says: gateways (new-api,
	// one-api) offer models, prices and permissions per group.
	Group string `json:"group,omitempty"`
	// Groups are further keys to the same gateway, one per account
	// group, each labelled; their keys are in the keyring under
	// KeyAccount(group), never here.
	Groups []string `json:"groups,omitempty"`
	// ActiveGroup is the group whose key the profile uses now: "" or
	// Group is its own key.
	ActiveGroup string `json:"active_group,omitempty"`
	// Prices are what the account charges: its currency, group rate and
	// prices of its own over the list prices (pricing.Table).
	Prices pricing.Table `json:"prices,omitzero"`
	// Budget caps the account's spend per day and per month, in its
	// currency: a request that would pass a cap asks first.
	Budget Budget `json:"budget,omitzero"`
	// PlainHTTPConfirmed records that the user agreed to send this
	// profile's key unencrypted to a host that is not this machine.
	PlainHTTPConfirmed bool `json:"plain_http_confirmed,omitempty"`
	// ReadOnly marks the Environment profile, which the user changes in
	// the shell, not in Easel.
	ReadOnly bool `json:"-"`
	// extra holds fields this Easel does not know (a newer one's),
	// written back as they were read.
	extra map[string]json.RawMessage
}

// Budget is a profile's spending caps in its currency; 0 is no cap.
type Budget struct {
	Daily   float64 `json:"daily,omitempty"`
	Monthly float64 `json:"monthly,omitempty"`
}

// ImageDefaults are the options a new image request starts from; empty
// fields leave the form's own defaults.
type ImageDefaults struct {
	Size         string `json:"size,omitempty"`
	Quality      string `json:"quality,omitempty"`
	Background   string `json:"background,omitempty"`
	OutputFormat string `json:"output_format,omitempty"`
	Moderation   string `json:"moderation,omitempty"`
	Stream       *bool  `json:"stream,omitempty"`
}

// KeyAccount is the keyring account of the key for group: the profile's
// id for its own key (as before groups existed), id/group for the keys of
// its other groups.
func (p Profile) KeyAccount(group string) string {
	if group == "" || group == p.Group || !p.HasGroup(group) {
		return p.ID
	}
	return p.ID + "/" + group
}

// HasGroup reports whether group is one of the profile's other groups.
func (p Profile) HasGroup(group string) bool {
	for _, g := range p.Groups {
		if g == group {
			return true
		}
	}
	return false
}

// KeyGroups are the groups the profile holds keys for, its own first
// ("" when it is not labelled).
func (p Profile) KeyGroups() []string {
	return append([]string{p.Group}, p.Groups...)
}

// UsingGroup is the group whose key the profile uses now ("" for its own
// unlabelled key).
func (p Profile) UsingGroup() string {
	if p.HasGroup(p.ActiveGroup) {
		return p.ActiveGroup
	}
	return p.Group
}

// ActiveAccount is the keyring account of the key the profile uses now.
func (p Profile) ActiveAccount() string { return p.KeyAccount(p.UsingGroup()) }

// NewID makes a fresh profile id.
func NewID() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "p-" + hex.EncodeToString(b)
}

// Timeout is the profile's image time-out, 0 for the client default.
func (p Profile) Timeout() time.Duration { return time.Duration(p.TimeoutSeconds) * time.Second }

// Validate says what is wrong with a profile, naming the field.
func (p Profile) Validate() error {
	if strings.TrimSpace(p.Name) == "" {
		return errors.New(catalogue.T("name: give the profile a name"))
	}
	if err := CheckBaseURL(p.BaseURL); err != nil {
		return err
	}
	if p.TimeoutSeconds < 0 {
		return fmt.Errorf(catalogue.T("request time-out: %d s is negative"), p.TimeoutSeconds)
	}
	if p.MaxJobs < 0 || p.MaxJobs > MaxJobsLimit {
		return fmt.Errorf(catalogue.T("jobs at once: %d is outside 1–%d"), p.MaxJobs, MaxJobsLimit)
	}
	if err := p.Prices.Check(); err != nil {
		return err
	}
	seen := map[string]bool{strings.ToLower(p.Group): true}
	for _, g := range p.Groups {
		switch {
		case strings.TrimSpace(g) == "" || strings.ContainsAny(g, "/\n\t"):
			return fmt.Errorf(catalogue.T("groups: %q is not a group name (a word such as vip, without slashes)"), g)
		case seen[strings.ToLower(g)]:
			return fmt.Errorf(catalogue.T("groups: %q is listed twice"), g)
		}
		seen[strings.ToLower(g)] = true
	}
	return nil
}

// CheckBaseURL accepts an http or https URL with a host.
func CheckBaseURL(raw string) error {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return fmt.Errorf(catalogue.T("base URL: %q is not an http(s) address such as %s"), raw, DefaultBaseURL)
	}
	return nil
}

// SendsKeyInClear reports whether a key sent to baseURL would cross the
// network unencrypted: plain http to a host that is not this machine.
func SendsKeyInClear(baseURL string) bool {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil || u.Scheme != "http" {
		return false
	}
	return !api.IsLocalHost(u.Hostname())
}

// IsLocal reports whether baseURL names a server on this machine, which
// usually takes no key (Ollama, LM Studio, the demo service).
func IsLocal(baseURL string) bool {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	return err == nil && api.IsLocalHost(u.Hostname())
}

// NeedsPlainHTTPConsent reports whether the user must agree before key
// is sent with this profile: a key, plain http off this machine, and no
// earlier consent.
func (p Profile) NeedsPlainHTTPConsent(key string) bool {
	return key != "" && SendsKeyInClear(p.BaseURL) && !p.PlainHTTPConfirmed
}

// Environment is the read-only profile made from OPENAI_BASE_URL and
// OPENAI_API_KEY, with its key; ok is false when neither is set.
func Environment(getenv func(string) string) (p Profile, key string, ok bool) {
	base, key := getenv("OPENAI_BASE_URL"), getenv("OPENAI_API_KEY")
	if base == "" && key == "" {
		return Profile{}, "", false
	}
	if base == "" {
		base = DefaultBaseURL
	}
	return Profile{ID: EnvironmentID, Name: "Environment", BaseURL: base, ReadOnly: true}, key, true
}

// ClientConfig is the service client's configuration for this profile
// and its key.
func (p Profile) ClientConfig(key string) api.Config {
	return api.Config{BaseURL: strings.TrimSpace(p.BaseURL), APIKey: key, ImageTimeout: p.Timeout(), TurnModel: p.ChatModel}
}

// All is the profiles a picker lists: the Environment profile first when
// OPENAI_* is set, then the file's.
func All(f File, getenv func(string) string) []Profile {
	var out []Profile
	if env, _, ok := Environment(getenv); ok {
		out = append(out, env)
	}
	return append(out, f.Profiles...)
}
