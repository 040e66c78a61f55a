// Package loaded is what a window has read from disk: an eventlog's
// model, index, heap and profile (Eventlog), read in the background with
// Progress reports, one segment of a file that holds several, and a heap
// profile (.hp). It makes no widgets; the app's rooms show what it holds.
package loaded
