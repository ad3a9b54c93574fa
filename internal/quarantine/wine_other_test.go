//go:build !windows

package quarantine

func underWine() bool { return false }
