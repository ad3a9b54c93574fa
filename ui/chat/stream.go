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
	"easel/internal/work"
	"easel/ui/kit"
	"easel/ui/room"
	"easel/ui/widgets/composer"
)

// replies sends the user's messages and streams the model's replies into
// the transcript, and does what a message's menu asks: regenerate,
// retry, edit and resend, step through versions, delete. It owns the
// replies streaming now; what it asks of the conversation on screen
// comes in as openAccess.
type replies struct {
	host     Host
	open     *openChat
	form     *settingsForm
	composer *composer.Entry
	attached *attachments
	// streams are the replies streaming now, by conversation.
	streams map[int64]*stream
}

// stream is one reply arriving, in a goroutine of its own.
type stream struct {
	t     *replies
	conv  int64
	reply int64
	model string
	// profile, group and prices are the account the reply is asked of,
	// the group of the key it goes on and its prices, as they were when
	// it was sent: what the ledger records.
	profile, group string
	prices         pricing.Table
	cancel         context.CancelFunc
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
func (t *replies) sendMessage(text string) {
	open, _ := t.open.current()
	c, err := t.form.read(open)
	if err != nil {
		t.open.say(err.Error())
		return
	}
	atts := t.attached.take()
	t.composer.SetText("")
	t.open.setCurrent(c)
	store := t.open.Store()
	var images []conversations.NewImage
	for _, a := range atts {
		images = append(images, conversations.NewImage{Name: a.name, Data: a.data})
		t.open.keepThumb(hashOf(a.data), a.thumb)
	}
	work.Load(t.host.Work(), func(ctx context.Context) (int64, error) {
		if c.ID == 0 {
			c.Title = conversations.TitleFrom(text)
			if strings.TrimSpace(text) == "" {
				c.Title = catalogue.T("Images")
			}
			id, err := store.Create(ctx, c)
			if err != nil {
				return 0, err
			}
			c.ID = id
		} else if err := store.SetSettings(ctx, c); err != nil {
			return 0, err
		}
		return store.AddUser(ctx, c.ID, c.Leaf, strings.TrimSpace(text), images)
	}, func(user int64, err error) {
		if err != nil {
			t.restoreDraft(text, atts, err)
			return
		}
		if now, _ := t.open.current(); now.ID == 0 || now.ID == c.ID {
			t.open.setCurrent(c)
		}
		t.startReply(c.ID, user, retryFull)
	})
}

// restoreDraft puts an unsent message back in the composer and says why.
func (t *replies) restoreDraft(text string, atts []attachment, err error) {
	if t.composer.Text == "" {
		t.composer.SetText(text)
	}
	t.attached.putBack(atts)
	dialog.ShowError(fmt.Errorf(catalogue.T("the message was not sent: %w"), err), t.host.Window())
}

// startReply streams a reply to message parent of conversation conv:
// the branch up to parent is sent (kind says how much of it), a new
// reply follows parent (a new version if it had one).
func (t *replies) startReply(conv, parent int64, kind retryKind) {
	client := t.host.Service().Client()
	if client == nil {
		t.open.say(room.ServiceText(t.host))
		t.open.reload()
		return
	}
	if t.streams[conv] != nil {
		return
	}
	ctx, cancel := context.WithCancel(t.host.Work().Context())
	cur := t.host.Service().Current()
	s := &stream{t: t, conv: conv, cancel: cancel, profile: cur.ID, group: cur.UsingGroup(), prices: cur.Prices}
	t.streams[conv] = s
	t.open.streaming()
	store := t.open.Store()
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
		Profile: s.profile, Group: s.group, Prices: s.prices}
	res, err := chatreply.Run(ctx, store, client, chatreply.LedgerOf(t.host.Library().Ledger()), r, s.stopped.Load, chatreply.Listener{
		Started: func(reply int64, model string, history []conversations.Message) {
			t.host.Work().Do(func() {
				s.reply, s.model = reply, model
				if open, _ := t.open.current(); open.ID == s.conv {
					// The branch as sent, then the reply as it arrives.
					t.open.showSent(s.reply, history, conversations.Message{ID: s.reply, Role: api.RoleAssistant, Model: s.model, State: conversations.Streaming})
					t.open.say(catalogue.T("Writing… Esc or Stop ends it and keeps the text."))
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
			t.open.streaming()
			dialog.ShowError(err, t.host.Window())
			t.open.reload()
			return
		}
		if res.KeepErr != nil {
			dialog.ShowError(fmt.Errorf(catalogue.T("the reply could not be kept: %w"), res.KeepErr), t.host.Window())
		}
		if open, _ := t.open.current(); open.ID == s.conv {
			t.open.streaming()
			switch res.End.State {
			case conversations.Done:
				t.open.say(room.ServiceText(t.host))
			case conversations.Stopped:
				t.open.say(catalogue.T("Stopped: the text so far is kept."))
			default:
				t.open.say(res.End.ErrorText)
			}
			t.open.reload()
		} else {
			t.open.relist()
		}
	})
}

// show draws the reply so far, when its conversation is open.
func (s *stream) show(text, reasoning string) {
	t := s.t
	if open, _ := t.open.current(); open.ID != s.conv || t.streams[s.conv] != s {
		return
	}
	t.open.showReply(conversations.Message{ID: s.reply, Role: api.RoleAssistant, Model: s.model,
		State: conversations.Streaming, Content: text, Reasoning: reasoning})
}

// showNow draws the reply as last written (its conversation was opened
// again while it streams).
func (s *stream) showNow() {
	s.show(s.shownText, s.shownReasoning)
}

// stop ends conversation conv's reply at once, keeping its text.
func (t *replies) stop(conv int64) {
	if s := t.streams[conv]; s != nil {
		s.stopped.Store(true)
		s.cancel()
	}
}

// cancel cuts conversation conv's reply (its conversation is deleted).
func (t *replies) cancel(conv int64) {
	if s := t.streams[conv]; s != nil {
		s.cancel()
	}
}

// of is conversation conv's reply streaming now, nil for none.
func (t *replies) of(conv int64) *stream { return t.streams[conv] }

// regenerate writes the last reply again; the earlier one is kept as a
// version.
func (t *replies) regenerate(id int64) {
	open, path := t.open.current()
	for _, m := range path {
		if m.ID == id && m.Role == api.RoleAssistant {
			t.open.saveSettings()
			t.startReply(open.ID, m.Parent, retryFull)
			return
		}
	}
}

// retry tries a failed reply again: with only the last question, or
// without its images.
func (t *replies) retry(id int64, kind retryKind) {
	open, path := t.open.current()
	for _, m := range path {
		if m.ID == id {
			t.startReply(open.ID, m.Parent, kind)
			return
		}
	}
}

// editMessage asks for a new text for an earlier question and sends it:
// what followed is replaced, the old branch kept as a version.
func (t *replies) editMessage(id int64) {
	var msg *conversations.Message
	open, path := t.open.current()
	for i := range path {
		if path[i].ID == id {
			msg = &path[i]
		}
	}
	if msg == nil || t.streams[open.ID] != nil {
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
func (t *replies) resend(m conversations.Message, text string) {
	open, _ := t.open.current()
	store, lib, conv := t.open.Store(), t.host.Library(), open.ID
	work.Load(t.host.Work(), func(ctx context.Context) (int64, error) {
		var images []conversations.NewImage
		for _, img := range m.Images {
			data, err := imageio.ReadFile(lib.Inputs().Path(img.StoredInput))
			if err == nil {
				images = append(images, conversations.NewImage{Name: img.Name, Data: data})
			}
		}
		return store.AddUser(ctx, conv, m.Parent, strings.TrimSpace(text), images)
	}, func(user int64, err error) {
		if err != nil {
			dialog.ShowError(err, t.host.Window())
			return
		}
		t.startReply(conv, user, retryFull)
	})
}

// showVersion shows the version of message id delta places away.
func (t *replies) showVersion(id int64, delta int) {
	open, path := t.open.current()
	for _, m := range path {
		if m.ID != id {
			continue
		}
		k := m.Version + delta
		if k < 0 || k >= len(m.Siblings) || t.streams[open.ID] != nil {
			return
		}
		target, store := m.Siblings[k], t.open.Store()
		t.open.write(func(ctx context.Context) error { return store.ShowVersion(ctx, open.ID, target) })
		return
	}
}

// deleteMessage asks, then deletes a message and what followed it.
func (t *replies) deleteMessage(id int64) {
	open, _ := t.open.current()
	if t.streams[open.ID] != nil {
		t.open.say(catalogue.T("A reply is being written: Stop it before deleting messages."))
		return
	}
	conv, store := open.ID, t.open.Store()
	d := dialog.NewConfirm(catalogue.T("Delete this message?"), catalogue.T("The message and everything after it in this branch are deleted."), func(ok bool) {
		if ok {
			t.open.write(func(ctx context.Context) error { return store.DeleteMessage(ctx, conv, id) })
		}
	}, t.host.Window())
	d.SetConfirmText(catalogue.T("Delete"))
	d.SetConfirmImportance(widget.DangerImportance)
	d.Show()
}
