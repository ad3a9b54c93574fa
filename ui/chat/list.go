package chat

import (
	"context"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/conversations"
	"easel/ui/kit"
	"easel/ui/widgets/popmenu"
)

// convList is the list of conversations beside the transcript: it is
// searched, and each row's menu renames, deletes (with Undo), exports
// and copies its conversation.
type convList struct{ *Room }

// buildList makes the left side: New chat, the search, the list of
// conversations (pinned first, then newest), and the bar that undoes a
// delete.
func (t convList) buildList() fyne.CanvasObject {
	newChat := &widget.Button{Text: catalogue.T("New chat (Ctrl+N)"), Icon: theme.ContentAddIcon(), OnTapped: t.NewChat}
	t.search = widget.NewEntry()
	t.search.SetPlaceHolder(catalogue.T("Search conversations"))
	t.search.OnChanged = func(string) { t.reloadList() }
	t.list = widget.NewList(
		func() int { return len(t.convs) },
		func() fyne.CanvasObject {
			pin := widget.NewIcon(theme.RadioButtonCheckedIcon())
			title := widget.NewLabel("")
			title.Truncation = fyne.TextTruncateEllipsis
			more := &widget.Button{Icon: theme.MoreVerticalIcon(), Importance: widget.LowImportance}
			return container.NewBorder(nil, nil, pin, more, title)
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i >= len(t.convs) {
				return
			}
			c := t.convs[i]
			row := o.(*fyne.Container)
			row.Objects[0].(*widget.Label).SetText(c.Title)
			row.Objects[1].(*widget.Icon).Hidden = !c.Pinned
			more := row.Objects[2].(*widget.Button)
			more.OnTapped = func() { t.conversationMenu(c, more) }
		},
	)
	t.list.OnSelected = func(i widget.ListItemID) {
		if i < len(t.convs) && t.convs[i].ID != t.current.ID {
			t.open(t.convs[i].ID)
		}
	}
	t.undoText = widget.NewLabel("")
	t.undoText.Wrapping = fyne.TextWrapWord
	undo := &widget.Button{Text: catalogue.T("Undo"), Icon: theme.ContentUndoIcon(), OnTapped: t.undoDelete}
	t.undoBar = container.NewBorder(nil, nil, nil, undo, t.undoText)
	t.undoBar.Hide()
	t.noMatch = kit.HintLabel("")
	t.noMatch.Hide()
	return container.NewBorder(container.NewVBox(newChat, t.search, t.noMatch), t.undoBar, nil, nil, t.list)
}

// reloadList reads the conversations (those matching the search) off the
// UI goroutine.
func (t convList) reloadList() {
	if t.store == nil {
		return
	}
	store, q := t.store, t.search.Text
	t.host.Work().Go(func(ctx context.Context) {
		convs, err := store.List(ctx, q)
		t.host.Work().Do(func() {
			if q != t.search.Text {
				return // typed on since
			}
			if err != nil {
				t.status.SetText(err.Error())
				return
			}
			t.convs = convs
			t.noMatch.Hidden = q == "" || len(convs) > 0
			t.noMatch.SetText(catalogue.F("No conversation holds “%s”.", q))
			t.list.Refresh()
			t.list.UnselectAll()
			for i, c := range convs {
				if c.ID == t.current.ID {
					t.list.Select(i)
				}
			}
		})
	})
}

// conversationMenu offers Rename, Pin, Export, Copy and Delete for c.
func (t convList) conversationMenu(c conversations.Conversation, at fyne.CanvasObject) {
	pin := catalogue.T("Pin to the top")
	if c.Pinned {
		pin = catalogue.T("Unpin")
	}
	del := fyne.NewMenuItem(catalogue.T("Delete"), func() { t.deleteConversation(c) })
	del.Icon = theme.DeleteIcon()
	menu := fyne.NewMenu("",
		fyne.NewMenuItem(catalogue.T("Rename…"), func() { t.rename(c) }),
		fyne.NewMenuItem(pin, func() { t.write(func(ctx context.Context) error { return t.store.SetPinned(ctx, c.ID, !c.Pinned) }) }),
		fyne.NewMenuItem(catalogue.T("Export as Markdown…"), func() { t.fetch(c.ID, t.exportMarkdownOf) }),
		fyne.NewMenuItem(catalogue.T("Copy conversation"), func() { t.fetch(c.ID, t.copyConversationOf) }),
		fyne.NewMenuItemSeparator(), del)
	popmenu.ShowBelow(menu, at)
}

// write runs a change to the store off the UI goroutine, then reloads.
func (t *Room) write(f func(context.Context) error) {
	if t.store == nil {
		return
	}
	t.host.Work().Go(func(ctx context.Context) {
		err := f(ctx)
		t.host.Work().Do(func() {
			if err != nil {
				dialog.ShowError(err, t.host.Window())
			}
			t.reload()
		})
	})
}

// rename asks for a conversation's new title.
func (t convList) rename(c conversations.Conversation) {
	e := kit.NewDialogEntry()
	e.SetText(c.Title)
	d := dialog.NewForm(catalogue.T("Rename conversation"), catalogue.T("Rename"), catalogue.T("Cancel"), []*widget.FormItem{widget.NewFormItem(catalogue.T("Title"), e)}, func(ok bool) {
		if ok && e.Text != "" {
			t.write(func(ctx context.Context) error { return t.store.Rename(ctx, c.ID, e.Text) })
		}
	}, t.host.Window())
	kit.AnswerKeys(d, e)
	d.Resize(fyne.NewSize(460, d.MinSize().Height))
	d.Show()
	t.host.Window().Canvas().Focus(e)
}

// deleteConversation deletes c at once; Undo brings it back until Easel
// closes.
func (t convList) deleteConversation(c conversations.Conversation) {
	// No question first: Undo below the list brings it back until Easel
	// closes, and one safeguard is enough.
	if s := t.streams[c.ID]; s != nil {
		s.cancel()
	}
	t.write(func(ctx context.Context) error { return t.store.Delete(ctx, c.ID) })
	t.deleted = c.ID
	t.undoText.SetText(catalogue.F("Deleted “%s”.", c.Title))
	t.undoBar.Show()
	if t.current.ID == c.ID {
		t.newChat()
	}
}

// undoDelete brings the last deleted conversation back and opens it.
func (t convList) undoDelete() {
	id := t.deleted
	if id == 0 {
		return
	}
	t.deleted = 0
	t.undoBar.Hide()
	t.write(func(ctx context.Context) error { return t.store.Restore(ctx, id) })
	t.load(id, nil)
}

// exportMarkdown saves the open conversation as a Markdown file.
func (t convList) exportMarkdown() {
	if t.current.ID == 0 {
		dialog.ShowInformation(catalogue.T("Nothing to export yet"), catalogue.T("Send a message first: a new chat is saved with its first message."), t.host.Window())
		return
	}
	t.exportMarkdownOf(t.current, t.path)
}

// exportMarkdownOf saves conversation c, whose shown branch is path, as
// Markdown.
func (t convList) exportMarkdownOf(c conversations.Conversation, path []conversations.Message) {
	saveText(t.Room, fileName(c.Title)+".md", []byte(conversations.Markdown(c, path)))
}

// fetch reads conversation id and its shown branch off the UI goroutine
// for then, without opening it: a list row's Export or Copy leaves the
// conversation on screen (and the list's highlight) where they were.
func (t convList) fetch(id int64, then func(conversations.Conversation, []conversations.Message)) {
	store := t.store
	t.host.Work().Go(func(ctx context.Context) {
		c, path, err := readConversation(ctx, store, id)
		t.host.Work().Do(func() {
			if err != nil {
				dialog.ShowError(fmt.Errorf(catalogue.T("cannot open the conversation: %w"), err), t.host.Window())
				return
			}
			then(c, path)
		})
	})
}

// copyConversation puts the open conversation on the clipboard as
// Markdown.
func (t convList) copyConversation() {
	if t.current.ID == 0 {
		return
	}
	t.copyConversationOf(t.current, t.path)
}

// copyConversationOf puts conversation c, whose shown branch is path, on
// the clipboard as Markdown.
func (t convList) copyConversationOf(c conversations.Conversation, path []conversations.Message) {
	t.host.Clipboard().SetContent(conversations.Markdown(c, path))
	t.status.SetText(catalogue.T("The conversation is on the clipboard, as Markdown."))
}

// readConversation reads conversation id and the branch it shows.
func readConversation(ctx context.Context, store *conversations.Store, id int64) (conversations.Conversation, []conversations.Message, error) {
	c, err := store.Get(ctx, id)
	if err != nil {
		return c, nil, err
	}
	path, err := store.Path(ctx, id)
	return c, path, err
}
