package chat

import (
	"context"
	"fmt"
	"image"

	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/conversations"
	"easel/internal/imageio"
	"easel/internal/work"
	"easel/ui/room"
	"easel/ui/widgets/transcript"
)

// openChat is the conversation open in the tab, and its one owner: the
// store it is kept in, which conversation it is (with its settings), the
// branch shown and the thumbnails of its images, and what shows them
// (the title, the transcript, the settings form, the line beside Send).
// The list beside it and the replies streaming into it read and change
// it through its methods; it was twenty closures over the room, one of
// them a setter (#58).
type openChat struct {
	host Host
	// store is nil until opened (off the UI goroutine), or when the
	// gallery could not be opened; storeErr says why.
	store    *conversations.Store
	storeErr error
	// conv is the open conversation (ID 0: a new one, not yet saved);
	// path its branch shown; thumbs the thumbnails of images shown, by
	// content hash.
	conv   conversations.Conversation
	path   []conversations.Message
	thumbs map[string]image.Image

	title      *widget.Label
	transcript *transcript.Transcript
	form       *settingsForm
	status     *widget.Label
	// list is the conversations beside it, replies the replies
	// streaming (made with it, set once both are); send is the room's
	// Send row: Send or Stop, and the estimate under it.
	list    *convList
	replies *replies
	send    interface {
		syncSend()
		showEstimate()
	}
}

// Store is the conversations' store, nil until open.
func (o *openChat) Store() *conversations.Store { return o.store }

// current is the open conversation and the branch it shows.
func (o *openChat) current() (conversations.Conversation, []conversations.Message) {
	return o.conv, o.path
}

// setCurrent replaces the open conversation (its settings read from the
// form, or the new one once saved).
func (o *openChat) setCurrent(c conversations.Conversation) { o.conv = c }

// keepThumb remembers an attached image's thumbnail by its hash.
func (o *openChat) keepThumb(hash string, img image.Image) { o.thumbs[hash] = img }

// say puts text on the line beside Send.
func (o *openChat) say(text string) { o.status.SetText(text) }

// streaming is told when the open conversation's reply starts or ends:
// Send becomes Stop and back.
func (o *openChat) streaming() { o.send.syncSend() }

// showSent draws the branch as sent and the reply beginning after it.
func (o *openChat) showSent(leaf int64, history []conversations.Message, reply conversations.Message) {
	o.conv.Leaf, o.path = leaf, history
	o.showPath()
	o.transcript.Append(view(reply, o.host.Service().Current().Prices, o.thumbs))
}

// showReply draws the reply so far.
func (o *openChat) showReply(m conversations.Message) {
	o.transcript.UpdateLast(view(m, o.host.Service().Current().Prices, o.thumbs))
}

// showPath draws the open conversation's branch.
func (o *openChat) showPath() {
	o.send.showEstimate()
	msgs := make([]transcript.Message, len(o.path))
	prices := o.host.Service().Current().Prices
	for i, m := range o.path {
		msgs[i] = view(m, prices, o.thumbs)
	}
	o.transcript.SetMessages(msgs)
}

// fresh makes the open conversation a new one, on the profile's chat
// model: saved once its first message is sent.
func (o *openChat) fresh() {
	o.conv = conversations.Conversation{Title: catalogue.T("New chat"), Model: o.host.Service().Current().ChatModel}
	if o.conv.Model == "" {
		o.conv.Model = "gpt-4o-mini"
	}
	o.path = nil
	o.form.show(o.conv)
	o.title.SetText(catalogue.T("New chat"))
	o.transcript.SetMessages(nil)
	if o.list != nil {
		o.list.list.UnselectAll()
	}
	o.send.syncSend()
}

// openStore opens the conversations off the UI goroutine and lists them.
func (o *openChat) openStore() {
	lib := o.host.Library()
	if lib == nil {
		o.storeErr = fmt.Errorf(catalogue.T("the gallery could not be opened, and conversations are kept with it: %v"), o.host.LibraryErr())
		o.status.SetText(o.storeErr.Error())
		return
	}
	work.Load(o.host.Work(), func(ctx context.Context) (*conversations.Store, error) { return conversations.Open(ctx, lib) }, func(s *conversations.Store, err error) {
		o.store, o.storeErr = s, err
		if err != nil {
			o.status.SetText(err.Error())
			return
		}
		o.list.reloadList()
	})
}

// open shows conversation id, read off the UI goroutine, keeping the
// settings of the one it replaces.
func (o *openChat) open(id int64) {
	if o.store == nil {
		return
	}
	o.saveSettings()
	o.load(id, nil)
}

// restored shows a conversation brought back from the trash.
func (o *openChat) restored(id int64) { o.load(id, nil) }

// deleted is told conversation id was deleted: its reply stops, and a
// new chat takes its place if it was open.
func (o *openChat) deleted(id int64) {
	o.replies.cancel(id)
	if o.conv.ID == id {
		o.fresh()
	}
}

// load reads conversation id and its branch (with the thumbnails of its
// images) off the UI goroutine, then shows it, and calls then.
func (o *openChat) load(id int64, then func()) {
	store, lib := o.store, o.host.Library()
	thumbs := map[string]image.Image{} // filled by the load, read once it is shown
	work.Load(o.host.Work(), func(ctx context.Context) (branch, error) {
		b, err := readConversation(ctx, store, id)
		for _, m := range b.path {
			for _, img := range m.Images {
				if _, ok := thumbs[img.Hash]; !ok {
					thumbs[img.Hash], _ = imageio.DecodeFileFit(lib.Inputs().Path(img.StoredInput), 192)
				}
			}
		}
		return b, err
	}, func(b branch, err error) {
		if err != nil {
			dialog.ShowError(fmt.Errorf(catalogue.T("cannot open the conversation: %w"), err), o.host.Window())
			return
		}
		for k, v := range thumbs {
			o.thumbs[k] = v
		}
		o.conv, o.path = b.conv, b.path
		o.title.SetText(b.conv.Title)
		o.form.show(o.conv)
		o.showPath()
		o.send.syncSend()
		if s := o.replies.of(id); s != nil {
			s.showNow()
		} else {
			o.status.SetText(room.ServiceText(o.host))
		}
		if then != nil {
			then()
		}
	})
}

// reload reads the open conversation and the list again (after a
// change).
func (o *openChat) reload() {
	if o.conv.ID != 0 {
		o.load(o.conv.ID, nil)
	}
	o.list.reloadList()
}

// relist reads only the list again.
func (o *openChat) relist() { o.list.reloadList() }

// write runs a change to the store off the UI goroutine, then reloads.
func (o *openChat) write(f func(context.Context) error) {
	if o.store == nil {
		return
	}
	work.Run(o.host.Work(), func(ctx context.Context) error { return f(ctx) }, func(err error) {
		if err != nil {
			dialog.ShowError(err, o.host.Window())
		}
		o.reload()
	})
}

// saveSettings keeps the form's values with the open conversation when
// they changed.
func (o *openChat) saveSettings() {
	c, err := o.form.read(o.conv)
	if err != nil || o.conv.ID == 0 || sameSettings(c, o.conv) {
		return
	}
	o.conv = c
	store := o.store
	// The user's choice is written even as the window closes.
	work.Run(o.host.Work(), func(ctx context.Context) error { return store.SetSettings(context.WithoutCancel(ctx), c) }, nil)
}
