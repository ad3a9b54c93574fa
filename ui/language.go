package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"

	"easel/internal/catalogue"
)

// loadLanguages gives Fyne's lang package Easel's catalogue. Loading a
// file makes Fyne choose its language again from the user's locales, which
// main has set by then (LANGUAGE, for a language picked in Settings): Fyne
// chose once already while its package initialised, before main ran, and
// its own words (the file dialog's Open and Cancel) would otherwise stay in
// the system's language.
func loadLanguages() {
	for tag, data := range catalogue.Files() {
		if err := lang.AddTranslationsForLocale(data, fyne.Locale(tag)); err != nil {
			fyne.LogError("loading the "+tag+" words", err)
		}
	}
}
