package ui

import (
	"easel/internal/catalogue"
	"easel/ui/promptlib"
)

// promptTargets are the tabs that take a prompt, for the prompt library:
// using an entry there shows the tab.
func promptTargets(a *App) []promptlib.Target {
	a.ensureBuilt(TabGenerate)
	a.ensureBuilt(TabEdit)
	a.ensureBuilt(TabChat)
	return []promptlib.Target{
		{Name: catalogue.T("Text to image"), Get: func() string { return a.generate.Prompt().Text },
			Set: func(s string) { a.SelectTab(TabGenerate); a.generate.Prompt().SetText(s) }},
		{Name: catalogue.T("Edit"), Get: func() string { return a.edit.Prompt().Text },
			Set: func(s string) { a.SelectTab(TabEdit); a.edit.Prompt().SetText(s) }},
		{Name: catalogue.T("Chat"), Get: func() string { return a.chat.Composer().Text },
			Set: func(s string) { a.SelectTab(TabChat); a.chat.Composer().SetText(s) }},
	}
}

// showPromptLibrary opens the prompt library (Edit ▸ Prompt library…).
func showPromptLibrary(a *App) { promptlib.Show(a.host, promptTargets(a)) }

// keepPrompt offers the current tab's prompt to the prompt library (Edit
// ▸ Keep prompt in library…); from a tab without one, an empty entry.
func keepPrompt(a *App) {
	text, source := "", ""
	for _, t := range promptTargets(a) {
		if t.Name == tabTitles()[a.CurrentTab()] {
			text, source = t.Get(), t.Name
		}
	}
	promptlib.Keep(a.host, text, source, nil)
}
