// Package oledrag drags files out of a window on Windows, which Fyne does
// not offer: OLE's DoDragDrop, with a data object offering the files as
// CF_HDROP (the shell's list of files, which Explorer, browsers, chat apps
// and editors take) and a drop source that drops when the left button
// comes up and cancels on Esc. The two COM objects are written in Go
// (their tables of methods are syscall callbacks) so that no cgo and no
// COM library is needed. ui/dragout calls it; it knows nothing of Fyne.
//
// The package is empty on other systems.
package oledrag
