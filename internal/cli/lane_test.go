package cli

import (
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"easel/internal/demoservice"
)

// laneThread starts a thread with `easel gen` on a demo service playing
// the Responses API as responses says, and returns a function that adds
// a turn after the last one, with what it printed.
func laneThread(t *testing.T, responses string) (*demoservice.Server, func(prompt string) string, func() string) {
	t.Helper()
	srv := demoservice.New(demoservice.Config{Key: "sk-cli-test-key-123456", Responses: responses})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	env, out, errOut := testEnv(t, ts.URL+"/v1")
	env.Library = filepath.Join(t.TempDir(), "library")
	dir := t.TempDir()
	if code := Run([]string{"gen", "--prompt", "a lighthouse at dusk", "--size", "1024x1024", "--out", dir}, env); code != 0 {
		t.Fatalf("gen: %s", errOut)
	}
	last := strings.TrimSpace(out.String())
	turn := func(prompt string) string {
		t.Helper()
		out.Reset()
		errOut.Reset()
		if code := Run([]string{"edit", "--continue", last, "--prompt", prompt, "--out", dir}, env); code != 0 {
			t.Fatalf("%q: %s", prompt, errOut)
		}
		last = strings.TrimSpace(out.String())
		return errOut.String()
	}
	list := func() string {
		t.Helper()
		out.Reset()
		if code := Run([]string{"thread", last}, env); code != 0 {
			t.Fatalf("thread: %s", errOut)
		}
		return out.String()
	}
	return srv, turn, list
}

// #55: through a service with the Responses API, the first edit of a
// generated picture starts the service's conversation from the picture;
// the next names that answer (previous_response_id) and sends the
// picture too, as the service has not yet shown it keeps what it is
// given; once it has, a turn names the answer and sends no picture.
func TestATurnGoesOnInTheServicesConversation(t *testing.T) {
	srv, turn, list := laneThread(t, demoservice.ResponsesServed)
	said := turn("warmer light")
	if a := srv.LastAsked(); !a.Turn || a.Previous != "" || a.Images != 1 {
		t.Fatalf("turn 2 went as %+v, want through the Responses API with the picture and no earlier answer", a)
	}
	if !strings.Contains(said, "turn 2 of the thread (after turn 1), gallery picture 2; sent in the service's conversation") {
		t.Errorf("turn 2 said %q", said)
	}
	turn("move the boat left")
	third := srv.LastAsked()
	if !third.Turn || !strings.HasPrefix(third.Previous, "resp_demo_") || third.Images != 1 {
		t.Fatalf("turn 3 went as %+v, want previous_response_id and the picture", third)
	}
	turn("a red roof")
	if a := srv.LastAsked(); !a.Turn || a.Previous == "" || a.Previous == third.Previous || a.Images != 0 {
		t.Fatalf("turn 4 went as %+v, want turn 3's answer named and no picture sent", a)
	}
	listed := list()
	if n := strings.Count(listed, "sent in the service's conversation"); n != 3 {
		t.Errorf("easel thread lists %d turns in the conversation, want 3:\n%s", n, listed)
	}
}

// #55: a gateway without /v1/responses: the turn goes through the Images
// API at once, with a note, and the next turn does not try again.
func TestAGatewayWithoutTheResponsesAPIGetsTheImagesAPIWithANote(t *testing.T) {
	srv, turn, list := laneThread(t, demoservice.ResponsesNone)
	said := turn("warmer light")
	if a := srv.LastAsked(); a.Turn || a.Images != 1 {
		t.Fatalf("turn 2 reached the model as %+v, want an Images API edit", a)
	}
	if !strings.Contains(said, "Sent through the Images API: the service has no Responses API (HTTP 404).") {
		t.Errorf("turn 2 said %q", said)
	}
	before, _ := srv.ImageRequests()
	said = turn("move the boat left")
	if after, _ := srv.ImageRequests(); after != before+1 {
		t.Errorf("turn 3 made %d requests, want 1: the missing route is known", after-before)
	}
	if !strings.Contains(said, "Sent through the Images API: the service has no Responses API (HTTP 404) (learnt") {
		t.Errorf("turn 3 said %q", said)
	}
	listed := list()
	if strings.Count(listed, "sent as an edit") != 2 || !strings.Contains(listed, "(Sent through the Images API: the service has no Responses API (HTTP 404).)") {
		t.Errorf("easel thread:\n%s", listed)
	}
}

// #55: a gateway that relays turns without previous_response_id: the
// turn that named an answer still carried its picture, so it was an edit
// of it; what the answer showed is said and learnt, and the next turn
// goes through the Images API.
func TestAGatewayThatDropsTheEarlierAnswerIsLearnt(t *testing.T) {
	srv, turn, _ := laneThread(t, demoservice.ResponsesDrops)
	turn("warmer light")
	said := turn("move the boat left")
	a := srv.LastAsked()
	if !a.Turn || a.Previous != "" || a.Images != 1 || a.FirstImage.X == 0 {
		t.Fatalf("turn 3 reached the model as %+v, want the picture and no earlier answer", a)
	}
	if !strings.Contains(said, "did not pass the earlier answer on (previous_response_id): the picture went with the turn") {
		t.Errorf("turn 3 said %q", said)
	}
	said = turn("a red roof")
	if a := srv.LastAsked(); a.Turn {
		t.Errorf("turn 4 went through the Responses API again: %+v", a)
	}
	if !strings.Contains(said, "Sent through the Images API: the gateway does not pass previous_response_id on (learnt") {
		t.Errorf("turn 4 said %q", said)
	}
}

// #55: a thread begun from a picture made through the Responses API (a
// background render) goes on in that conversation from turn 2: the
// first edit names the render's answer (previous_response_id).
func TestATurnAfterARenderNamesItsAnswer(t *testing.T) {
	srv := demoservice.New(demoservice.Config{Key: "sk-cli-test-key-123456"})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	env, out, errOut := testEnv(t, ts.URL+"/v1")
	env.Library = filepath.Join(t.TempDir(), "library")
	dir := t.TempDir()
	if code := Run([]string{"gen", "--in-background", "--prompt", "a lighthouse at dusk", "--size", "1024x1024", "--out", dir}, env); code != 0 {
		t.Fatalf("gen: %s", errOut)
	}
	first := strings.TrimSpace(out.String())
	out.Reset()
	if code := Run([]string{"edit", "--continue", first, "--prompt", "warmer light", "--out", dir}, env); code != 0 {
		t.Fatalf("turn 2: %s", errOut)
	}
	if a := srv.LastAsked(); !a.Turn || !strings.HasPrefix(a.Previous, "resp_demo_") {
		t.Fatalf("turn 2 went as %+v, want the render's answer named", a)
	}
	if !strings.Contains(errOut.String(), "turn 2 of the thread (after turn 1)") {
		t.Errorf("turn 2 said %q", errOut)
	}
}
