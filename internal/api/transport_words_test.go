package api

import (
	"bufio"
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// rawServer answers each connection with what answer writes, HTTP or not.
func rawServer(t *testing.T, answer func(c net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_, _ = bufio.NewReader(c).Peek(1) // the request has begun
				answer(c)
			}()
		}
	}()
	return "http://" + ln.Addr().String() + "/v1"
}

// goText is what only Go's own error text says; a person should read
// none of it.
var goText = []string{"net/http:", "malformed HTTP", "x509:", "tls:", "read tcp", "EOF", "invalid header field"}

// Transport failures say what happened in words, and name what is at
// fault: the key, the certificate, the address, or the service.
func TestTransportFailuresAreWorded(t *testing.T) {
	tlsServer := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer tlsServer.Close()
	cases := []struct {
		name, base, key string
		want            []string
	}{
		{"reset after the headers", rawServer(t, func(c net.Conn) {
			c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"da"))
			if tc, ok := c.(*net.TCPConn); ok {
				_ = tc.SetLinger(0)
			}
		}), "k", []string{"connection broke"}},
		{"reset during the headers", rawServer(t, func(c net.Conn) {
			c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Type: appl"))
			if tc, ok := c.(*net.TCPConn); ok {
				_ = tc.SetLinger(0)
			}
		}), "k", []string{"after the request was sent", "may be at work on it"}},
		{"closed before any answer", rawServer(t, func(c net.Conn) {}), "k", []string{"after the request was sent"}},
		{"a 429 of binary garbage", rawServer(t, func(c net.Conn) {
			c.Write([]byte("HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nRetry-After: banana\r\nContent-Length: 12\r\n\r\n\x00\x01garbage!!\xff\xfe"))
		}), "k", []string{"429 Too Many Requests with a body that is not text", "wait a minute"}},
		{"garbage status", rawServer(t, func(c net.Conn) { c.Write([]byte("HELLO THERE\r\n\r\n")) }), "k", []string{"not an HTTP answer"}},
		{"endless headers", rawServer(t, func(c net.Conn) {
			c.Write([]byte("HTTP/1.1 200 OK\r\n"))
			block := []byte(strings.Repeat("X-Pad: "+strings.Repeat("a", 100)+"\r\n", 600)) // 64 KB a write
			for i := 0; i < 400; i++ {                                                      // past Go's 10 MB at once, even under Wine
				if _, err := c.Write(block); err != nil {
					return
				}
			}
		}), "k", []string{"headers"}},
		{"an unknown certificate authority", tlsServer.URL + "/v1", "k", []string{"certificate"}},
		{"a key with a line break inside", rawServer(t, func(c net.Conn) {}), "sk-a\nbc", []string{"key"}},
	}
	for _, c := range cases {
		cl := New(Config{BaseURL: c.base, APIKey: c.key, FirstByteTimeout: 30 * time.Second})
		_, err := cl.Models(context.Background())
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		said := e.Message + " — " + e.Hint
		for _, g := range goText {
			if strings.Contains(said, g) {
				t.Errorf("%s: Go's words reach the person: %q", c.name, said)
			}
		}
		for _, w := range c.want {
			if !strings.Contains(said, w) {
				t.Errorf("%s: %q does not name %q", c.name, said, w)
			}
		}
	}
}

// A key pasted with its line break works: the break is not part of it.
func TestAKeyWithATrailingLineBreakWorks(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer sk-pasted" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"data":[{"id":"gpt-image-1"}]}`))
	}))
	defer ts.Close()
	if _, err := New(Config{BaseURL: ts.URL + "/v1", APIKey: "sk-pasted\r\n"}).Models(context.Background()); err != nil {
		t.Error(err)
	}
}

// A well-formed model list of 14 MB (a gateway with tens of thousands
// of models) is read.
func TestALargeModelListIsRead(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		var b strings.Builder
		b.WriteString(`{"data":[`)
		for i := 0; b.Len() < 14<<20; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`{"id":"model-` + strings.Repeat("x", 200) + `-` + strconv.Itoa(i) + `"}`)
		}
		b.WriteString(`]}`)
		w.Write([]byte(b.String()))
	}))
	defer ts.Close()
	ms, err := New(Config{BaseURL: ts.URL + "/v1"}).Models(context.Background())
	if err != nil || len(ms) < 60000 {
		t.Errorf("%d models: %v", len(ms), err)
	}
}
