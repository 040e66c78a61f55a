package main

import (
	"errors"
	"os"
	"runtime"
)

// checkDisplay says why no window can be opened, before Fyne is started:
// on the X11 desktops (Linux, the BSDs) a window needs DISPLAY, and without
// it the windowing library fails deep inside with a panic.
func checkDisplay() error {
	switch runtime.GOOS {
	case "darwin", "windows", "android", "ios", "js":
		return nil
	}
	if os.Getenv("DISPLAY") == "" {
		return errors.New("no display to open a window on (DISPLAY is not set); `hecscope-gui --snapshot OUT.png FILE` draws the window without one, and the commands (`hecscope summary`, `render`, …) need none")
	}
	return nil
}
