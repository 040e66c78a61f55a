package tracks

import (
	"sync"

	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// Prepared is what a view derives from a run's overview once and keeps:
// which inks the run holds (for the legend) and the user spans placed in
// their rows. A view makes them when first drawn; for a big log that is a
// few tenths of a second or more (they read every user span, and the
// tracks of the threads the model has not summed up,
// timeline.SettledStates), which Prepare lets a loader spend on its own
// goroutines, beside other work, before the window's first picture of
// the log.
type Prepared struct {
	ov      *timeline.Model
	present [paint.NumInks]bool
	users   *userIndex
}

// Prepare derives what a view of m needs for its first picture, the inks
// and the spans' rows at the same time. It may be called from any
// goroutine; m must not change while it runs. Give the result to one view
// (View.UsePrepared): the view goes on adding to it.
func Prepare(m *timeline.Model) *Prepared {
	p := &Prepared{ov: m}
	if m == nil {
		return p
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		p.present = presentInks(m)
	}()
	p.users = newUserIndex(m)
	wg.Wait()
	return p
}

// UsePrepared gives the view what Prepare derived from its overview, so
// that it need not derive it again. It does nothing when p is nil or was
// made from another model than the one the view shows.
func (v *View) UsePrepared(p *Prepared) {
	ov := v.overview()
	if p == nil || ov == nil || p.ov != ov {
		return
	}
	v.present = presentCache{ov: ov, present: p.present}
	v.users = p.users
}
