// Package e2e drives the real easel binary in a real X11 window (under
// Xvfb, with xdotool for keys and the pointer; windows are found and their
// pixels read over the X11 protocol itself, in x11_test.go), because the Fyne test driver cannot show that the window
// opens, draws, takes keys and drops, and exits. Its tests and benchmarks
// build only with the e2e tag: `make e2e`, `make bench`, `make screenshot`.
package e2e
