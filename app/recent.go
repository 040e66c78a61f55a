package app

import (
	"path/filepath"
	"slices"
)

// recentKey is the preferences key under which the recent files are kept.
const recentKey = "recent.files"

// MaxRecent is how many recently opened files hecscope remembers.
const MaxRecent = 10

// Recent is the list of recently opened files, most recent first, kept in
// the application's preferences so that it survives restarts.
type Recent struct {
	prefs     Settings
	listeners []func()
}

// NewRecent returns the recent-files list stored in prefs.
func NewRecent(prefs Settings) *Recent {
	return &Recent{prefs: prefs}
}

// List returns the recent files, most recent first.
func (r *Recent) List() []string {
	return slices.Clone(r.prefs.StringList(recentKey))
}

// Add puts path at the top of the list, removing an older entry for the
// same file and dropping the oldest beyond MaxRecent.
func (r *Recent) Add(path string) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	list := slices.DeleteFunc(r.List(), func(p string) bool { return p == path })
	list = append([]string{path}, list...)
	if len(list) > MaxRecent {
		list = list[:MaxRecent]
	}
	r.set(list)
}

// Remove deletes path from the list, as when the file no longer opens.
func (r *Recent) Remove(path string) {
	list := r.List()
	kept := slices.DeleteFunc(slices.Clone(list), func(p string) bool { return p == path })
	if len(kept) != len(list) {
		r.set(kept)
	}
}

// Clear empties the list.
func (r *Recent) Clear() { r.set(nil) }

// OnChange registers fn to be called after every change to the list.
func (r *Recent) OnChange(fn func()) { r.listeners = append(r.listeners, fn) }

func (r *Recent) set(list []string) {
	if len(list) == 0 {
		r.prefs.RemoveValue(recentKey)
	} else {
		r.prefs.SetStringList(recentKey, list)
	}
	for _, fn := range r.listeners {
		fn()
	}
}
