package dialogs

import (
	"strings"

	"easel/ui/widgets/iconbutton"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/ui/kit"
)

// groupsEditor is the profile form's account groups: a gateway (new-api,
// one-api) offers models, prices and permissions per group, and a user may
// hold a key for several groups of one gateway. The profile's own key gets
// a group label; each further group a name and its key, kept in the
// keyring under the profile's id and the group, never shown again.
type groupsEditor struct {
	// Own labels the profile's own key with its group.
	Own  *widget.Entry
	rows []*groupRow
	box  *fyne.Container
	add  *widget.Button
	// Box holds the rows and Add group, for the form.
	Box *fyne.Container
}

// groupRow is one further group: its name, a key to save (empty keeps
// the saved one) and Remove.
type groupRow struct {
	Name, Key *widget.Entry
	obj       fyne.CanvasObject
	// saved is the name the group had when the form opened, "" for a
	// new one: its key is in the keyring under that name.
	saved string
}

func newGroupsEditor(p config.Profile) *groupsEditor {
	g := &groupsEditor{Own: &widget.Entry{Text: p.Group, PlaceHolder: catalogue.T("e.g. default — the gateway's group of this key")}}
	g.box = container.NewVBox()
	g.add = &widget.Button{Text: catalogue.T("Add group"), Icon: theme.ContentAddIcon(), Importance: widget.LowImportance, OnTapped: func() { g.addRow("", true) }}
	for _, name := range p.Groups {
		g.addRow(name, false)
	}
	g.Box = container.NewVBox(g.box, container.NewHBox(g.add))
	return g
}

// addRow adds a group row; fresh is a group the form adds now.
func (g *groupsEditor) addRow(name string, fresh bool) *groupRow {
	r := &groupRow{Name: &widget.Entry{Text: name, PlaceHolder: catalogue.T("group, e.g. vip")}, Key: kit.KeyEntry()}
	if !fresh {
		r.saved = name
		r.Key.SetPlaceHolder(catalogue.T("Key saved in the keyring — type to replace it"))
	} else {
		r.Key.SetPlaceHolder(catalogue.T("This group's key"))
	}
	remove := iconbutton.Low(catalogue.T("Remove this group's key"), theme.DeleteIcon(), nil)
	r.obj = container.NewBorder(nil, nil, container.NewGridWrap(fyne.NewSize(140, r.Name.MinSize().Height), r.Name), remove, r.Key)
	remove.OnTapped = func() {
		for i, x := range g.rows {
			if x == r {
				g.rows = append(g.rows[:i], g.rows[i+1:]...)
			}
		}
		g.box.Remove(r.obj)
	}
	g.rows = append(g.rows, r)
	g.box.Add(r.obj)
	return r
}

// AddGroup adds a row with name and key typed, for tests.
func (g *groupsEditor) AddGroup(name, key string) {
	r := g.addRow("", true)
	r.Name.SetText(name)
	r.Key.SetText(key)
}

// fields are the editor's values, for telling unsaved changes.
func (g *groupsEditor) fields() []string {
	out := []string{g.Own.Text}
	for _, r := range g.rows {
		out = append(out, r.Name.Text, r.Key.Text)
	}
	return out
}

// apply writes the groups into p.
func (g *groupsEditor) apply(p *config.Profile) {
	p.Group = strings.TrimSpace(g.Own.Text)
	p.Groups = nil
	for _, r := range g.rows {
		if name := strings.TrimSpace(r.Name.Text); name != "" {
			p.Groups = append(p.Groups, name)
		}
	}
	if !p.HasGroup(p.ActiveGroup) {
		p.ActiveGroup = ""
	}
}

// groupKeys are the keys to write once p is saved: each typed key under
// its group's account, and the accounts of removed or renamed groups to
// delete. It reads the widgets: call it on the UI goroutine.
func (g *groupsEditor) groupKeys(orig, p config.Profile) (set map[string]string, drop []string) {
	set = map[string]string{}
	kept := map[string]bool{}
	for _, r := range g.rows {
		name := strings.TrimSpace(r.Name.Text)
		if name == "" {
			continue
		}
		kept[name] = true
		if key := strings.TrimSpace(r.Key.Text); key != "" {
			set[p.KeyAccount(name)] = key
		}
	}
	for _, old := range orig.Groups {
		if !kept[old] {
			drop = append(drop, orig.KeyAccount(old))
		}
	}
	return set, drop
}
