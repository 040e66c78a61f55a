// Package panels holds the tabs under a file window's timeline that are
// more than a table of facts: the event list and its search, the
// bookmarks, and the Spans, Profile and Findings views with the scoped
// background load they share (the whole run or the canvas's selection).
// Each is a widget with its root and callbacks; the window wires them to
// its track canvas (app/tabs.go) through TimeNav and RangeLink, so that
// panels know nothing of the window.
package panels
