package instance

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
)

// endpointName names the endpoint of the window that owns dataDir by a
// hash of the folder, so two data folders (tests with their own
// EASEL_HOME) each have their own window.
func endpointName(dataDir string) (string, error) {
	abs, err := filepath.Abs(dataDir)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(abs))
	return "easel-" + hex.EncodeToString(sum[:6]), nil
}
