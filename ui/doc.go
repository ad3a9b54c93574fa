// Package ui is Easel's window: it builds the Fyne widgets and reacts to
// the user. It holds no service, storage or job logic of its own — those
// live in internal/ and are reached through plain Go values — and every
// change that arrives from a goroutine goes through the one Bridge in
// bridge.go, the only place that calls fyne.Do.
package ui
