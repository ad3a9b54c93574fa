package dialogs

import (
	"context"
	"sort"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/library"
	"easel/internal/work"
	"easel/ui/kit"
)

// Learnt is Settings' section on what Easel has learnt of a profile's
// service from its answers (library.Trait): per model, what it honours
// and what it quietly does not, how sure, since when, each model with a
// Forget that lets the next answers teach it afresh.
type Learnt struct {
	host    Host
	profile config.Profile
	// Box is the section, for the settings pane.
	Box *fyne.Container
	// Lines are the shown lines, for tests; Forgets the Forget buttons
	// by model.
	Lines   []string
	Forgets map[string]*widget.Button
}

// newLearnt makes the section for p and fills it off the UI goroutine.
func newLearnt(h Host, p config.Profile) *Learnt {
	l := &Learnt{host: h, profile: p, Box: container.NewVBox(), Forgets: map[string]*widget.Button{}}
	l.reload()
	return l
}

// reload reads what is remembered and shows it.
func (l *Learnt) reload() {
	memory := l.host.Memory()
	if memory == nil || l.profile.ID == "" {
		return
	}
	work.Load(l.host.Work(), func(ctx context.Context) ([]library.Trait, error) { return memory.Traits(ctx, l.profile.ID, "") }, l.show)
}

func (l *Learnt) show(traits []library.Trait, err error) {
	l.Lines, l.Forgets = nil, map[string]*widget.Button{}
	objs := []fyne.CanvasObject{kit.HintLabel(catalogue.T("Learnt from this profile's answers: each image answer is compared with what was asked, and what the service does not honour shapes the next request. Forget lets a model's next answers teach it afresh."))}
	switch {
	case err != nil:
		objs = append(objs, kit.HintLabel(catalogue.T("Could not read what was learnt: ")+err.Error()))
	case len(traits) == 0:
		objs = append(objs, widget.NewLabel(catalogue.T("Nothing yet: no image answer from this profile has been measured.")))
	}
	// Per model (the library's order), what the service does not honour
	// first.
	sort.SliceStable(traits, func(i, j int) bool {
		if traits[i].Model != traits[j].Model {
			return traits[i].Model < traits[j].Model
		}
		return !traits[i].Honoured && traits[j].Honoured
	})
	for i := 0; i < len(traits); {
		model := traits[i].Model
		rows := container.NewVBox()
		for ; i < len(traits) && traits[i].Model == model; i++ {
			line := traits[i].Describe()
			if !traits[i].Honoured {
				line = "⚠ " + line
			}
			l.Lines = append(l.Lines, model+": "+line)
			rows.Add(kit.HintLabel(line))
		}
		forget := &widget.Button{Text: catalogue.T("Forget"), Icon: theme.ContentUndoIcon(), Importance: widget.LowImportance}
		forget.OnTapped = func() { l.forget(model) }
		l.Forgets[model] = forget
		title := widget.NewLabelWithStyle(model, fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
		objs = append(objs, container.NewBorder(nil, nil, nil, forget, title), rows)
	}
	l.Box.Objects = objs
	l.Box.Refresh()
}

// forget drops what was learnt of model and shows the rest.
func (l *Learnt) forget(model string) {
	memory := l.host.Memory()
	work.Run(l.host.Work(), func(ctx context.Context) error { return memory.Forget(ctx, l.profile.ID, model) }, func(err error) {
		if err != nil {
			l.Box.Add(kit.HintLabel(catalogue.F("Could not forget %s: %v", model, err)))
			return
		}
		l.reload()
	})
}
