// Package liveview is the live window's content: the track canvas of a
// running program's eventlog as it streams in (View), following its end,
// with the tabs that refresh as it grows, and the control menu that sends
// the program commands (a heap census, pause, resume). The app's window
// makes a View for an attach and shows it as it shows any file's view.
package liveview
