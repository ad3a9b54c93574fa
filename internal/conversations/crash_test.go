package conversations

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"easel/internal/testsupport/child"
)

// TestHelperStream is not a test: the crash test runs the test binary
// with EASEL_CHAT_HELPER_DIR set, and this streams replies into one
// conversation for ever, as the window does: each piece is written, then
// "shown" (printed as the length of the text so far).
func TestHelperStream(t *testing.T) {
	dir := os.Getenv("EASEL_CHAT_HELPER_DIR")
	if dir == "" {
		t.Skip("helper process for the crash test")
	}
	lib, s := openAt(t, dir)
	defer lib.Close()
	convs, _ := s.List(ctx, "")
	var conv int64
	if len(convs) > 0 {
		conv = convs[0].ID
	} else {
		conv = must(s.Create(ctx, Conversation{Title: "crash", Model: "m"}))
	}
	c := must(s.Get(ctx, conv))
	u := must(s.AddUser(ctx, conv, c.Leaf, "tell me a long story", nil))
	r := must(s.StartReply(ctx, conv, u, "m"))
	text := ""
	for i := 0; ; i++ {
		text += fmt.Sprintf("word%d ", i)
		if err := s.Stream(ctx, r, text, ""); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(4)
		}
		fmt.Printf("shown %d %d\n", r, len(text))
		time.Sleep(time.Millisecond)
	}
}

// A process killed while a reply streams loses nothing it had shown:
// after each kill, the reply holds at least the text last shown, and is
// marked cut. Twenty kills, each at a random moment.
func TestAKilledStreamLosesNothingShown(t *testing.T) {
	dir := t.TempDir()
	for round := 0; round < 20; round++ {
		var out io.ReadCloser
		cmd := child.Start(t, func() *exec.Cmd {
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperStream$")
			cmd.Env = append(os.Environ(), "EASEL_CHAT_HELPER_DIR="+dir)
			cmd.Stderr = os.Stderr
			var err error
			if out, err = cmd.StdoutPipe(); err != nil {
				t.Fatal(err)
			}
			return cmd
		})
		lines := bufio.NewScanner(out)
		var msg int64
		shown := 0
		deadline := time.Now().Add(time.Duration(20+rand.IntN(200)) * time.Millisecond)
		for lines.Scan() {
			f := strings.Fields(lines.Text())
			if len(f) == 3 && f[0] == "shown" {
				msg, _ = strconv.ParseInt(f[1], 10, 64)
				shown, _ = strconv.Atoi(f[2])
			}
			if shown > 0 && time.Now().After(deadline) {
				break
			}
		}
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		if msg == 0 {
			t.Fatalf("round %d: the helper showed nothing", round)
		}
		lib, s := openAt(t, dir)
		c := must(s.Get(ctx, must(s.List(ctx, ""))[0].ID))
		path := must(s.Path(ctx, c.ID))
		var got *Message
		for i := range path {
			if path[i].ID == msg {
				got = &path[i]
			}
		}
		if got == nil {
			t.Fatalf("round %d: the reply %d is gone", round, msg)
		}
		if len(got.Content) < shown || got.State != Cut {
			t.Fatalf("round %d: the reply holds %d bytes (%s), %d were shown", round, len(got.Content), got.State, shown)
		}
		lib.Close()
	}
}
