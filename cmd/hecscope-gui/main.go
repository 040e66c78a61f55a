package main

import (
	"os"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"
	"github.com/hecscope/hecscope/app"
)

// runGUI opens the desktop app: a window per file in paths, or the start
// page if there are none. It returns when the last window closes.
func runGUI(paths []string) int {
	fyneapp.SetMetadata(fyne.AppMetadata{ID: app.ID, Name: app.Name, Version: app.Version, Build: 1, Icon: app.Icon})
	a := app.New(fyneapp.NewWithID(app.ID))
	if len(paths) == 0 {
		a.ShowStart()
	}
	for _, p := range paths {
		a.Open(p)
	}
	a.Run()
	return 0
}

// runAttachGUI opens the desktop app on a window watching the live stream
// at url. It returns when the last window closes.
func runAttachGUI(url string) int {
	fyneapp.SetMetadata(fyne.AppMetadata{ID: app.ID, Name: app.Name, Version: app.Version, Build: 1, Icon: app.Icon})
	a := app.New(fyneapp.NewWithID(app.ID))
	a.Attach(url)
	a.Run()
	return 0
}

// isFile reports whether path names an existing regular file (so that the
// argument is a file to open rather than a subcommand).
func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
