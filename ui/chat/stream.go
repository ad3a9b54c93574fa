package chat

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/chatreply"
	"easel/internal/conversations"
	"easel/internal/imageio"
	"easel/internal/pricing"
	"easel/ui/kit"
	"easel/ui/room"
)

// replies sends the user's messages and streams the model's replies into
// the transcript, and does what a message's menu asks: regenerate,
// retry, edit and resend, step through versions, delete.
type replies struct{ *Room }

// stream is one reply arriving, in a goroutine of its own.
type stream struct {
	t     *Room
	conv  int64
	reply int64
	model string
	// profile and prices are the account the reply is asked of, and its
	// prices, as they were when it was sent: what the ledger records.
	profile string
	prices  pricing.Table
	cancel  context.CancelFunc
	// stopped is set by Stop: the reply ends as stopped, not failed.
	stopped atomic.Bool

	// shown is what was last written and shown (on the UI goroutine).
	shownText, shownReasoning string
}

// retryKind is how a failed reply is tried again.
type retryKind int

const (
	retryFull retryKind = iota
	// retryBare sends only the model and the last question, as the
	// spec advises after a failure.
	retryBare
	// retryWithoutImages sends the question again without its images.
	retryWithoutImages
)

// sendMessage saves the user's message (creating the conversation with
// its first message) and streams the reply, off the UI goroutine.
func (t replies) sendMessage(text string) {
	c, err := t.form.read(t.current)
	if err != nil {
		t.status.SetText(err.Error())
		return
	}
	atts := t.attached.take()
	t.composer.SetText("")
	t.current = c
	store := t.store
	var images []conversations.NewImage
	for _, a := range atts {
		images = append(images, conversations.NewImage{Name: a.name, Data: a.data})
		t.thumbs[hashOf(a.data)] = a.thumb
	}
	t.host.Work().Go(func(ctx context.Context) {
		if c.ID == 0 {
			c.Title = conversations.TitleFrom(text)
			if strings.TrimSpace(text) == "" {
				c.Title = catalogue.T("Images")
			}
			id, err := store.Create(ctx, c)
			if err != nil {
				t.host.Work().Do(func() { t.restoreDraft(text, atts, err) })
				return
			}
			c.ID = id
		} else if err := store.SetSettings(ctx, c); err != nil {
			t.host.Work().Do(func() { t.restoreDraft(text, atts, err) })
			return
		}
		user, err := store.AddUser(ctx, c.ID, c.Leaf, strings.TrimSpace(text), images)
		if err != nil {
			t.host.Work().Do(func() { t.restoreDraft(text, atts, err) })
			return
		}
		t.host.Work().Do(func() {
			if t.current.ID == 0 || t.current.ID == c.ID {
				t.current = c
			}
			t.startReply(c.ID, user, retryFull)
		})
	})
}

// restoreDraft puts an unsent message back in the composer and says why.
func (t replies) restoreDraft(text string, atts []attachment, err error) {
	if t.composer.Text == "" {
		t.composer.SetText(text)
	}
	t.attached.putBack(atts)
	dialog.ShowError(fmt.Errorf(catalogue.T("the message was not sent: %w"), err), t.host.Window())
}

// startReply streams a reply to message parent of conversation conv:
// the branch up to parent is sent (kind says how much of it), a new
// reply follows parent (a new version if it had one).
func (t replies) startReply(conv, parent int64, kind retryKind) {
	client := t.host.Session().Client()
	if client == nil {
		t.status.SetText(room.ServiceText(t.host))
		t.reload()
		return
	}
	if t.streams[conv] != nil {
		return
	}
	ctx, cancel := context.WithCancel(t.host.Work().Context())
	cur := t.host.Session().Current()
	s := &stream{t: t.Room, conv: conv, cancel: cancel, profile: cur.ID, prices: cur.Prices}
	t.streams[conv] = s
	t.syncSend()
	store := t.store
	// Closing the window cuts the reply (ctx is the window's), which is
	// then kept as cut and billed as chatreply.Run says.
	t.host.Work().Go(func(context.Context) {
		defer cancel()
		s.run(ctx, store, client, parent, kind)
	})
}

// run asks for the reply and keeps it (chatreply.Run: the whole life of a
// reply is there), drawing it as it arrives and saying how it ended.
func (s *stream) run(ctx context.Context, store *conversations.Store, client *api.Client, parent int64, kind retryKind) {
	t := s.t
	r := chatreply.Request{Conv: s.conv, Parent: parent, Bare: kind == retryBare, NoImages: kind == retryWithoutImages,
		Profile: s.profile, Prices: s.prices}
	res, err := chatreply.Run(ctx, store, client, t.host.Library(), r, s.stopped.Load, chatreply.Listener{
		Started: func(reply int64, model string, history []conversations.Message) {
			t.host.Work().Do(func() {
				s.reply, s.model = reply, model
				if t.current.ID == s.conv {
					// The branch as sent, then the reply as it arrives.
					t.current.Leaf = s.reply
					t.path = history
					t.showPath()
					t.transcript.Append(t.view(conversations.Message{ID: s.reply, Role: api.RoleAssistant, Model: s.model, State: conversations.Streaming}))
					t.status.SetText(catalogue.T("Writing… Esc or Stop ends it and keeps the text."))
				}
			})
		},
		Frame: func(text, reasoning string) {
			t.host.Work().Do(func() {
				s.shownText, s.shownReasoning = text, reasoning
				s.show(text, reasoning)
			})
		},
		Charged: func() { t.host.Work().Do(t.host.SpendChanged) },
	})
	t.host.Work().Do(func() {
		delete(t.streams, s.conv)
		if err != nil { // nothing was sent
			t.syncSend()
			dialog.ShowError(err, t.host.Window())
			t.reload()
			return
		}
		if res.KeepErr != nil {
			dialog.ShowError(fmt.Errorf(catalogue.T("the reply could not be kept: %w"), res.KeepErr), t.host.Window())
		}
		if t.current.ID == s.conv {
			t.syncSend()
			switch res.End.State {
			case conversations.Done:
				t.status.SetText(room.ServiceText(t.host))
			case conversations.Stopped:
				t.status.SetText(catalogue.T("Stopped: the text so far is kept."))
			default:
				t.status.SetText(res.End.ErrorText)
			}
			t.reload()
		} else {
			t.list.reloadList()
		}
	})
}

// show draws the reply so far, when its conversation is open.
func (s *stream) show(text, reasoning string) {
	t := s.t
	if t.current.ID != s.conv || t.streams[s.conv] != s {
		return
	}
	t.transcript.UpdateLast(t.view(conversations.Message{ID: s.reply, Role: api.RoleAssistant, Model: s.model,
		State: conversations.Streaming, Content: text, Reasoning: reasoning}))
}

// showNow draws the reply as last written (its conversation was opened
// again while it streams).
func (s *stream) showNow() {
	s.show(s.shownText, s.shownReasoning)
}

// Stop ends the open conversation's reply at once, keeping its text.
func (t *Room) Stop() {
	if s := t.streams[t.current.ID]; s != nil {
		s.stopped.Store(true)
		s.cancel()
	}
}

// regenerate writes the last reply again; the earlier one is kept as a
// version.
func (t replies) regenerate(id int64) {
	for _, m := range t.path {
		if m.ID == id && m.Role == api.RoleAssistant {
			t.saveSettings()
			t.startReply(t.current.ID, m.Parent, retryFull)
			return
		}
	}
}

// retry tries a failed reply again: with only the last question, or
// without its images.
func (t replies) retry(id int64, kind retryKind) {
	for _, m := range t.path {
		if m.ID == id {
			t.startReply(t.current.ID, m.Parent, kind)
			return
		}
	}
}

// editMessage asks for a new text for an earlier question and sends it:
// what followed is replaced, the old branch kept as a version.
func (t replies) editMessage(id int64) {
	var msg *conversations.Message
	for i := range t.path {
		if t.path[i].ID == id {
			msg = &t.path[i]
		}
	}
	if msg == nil || t.streams[t.current.ID] != nil {
		return
	}
	e := kit.NewDialogEntry()
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapWord
	e.SetText(msg.Content)
	e.SetMinRowsVisible(5)
	m := *msg
	d := dialog.NewForm(catalogue.T("Edit and send again"), catalogue.T("Send"), catalogue.T("Cancel"), []*widget.FormItem{
		widget.NewFormItem(catalogue.T("Message"), e),
		widget.NewFormItem("", kit.HintLabel(catalogue.T("What followed this message is replaced by the new reply. The earlier branch is kept: flip back to it with the arrows on the message."))),
	}, func(ok bool) {
		if ok && strings.TrimSpace(e.Text) != "" {
			t.resend(m, e.Text)
		}
	}, t.host.Window())
	kit.AnswerKeys(d, e) // Esc cancels; Shift+Enter sends, Enter is a new line
	d.Resize(d.MinSize().AddWidthHeight(240, 0))
	d.Show()
	t.host.Window().Canvas().Focus(e)
}

// resend adds an edited question as a new branch from where m was, with
// m's images, and streams its reply.
func (t replies) resend(m conversations.Message, text string) {
	store, lib, conv := t.store, t.host.Library(), t.current.ID
	t.host.Work().Go(func(ctx context.Context) {
		var images []conversations.NewImage
		for _, img := range m.Images {
			data, err := imageio.ReadFile(lib.InputPath(img.StoredInput))
			if err == nil {
				images = append(images, conversations.NewImage{Name: img.Name, Data: data})
			}
		}
		user, err := store.AddUser(ctx, conv, m.Parent, strings.TrimSpace(text), images)
		t.host.Work().Do(func() {
			if err != nil {
				dialog.ShowError(err, t.host.Window())
				return
			}
			t.startReply(conv, user, retryFull)
		})
	})
}

// showVersion shows the version of message id delta places away.
func (t replies) showVersion(id int64, delta int) {
	for _, m := range t.path {
		if m.ID != id {
			continue
		}
		k := m.Version + delta
		if k < 0 || k >= len(m.Siblings) || t.streams[t.current.ID] != nil {
			return
		}
		target := m.Siblings[k]
		t.write(func(ctx context.Context) error { return t.store.ShowVersion(ctx, t.current.ID, target) })
		return
	}
}

// deleteMessage asks, then deletes a message and what followed it.
func (t replies) deleteMessage(id int64) {
	if t.streams[t.current.ID] != nil {
		t.status.SetText(catalogue.T("A reply is being written: Stop it before deleting messages."))
		return
	}
	conv := t.current.ID
	d := dialog.NewConfirm(catalogue.T("Delete this message?"), catalogue.T("The message and everything after it in this branch are deleted."), func(ok bool) {
		if ok {
			t.write(func(ctx context.Context) error { return t.store.DeleteMessage(ctx, conv, id) })
		}
	}, t.host.Window())
	d.SetConfirmText(catalogue.T("Delete"))
	d.SetConfirmImportance(widget.DangerImportance)
	d.Show()
}
