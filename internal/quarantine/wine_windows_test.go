package quarantine

import "syscall"

// underWine reports whether the tests run under Wine, which does not
// enforce a job object's memory limit: ntdll exports wine_get_version
// there, and nowhere on Windows.
func underWine() bool {
	ntdll, err := syscall.LoadDLL("ntdll.dll")
	if err != nil {
		return false
	}
	defer ntdll.Release()
	_, err = ntdll.FindProc("wine_get_version")
	return err == nil
}
