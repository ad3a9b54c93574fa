package edit

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"easel/internal/catalogue"
	"easel/internal/editsession"
	"easel/internal/work"
	"easel/ui/dialogs"
	"easel/ui/room"
	"easel/ui/widgets/promptentry"
)

// Edit as a document the designer names: File ▸ Save Edit setup… keeps
// the references with their roles, each mask, the marks, the prompt and
// the options in one file (editsession's setup); Open Edit setup… puts
// them back in place of what is in Edit, one Undo away. Edit's own
// session is kept without asking (persist.go); a setup is for a
// recurring composite.

// Setups saves and opens Edit's work as setup files. It reads and
// changes the parts of Edit a setup holds: the strip and its keeper, the
// painter's masks, the prompt and the options; it says what happened on
// Edit's status line.
type Setups struct {
	host   Host
	strip  *refStrip
	kept   *sessionKeeper
	mask   *maskTools
	prompt *promptentry.Entry
	send   *room.Sender
}

// Setups is the tab's setup files.
func (t *Room) Setups() *Setups {
	return &Setups{host: t.host, strip: t.strip, kept: t.kept, mask: t.mask, prompt: t.prompt, send: &t.Sender}
}

// Save asks where to write Edit's work as a setup file.
func (t *Setups) Save() {
	if len(t.strip.inputs) == 0 {
		t.send.SetStatus(catalogue.T("Add images first: a setup keeps Edit's references, their masks and marks, the prompt and the options."))
		return
	}
	name := strings.TrimSuffix(t.strip.inputs[0].Image.Name, filepath.Ext(t.strip.inputs[0].Image.Name)) + editsession.SetupExt
	dialogs.SaveEncoded(t.host, catalogue.T("Save Edit setup"), name, catalogue.T("setup"), t.setup())
}

// setup takes Edit's work as it stands, on the UI goroutine, and
// returns its encoding as a setup file, for off it.
func (t *Setups) setup() func() ([]byte, error) {
	snap := t.kept.snapshot()
	prompt, options := t.prompt.Text, t.send.Options().Options()
	return func() ([]byte, error) {
		return editsession.EncodeSetup(editsession.Setup{Session: snap.session(), Prompt: prompt, Options: options})
	}
}

// Open asks for a setup file and opens it in Edit.
func (t *Setups) Open() {
	dialogs.PickFile(t.host, catalogue.T("Open Edit setup"), catalogue.T("Open"), editsession.SetupExt, catalogue.T("Edit setups"), t.OpenFile)
}

// OpenFile reads the setup at path off the UI goroutine and puts it
// in Edit in place of what is there; what it names that is gone is said.
func (t *Setups) OpenFile(path string) {
	t.kept.supersede()
	type opened struct {
		setup editsession.Setup
		kept
	}
	work.Load(t.host.Work(), func(ctx context.Context) (opened, error) {
		f, err := os.Open(path)
		if err != nil {
			return opened{}, err
		}
		defer f.Close()
		s, err := editsession.ReadSetup(f)
		if err != nil {
			return opened{}, err
		}
		return opened{setup: s, kept: t.kept.read(ctx, s.Session)}, nil
	}, func(o opened, err error) {
		name := filepath.Base(path)
		if err == nil && len(o.inputs) == 0 {
			err = errors.New(catalogue.T("none of the images it names could be read"))
		}
		if err != nil {
			t.send.SetStatus(catalogue.F("The setup %s was not opened: %v", name, err))
			return
		}
		old, oldMasks, oldPrompt, oldOptions := t.strip.inputs, maps.Clone(t.mask.masks), t.prompt.Text, t.send.Options().Options()
		t.strip.inputs = nil
		t.kept.put(o.kept)
		t.prompt.SetText(o.setup.Prompt)
		t.send.Options().SetOptions(o.setup.Options)
		said := catalogue.N("Opened the setup %s: %d image.", len(o.inputs), name, len(o.inputs))
		if len(o.lost) > 0 {
			said += " " + catalogue.F("Gone since it was saved: %s.", strings.Join(o.lost, ", "))
		}
		t.send.SetStatusUndo(said, func() {
			maps.Copy(t.mask.masks, oldMasks)
			t.strip.restore(old)
			t.prompt.SetText(oldPrompt)
			t.send.Options().SetOptions(oldOptions)
		})
	})
}
