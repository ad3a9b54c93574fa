//go:build !darwin

package dialogs

// modifierName is the shortcut modifier as Linux and Windows name it.
const modifierName = "Ctrl"
