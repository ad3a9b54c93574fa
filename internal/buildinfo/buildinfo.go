// Package buildinfo says which Easel this is: the version the build was
// given (-X easel/internal/buildinfo.Version=…, from FyneApp.toml), the
// commit, and the Go and Fyne it was built with, read from the binary.
package buildinfo

import (
	"fmt"
	"runtime/debug"
)

// Version and Commit are set by the build (-ldflags -X); a plain `go
// build` keeps these, and the commit Go recorded, when it did.
var (
	Version = "0.1.0"
	Commit  = ""
)

// Describe is one line for `easel --version` and About.
func Describe() string {
	commit, goVersion, fyneVersion := Commit, "unknown", "unknown"
	if info, ok := debug.ReadBuildInfo(); ok {
		goVersion = info.GoVersion
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && commit == "" {
				commit = s.Value[:min(len(s.Value), 12)]
			}
		}
		for _, m := range info.Deps {
			if m.Path == "fyne.io/fyne/v2" {
				fyneVersion = m.Version
			}
		}
	}
	if commit == "" {
		commit = "unknown"
	}
	return fmt.Sprintf("Easel %s (commit %s, %s, Fyne %s)", Version, commit, goVersion, fyneVersion)
}
