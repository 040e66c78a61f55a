package kit

import (
	"sync"

	"fyne.io/fyne/v2"
)

// UiMu serialises the work other goroutines hand to Fyne's loop. The
// desktop driver runs such work on its loop one piece at a time, so there
// the lock is never contended; Fyne's test driver runs it at once on the
// goroutine that hands it over, and the lock keeps two of those (a load
// reporting progress and a live session refreshing) out of widget code
// together.
var UiMu sync.Mutex

// OnUI runs f on Fyne's loop, after what is already queued there. f must
// not call onUI itself and wait for it.
func OnUI(f func()) {
	fyne.Do(func() {
		UiMu.Lock()
		defer UiMu.Unlock()
		f()
	})
}
