// Package kit holds the small Fyne helpers every room of the app shares:
// running work on Fyne's loop (OnUI), the theme's darkness, how sizes and
// counts are written, labels that copy their text or show a hint, the
// table layout that fits columns to the width, and the widgets that pass
// the time view's keys on (KeyList, KeySelect, KeyEntry) with the key
// bindings themselves.
package kit
