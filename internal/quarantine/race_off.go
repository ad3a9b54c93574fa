//go:build !race

package quarantine

// raceBuild: see race_on.go.
const raceBuild = false
