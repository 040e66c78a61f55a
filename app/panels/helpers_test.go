package panels

import "github.com/hecscope/hecscope/app/internal/apptest"

// The helpers the panels' tests share with the other rooms' tests.
var (
	ui      = apptest.UI
	waitFor = apptest.Wait
	texts   = apptest.Texts
)
