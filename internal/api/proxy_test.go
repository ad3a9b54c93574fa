package api_test

import (
	"context"
	"image/color"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/testsupport/fixture"
)

// forwardProxy is a proxy on this machine, as a company's or a local
// tool's: it answers each absolute-form request by the host asked for,
// and records which hosts it was asked for.
type forwardProxy struct {
	*target
	mu    sync.Mutex
	hosts []string
}

func newForwardProxy(t *testing.T, answer func(host string, w http.ResponseWriter, r *http.Request)) *forwardProxy {
	p := &forwardProxy{}
	p.target = newTarget(t, func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.hosts = append(p.hosts, r.URL.Host)
		p.mu.Unlock()
		answer(r.URL.Hostname(), w, r)
	})
	return p
}

func (p *forwardProxy) asked(host string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, h := range p.hosts {
		if strings.HasPrefix(h, host) {
			return true
		}
	}
	return false
}

func (p *forwardProxy) choose() func(*http.Request) (*url.URL, error) {
	u, _ := url.Parse(p.URL)
	return func(*http.Request) (*url.URL, error) { return u, nil }
}

// Through a proxy, an image link to a link-local or metadata address is
// refused before the proxy is asked for it, whether the service is
// remote or on this machine (where the proxy's own address passed the
// old check, and the proxy fetched the metadata).
func TestAProxyIsNeverAskedForMetadata(t *testing.T) {
	for _, c := range []struct{ base, link string }{
		{"http://api.gateway.test/v1", "http://169.254.169.254/latest/meta-data/"},
		{"http://127.0.0.1:9/v1", "http://169.254.169.254/latest/meta-data/"},
		{"http://api.gateway.test/v1", "http://metadata.google.internal/computeMetadata/v1/"},
		{"http://127.0.0.1:9/v1", "http://[fe80::1]/x"},
		// Numbers a proxy resolves as a browser does: the same address.
		{"http://api.gateway.test/v1", "http://2852039166/latest/meta-data/"},
		{"http://api.gateway.test/v1", "http://0xa9fea9fe/latest/meta-data/"},
		{"http://api.gateway.test/v1", "http://0251.0376.0251.0376/latest/meta-data/"},
		{"http://api.gateway.test/v1", "http://169.254.43518/latest/meta-data/"},
		{"http://api.gateway.test/v1", "http://2130706433:8080/admin"},
	} {
		link := c.link
		apiHost, _ := url.Parse(c.base)
		proxy := newForwardProxy(t, func(host string, w http.ResponseWriter, r *http.Request) {
			if host == apiHost.Hostname() {
				urlAnswer(link)(w, r)
			}
		})
		c := api.New(api.Config{BaseURL: c.base, APIKey: testKey, Proxy: proxy.choose()})
		_, err := c.Generate(context.Background(), gen("dall-e-3"), nil)
		if err == nil || !strings.Contains(asAPIError(t, err).Message, "does not fetch from") {
			t.Errorf("%s: %v", link, err)
		}
		u, _ := url.Parse(link)
		if proxy.asked(u.Hostname()) || proxy.asked("["+u.Hostname()) {
			t.Errorf("the proxy was asked for %s", link)
		}
		if !proxy.asked(apiHost.Hostname()) {
			t.Errorf("the request itself did not go through the proxy")
		}
	}
}

// A proxy on this machine delivers the images a remote service links to:
// the proxy is the user's, and only the link's target is checked.
func TestAProxyOnThisMachineDeliversLinkedImages(t *testing.T) {
	img := fixture.SolidPNG(t, 4, 4, color.Black)
	proxy := newForwardProxy(t, func(host string, w http.ResponseWriter, r *http.Request) {
		switch host {
		case "api.gateway.test":
			urlAnswer("http://cdn.gateway.test/a.png")(w, r)
		case "cdn.gateway.test":
			_, _ = w.Write(img)
		}
	})
	c := api.New(api.Config{BaseURL: "http://api.gateway.test/v1", APIKey: testKey, Proxy: proxy.choose(), ConnectTimeout: 3 * time.Second})
	res, err := c.Generate(context.Background(), gen("dall-e-3"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Images) != 1 || res.Images[0].Width != 4 || !proxy.asked("cdn.gateway.test") {
		t.Errorf("images %+v", res.Images)
	}
}
