package app

import "github.com/hecscope/hecscope/app/internal/apptest"

// The helpers app's tests share with the rooms' tests.
var (
	ui          = apptest.UI
	waitFor     = apptest.Wait
	texts       = apptest.Texts
	colourCount = apptest.ColourCount
	showEvents  = apptest.ShowEvents
)
