package api

import "testing"

// Hosts that a browser, or a proxy that resolves as one, reads as IPv4
// addresses are addresses here too, so the guard sees them.
func TestHostsAreReadAsTheWebReadsThem(t *testing.T) {
	for host, want := range map[string]string{
		"2852039166":          "169.254.169.254",
		"0xa9fea9fe":          "169.254.169.254",
		"0251.0376.0251.0376": "169.254.169.254",
		"169.254.43518":       "169.254.169.254",
		"2130706433":          "127.0.0.1",
		"0x7f.1":              "127.0.0.1",
		"169.254.169.254.":    "169.254.169.254",
		"127.0.0.1":           "127.0.0.1",
		"[::1]":               "::1",
	} {
		ip, ok := hostIP(host)
		if !ok || ip == nil || ip.String() != want {
			t.Errorf("%s: %v %v, want %s", host, ip, ok, want)
		}
	}
	for _, host := range []string{"example.com", "api.gateway.test", "1.example", "x1", "0x1g"} {
		if _, ok := hostIP(host); ok {
			t.Errorf("%s read as an address", host)
		}
	}
	for _, host := range []string{"4294967296", "1.256.1.1", "1.2.3.4.5", "0x1.08"} {
		if ip, ok := hostIP(host); !ok || ip != nil {
			t.Errorf("%s: %v %v, want no valid address", host, ip, ok)
		}
	}
}
