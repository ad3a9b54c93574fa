//go:build windows

// Command wintarget is a Windows app that files can be dropped on, for
// the real-window test of dragging images out of Easel.exe under Wine:
// a 200x200 window at (0,0) titled "droptarget", which prints each file
// dropped on it, one per line, then "dropped".
package main

import (
	"fmt"
	"os"
	"runtime"

	"easel/internal/testsupport/oletarget"
)

func main() {
	runtime.LockOSThread()
	_, err := oletarget.Window("droptarget", 0, 0, 200, 200, nil, func(files []string) {
		for _, f := range files {
			fmt.Println(f)
		}
		fmt.Println("dropped")
	})
	if err == nil {
		err = oletarget.Loop()
	}
	fmt.Fprintln(os.Stderr, "wintarget:", err)
	os.Exit(1)
}
