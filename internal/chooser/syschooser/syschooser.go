// Package syschooser shows the system's file chooser for a chooser.Request,
// with github.com/sqweek/dialog: in the chooser program, hecscope-chooser,
// on Linux (where the library starts GTK in every program that links it),
// and in the app itself elsewhere.
package syschooser

import (
	"errors"
	"fmt"

	native "github.com/sqweek/dialog"

	"github.com/hecscope/hecscope/internal/chooser"
)

// ErrUnavailable means the system's chooser cannot be shown (GTK could not
// start: no display).
var ErrUnavailable = errors.New("the system's file chooser cannot be shown")

// Show shows the chooser req asks for and blocks until the user picks a
// file or cancels; it returns the path chosen, "" if the user cancelled.
func Show(req chooser.Request) (path string, err error) {
	defer func() {
		// The dialog package panics when GTK could not start.
		if r := recover(); r != nil {
			path, err = "", fmt.Errorf("%w: %v", ErrUnavailable, r)
		}
	}()
	b := native.File().Title(req.Title)
	for _, f := range req.Filters {
		b = b.Filter(f.Desc, f.Extensions...)
	}
	if req.StartDir != "" {
		b = b.SetStartDir(req.StartDir)
	}
	if req.Save {
		path, err = b.SetStartFile(req.StartFile).Save()
	} else {
		path, err = b.Load()
	}
	if errors.Is(err, native.ErrCancelled) {
		return "", nil
	}
	return path, err
}
