package api

import (
	"easel/internal/catalogue"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
)

// The key goes only to the origin (scheme, host and port) of the base
// URL. Go's client keeps the Authorization header on a redirect to the
// same host name whatever the port, and follows https to http, so an API
// request follows no redirect that leaves the origin: it fails, naming
// where the service tried to send it. Image links (dall-e style answers)
// carry no key; they may follow redirects, but only over http(s), and
// never to a link-local or cloud metadata address, nor to this machine or
// a private network unless the service itself is there.

// RedirectError is an API request the service redirected to another
// origin; Easel did not follow it.
type RedirectError struct {
	// From is the base URL's origin, To where the service pointed.
	From, To string
}

func (e *RedirectError) Error() string {
	return catalogue.F("the service redirected the request to %s; Easel sends requests and the key only to %s", e.To, e.From)
}

// origin is a URL's scheme://host:port, with the default port written
// out, so that two spellings of one origin compare equal.
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme) + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// sameOrigin is the API client's redirect policy: only within the base
// URL's origin.
func (c *Client) sameOrigin(req *http.Request, via []*http.Request) error {
	base, err := url.Parse(c.cfg.BaseURL)
	if err != nil {
		return err
	}
	if origin(req.URL) != origin(base) {
		return &RedirectError{From: origin(base), To: origin(req.URL)}
	}
	if len(via) >= 10 {
		return errors.New(catalogue.T("the service redirected the request more than 10 times"))
	}
	return nil
}

// linkRedirect is the image links' redirect policy: http(s) only.
func linkRedirect(req *http.Request, via []*http.Request) error {
	if s := req.URL.Scheme; s != "http" && s != "https" {
		return fmt.Errorf(catalogue.T("the image link redirected to %q, which is not an http or https address"), req.URL.Redacted())
	}
	if len(via) >= 10 {
		return errors.New(catalogue.T("the image link redirected more than 10 times"))
	}
	req.Header.Del("Authorization")
	return nil
}

// ErrForbiddenAddress is an image link to an address Easel does not
// fetch from.
var ErrForbiddenAddress = errors.New("address not allowed for image links")

// linkDialControl refuses, at the moment of connecting (after DNS and
// after any redirect, so neither gets around it), addresses an image
// link must not reach: link-local (cloud metadata at 169.254.169.254),
// multicast and unspecified always; loopback and private networks unless
// the service is itself on one (a local or company server).
func linkDialControl(serviceIsLocal bool) func(network, address string, _ syscall.RawConn) error {
	return func(network, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return err
		}
		ip := net.ParseIP(host)
		if ip == nil {
			return fmt.Errorf("%w: %s", ErrForbiddenAddress, address)
		}
		switch {
		case ip.IsLinkLocalUnicast(), ip.IsLinkLocalMulticast(), ip.IsInterfaceLocalMulticast(),
			ip.IsMulticast(), ip.IsUnspecified():
			return fmt.Errorf(catalogue.T("%w: %s is a link-local, multicast or unspecified address"), ErrForbiddenAddress, host)
		case !serviceIsLocal && (ip.IsLoopback() || ip.IsPrivate()):
			return fmt.Errorf(catalogue.T("%w: %s is on this machine or a private network, and the service is not"), ErrForbiddenAddress, host)
		}
		return nil
	}
}

// IsLocalHost reports whether host is this machine: localhost, a
// .localhost name, or a loopback address. It is the one loopback check of
// the client, the profiles and the command line.
func IsLocalHost(host string) bool {
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// isLocalService reports whether the base URL's host is this machine or
// a private network, by name or address.
func isLocalService(baseURL string) bool {
	u, err := url.Parse(baseURL)
	if err != nil {
		return false
	}
	if IsLocalHost(u.Hostname()) {
		return true
	}
	ip := net.ParseIP(u.Hostname())
	return ip != nil && ip.IsPrivate()
}
