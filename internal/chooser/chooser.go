// Package chooser is the request the desktop app sends to its file chooser
// program, hecscope-chooser, and the chooser's answer: the app runs the
// program with Request.Args, the program reads them back with Parse, shows
// the system's chooser and prints the path chosen (nothing if the user
// cancelled) on a line of its own, exiting with Unavailable when the
// system's chooser cannot be shown.
//
// The chooser is a program of its own on Linux because the system's chooser
// there is GTK's, and the library that shows it (github.com/sqweek/dialog)
// starts GTK in its package initialisation: linked into the app, that cost
// every start of the window 64 ms (a fifth of the time to its first
// picture) and several MB, whether or not a chooser was ever opened.
package chooser

import (
	"errors"
	"fmt"
	"strings"
)

// Unavailable is the chooser program's exit status when the system's
// chooser cannot be shown (no display, GTK missing): the app then shows its
// own.
const Unavailable = 3

// Filter is a kind of file the chooser offers: a description and the
// extensions (without the dot; "*" for any file).
type Filter struct {
	Desc       string
	Extensions []string
}

// Request is what the chooser is asked for.
type Request struct {
	// Save asks where to save a file (named StartFile at first) rather
	// than which file to open.
	Save bool
	// Title is the chooser's title; StartDir the folder it starts in (""
	// for its own choice).
	Title, StartDir, StartFile string
	Filters                    []Filter
}

// Args returns the request as the chooser program's arguments.
func (r Request) Args() []string {
	args := []string{"open"}
	if r.Save {
		args[0] = "save"
	}
	args = append(args, "-title", r.Title)
	if r.StartDir != "" {
		args = append(args, "-dir", r.StartDir)
	}
	if r.StartFile != "" {
		args = append(args, "-file", r.StartFile)
	}
	for _, f := range r.Filters {
		args = append(args, "-filter", f.Desc+"|"+strings.Join(f.Extensions, ","))
	}
	return args
}

// Parse reads a request back from the chooser program's arguments.
func Parse(args []string) (Request, error) {
	var r Request
	if len(args) == 0 || (args[0] != "open" && args[0] != "save") {
		return r, errors.New(`the first argument must be "open" or "save"`)
	}
	r.Save = args[0] == "save"
	for i := 1; i < len(args); i += 2 {
		if i+1 >= len(args) {
			return r, fmt.Errorf("%s needs a value", args[i])
		}
		v := args[i+1]
		switch args[i] {
		case "-title":
			r.Title = v
		case "-dir":
			r.StartDir = v
		case "-file":
			r.StartFile = v
		case "-filter":
			desc, exts, ok := strings.Cut(v, "|")
			if !ok || exts == "" {
				return r, fmt.Errorf("-filter %q: want DESCRIPTION|EXT,EXT…", v)
			}
			r.Filters = append(r.Filters, Filter{Desc: desc, Extensions: strings.Split(exts, ",")})
		default:
			return r, fmt.Errorf("unknown option %q", args[i])
		}
	}
	return r, nil
}

// Answer reads the chooser program's output: the path chosen, "" if the
// user cancelled.
func Answer(out []byte) string {
	return strings.TrimSuffix(string(out), "\n")
}
