// Package architecture holds no code: its tests keep the house's shape,
// which a review would otherwise have to re-check by hand each time.
// internal/ and cmd/ never import Fyne (they run without a window, and on
// darwin are type-checked where Fyne cannot be); the image rules in
// imageio do not depend on the HTTP client; no type grows into a hub (30
// methods in ui/, 35 in internal/); no function passes complexity 15; and
// ui/ starts its work one way, on the window's context.
package architecture
