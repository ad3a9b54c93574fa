//go:build darwin

package dialogs

// modifierName is the shortcut modifier as macOS names it.
const modifierName = "Cmd"
