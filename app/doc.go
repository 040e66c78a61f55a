// Package app is hecscope's desktop user interface, built with Fyne: the
// start page with recent files, one window per opened eventlog, heap
// profile or live stream, loading in the background with progress, the
// menus (Open, Recent, Reload, Export, Library) and the settings kept
// between runs. It is the only package besides cmd that knows Fyne; it
// gets its data from ingest and the model packages.
//
// The app is built of rooms, each a package with a small door:
//
//   - app/kit: the helpers every room shares (OnUI, the theme's darkness,
//     formatting, copy and hint labels, key-passing widgets, table
//     columns, file choosers, screen fitting, the current Settings).
//   - app/loaded: what a window reads from disk (Eventlog, Progress).
//   - app/trackcanvas: the track canvas (Canvas) and its overlays, the
//     picture widget, and their export; the file, live and compare
//     windows draw with it.
//   - app/panels: the tabs under the timeline (events, bookmarks, spans,
//     profile, findings, the facts panels), linked to a canvas through
//     TimeNav and RangeLink.
//   - app/liveview: a live stream's view (View).
//   - app/compareview: the compare window (Window), opened through Open
//     with a Host.
//   - app/library: the saved-profiles library.
//
// This package holds the App and its Windows. A window shows a fileView
// (window.go): the eventlog view (eventlogview.go, its tabs wired in
// tabs.go and panelnav.go), the heap profile view, or a live stream's;
// the window asks it everything through that interface.
package app
