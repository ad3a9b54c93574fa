//go:build !unix || darwin

package main

// noDisplay: Windows and macOS always have a desktop to open on.
func noDisplay() (string, bool) { return "", false }

// onX11Only: Windows and macOS have one platform.
func onX11Only() {}
