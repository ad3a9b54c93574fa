// Package layout holds no code: its tests keep the house's shape, which
// a review would otherwise have to re-check by hand each time. internal/
// and cmd/ never import Fyne (they run without a window, and on darwin
// are type-checked where Fyne cannot be); the image rules in imageio do
// not depend on the HTTP client; and no type in ui/ grows into a hub.
package architecture
