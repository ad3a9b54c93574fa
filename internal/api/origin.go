package api

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"easel/internal/catalogue"
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
// origin, or round in a loop; Easel did not follow it, and no model saw
// the request.
type RedirectError struct {
	// From is the base URL's origin, To where the service pointed.
	From, To string
	// Loop: more than 10 redirects within the origin.
	Loop bool
}

func (e *RedirectError) Error() string {
	if e.Loop {
		return catalogue.T("the service redirected the request more than 10 times")
	}
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
		return &RedirectError{From: origin(base), To: origin(req.URL), Loop: true}
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

// checkLinkIP says why an image link must not reach ip: link-local
// (cloud metadata at 169.254.169.254), multicast and unspecified always;
// loopback and private networks unless the service is itself on one (a
// local or company server).
func checkLinkIP(ip net.IP, serviceIsLocal bool) error {
	switch {
	case ip.IsLinkLocalUnicast(), ip.IsLinkLocalMulticast(), ip.IsInterfaceLocalMulticast(),
		ip.IsMulticast(), ip.IsUnspecified():
		return fmt.Errorf(catalogue.T("%w: %s is a link-local, multicast or unspecified address"), ErrForbiddenAddress, ip)
	case !serviceIsLocal && (ip.IsLoopback() || ip.IsPrivate()):
		return fmt.Errorf(catalogue.T("%w: %s is on this machine or a private network, and the service is not"), ErrForbiddenAddress, ip)
	}
	return nil
}

// metadataNames are the cloud metadata services' host names, refused
// even when only a proxy could resolve them.
var metadataNames = []string{"metadata.google.internal", "metadata", "instance-data", "metadata.azure.internal"}

// linkGuard keeps image links off the addresses checkLinkIP refuses,
// with or without a proxy. Without one, each connection is checked at
// the moment of dialling (after DNS and after any redirect, so neither
// gets around it). Through a proxy the dial goes to the proxy, which
// would fetch anything: the target is checked before the proxy is
// asked — a literal address as it is, a name by what it resolves to
// here (a name this machine cannot resolve is left to the proxy, as on
// a company network). The proxy itself may be on this machine or a
// private network: it is the user's, not the service's.
type linkGuard struct {
	local   bool
	choose  func(*http.Request) (*url.URL, error)
	dialer  *net.Dialer
	timeout time.Duration
	mu      sync.Mutex
	proxies map[string]bool // host:port of the proxies chosen
}

func newLinkGuard(serviceIsLocal bool, proxy func(*http.Request) (*url.URL, error), plain *net.Dialer, timeout time.Duration) *linkGuard {
	g := &linkGuard{local: serviceIsLocal, choose: proxy, timeout: timeout, proxies: map[string]bool{}}
	g.dialer = &net.Dialer{Timeout: plain.Timeout, KeepAlive: plain.KeepAlive, Control: g.control}
	return g
}

// proxy is the transport's proxy choice with the target checked first.
func (g *linkGuard) proxy(req *http.Request) (*url.URL, error) {
	p, err := g.choose(req)
	if err != nil || p == nil {
		return p, err
	}
	if err := g.checkTarget(req.Context(), req.URL.Hostname()); err != nil {
		return nil, err
	}
	g.mu.Lock()
	g.proxies[hostPort(p)] = true
	g.mu.Unlock()
	return p, nil
}

// checkTarget refuses a proxied link's host by its address.
func (g *linkGuard) checkTarget(ctx context.Context, host string) error {
	for _, n := range metadataNames {
		if strings.EqualFold(strings.TrimSuffix(host, "."), n) {
			return fmt.Errorf(catalogue.T("%w: %s is a cloud metadata service"), ErrForbiddenAddress, host)
		}
	}
	if ip, ok := hostIP(host); ok {
		if ip == nil {
			return fmt.Errorf(catalogue.T("%w: %s is not a valid address"), ErrForbiddenAddress, host)
		}
		return checkLinkIP(ip, g.local)
	}
	ctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil {
		return nil // the proxy resolves what this machine cannot
	}
	for _, a := range addrs {
		if err := checkLinkIP(a.IP, g.local); err != nil {
			return err
		}
	}
	return nil
}

// hostIP reads host as the WHATWG URL standard (and so a browser, or a
// proxy that resolves as one) reads an address: Go's ParseIP, and also
// IPv4 written as one number (2852039166), in hex (0xa9fea9fe), in octal
// parts (0251.0376.0251.0376) or in fewer parts (169.254.43518). ok is
// true when host is an address by those rules; ip is nil then when its
// numbers are out of range (no valid host at all).
func hostIP(host string) (ip net.IP, ok bool) {
	if ip := net.ParseIP(strings.Trim(host, "[]")); ip != nil {
		return ip, true
	}
	parts := strings.Split(host, ".")
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1] // a trailing dot
	}
	if len(parts) == 0 {
		return nil, false
	}
	last := parts[len(parts)-1]
	if _, isNum := webNumber(last); !isNum && strings.Trim(last, "0123456789") != "" {
		return nil, false // ends in a name: a domain
	}
	if len(parts) > 4 {
		return nil, true
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, isNum := webNumber(p)
		if !isNum {
			return nil, true // ends in a number, yet not an address: invalid
		}
		nums[i] = n
	}
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return nil, true
		}
	}
	tail := nums[len(nums)-1]
	if tail >= 1<<(8*(5-len(nums))) {
		return nil, true
	}
	v := tail
	for i, n := range nums[:len(nums)-1] {
		v += n << (8 * (3 - i))
	}
	return net.IPv4(byte(v>>24), byte(v>>16), byte(v>>8), byte(v)), true
}

// webNumber reads one part of a WHATWG IPv4 address: decimal, 0x hex or
// 0-led octal.
func webNumber(s string) (uint64, bool) {
	base := 10
	switch {
	case len(s) > 1 && (s[:2] == "0x" || s[:2] == "0X"):
		s, base = s[2:], 16
	case len(s) > 1 && s[0] == '0':
		s, base = s[1:], 8
	}
	if s == "" {
		return 0, base == 16 // "0x" alone is 0
	}
	n, err := strconv.ParseUint(s, base, 64)
	if err != nil || n > 1<<32 {
		return 0, err == nil || errors.Is(err, strconv.ErrRange)
	}
	return n, true
}

// dial connects to a chosen proxy as it is, and to anything else through
// the guarded dialer.
func (g *linkGuard) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	g.mu.Lock()
	toProxy := g.proxies[addr]
	g.mu.Unlock()
	if toProxy {
		return (&net.Dialer{Timeout: g.dialer.Timeout, KeepAlive: g.dialer.KeepAlive}).DialContext(ctx, network, addr)
	}
	return g.dialer.DialContext(ctx, network, addr)
}

// control checks an address at the moment of connecting.
func (g *linkGuard) control(network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return fmt.Errorf("%w: %s", ErrForbiddenAddress, address)
	}
	return checkLinkIP(ip, g.local)
}

// hostPort is a proxy URL's host:port as the transport dials it.
func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443", "socks5": "1080"}[strings.ToLower(u.Scheme)]
	}
	return net.JoinHostPort(u.Hostname(), port)
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
