// Package app is hecscope's desktop user interface, built with Fyne: the
// start page with recent files, one window per opened eventlog or heap
// profile, loading in the background with progress, the run's panels, and
// the menus (Open, Recent, Reload, Export). It is the only package besides
// cmd that knows Fyne; it gets its data from ingest and the model packages.
package app
