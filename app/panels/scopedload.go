package panels

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/paint"
)

// scopedLoad is what the analysis tabs (Spans, Profile) share: a scope
// chooser (the whole run or the timeline's selection), a Refresh button and
// a status line, and a load that computes a result of type R over the scope
// in the background and shows it, dropping a result that a newer load has
// made stale.
type scopedLoad[R any] struct {
	link   RangeLink
	Scope  *widget.RadioGroup
	Status *widget.Label
	// bar holds the scope chooser, the Refresh button and the status line.
	bar fyne.CanvasObject

	// doing is what the status line says while computing ("Measuring"),
	// failed what it says before an error ("Cannot measure spans").
	doing, failed string
	// selected names the scope of a selection [from, to] in the status line.
	selected func(from, to uint64) string
	// collect computes the result over [from, to] (both 0: the whole run);
	// it runs in the background.
	collect func(from, to uint64) (R, error)
	// show shows a result computed over what (on the UI goroutine).
	show func(r R, what string)

	Gen    int // counts loads, so that a stale one is dropped
	loaded bool
	// preset: the whole run's result is shown already (see preset).
	preset bool
}

// newScopedLoad returns a tab's load skeleton; the caller sets selected,
// collect and show before the first load.
func newScopedLoad[R any](link RangeLink, doing, failed string) *scopedLoad[R] {
	l := &scopedLoad[R]{link: link, doing: doing, failed: failed}
	l.Status = widget.NewLabel("")
	l.Status.Truncation = fyne.TextTruncateEllipsis
	l.Scope = widget.NewRadioGroup([]string{scopeRun, scopeSelection}, func(string) { l.Load() })
	l.Scope.Horizontal = true
	l.Scope.Selected = scopeRun
	refresh := widget.NewButton("Refresh", l.Load)
	l.bar = container.NewBorder(nil, nil, container.NewHBox(l.Scope, refresh), nil, l.Status)
	return l
}

// EnsureLoaded loads the first time the tab is shown, over the selection
// if there is one (over the whole run only if that was not preset).
func (l *scopedLoad[R]) EnsureLoaded() {
	if !l.loaded {
		_, _, has := l.link.Selection()
		followSelection(l.Scope, false, has)
		if l.preset && !has {
			l.loaded = true
			return
		}
		l.Load()
	}
}

// PresetRun shows r, computed over the whole run before the tab was
// shown, so that showing the tab computes it again only for a selection.
func (l *scopedLoad[R]) PresetRun(r R) {
	l.preset = true
	l.show(r, "the whole run")
}

// load computes the result over the scope in the background and shows it,
// unless another load started meanwhile.
func (l *scopedLoad[R]) Load() {
	l.loaded = true
	var from, to uint64
	what := "the whole run"
	if l.Scope.Selected == scopeSelection {
		var ok bool
		from, to, ok = l.link.Selection()
		if !ok || to <= from {
			l.Status.SetText("No selection: drag across the timeline to select a range.")
			return
		}
		what = l.selected(from, to)
	}
	l.Gen++
	gen := l.Gen
	l.Status.SetText(l.doing + " " + what + "…")
	go func() {
		r, err := l.collect(from, to)
		kit.OnUI(func() {
			if gen != l.Gen {
				return
			}
			if err != nil {
				l.Status.SetText(fmt.Sprintf("%s: %v", l.failed, err))
				return
			}
			l.show(r, what)
		})
	}()
}

// SelectionChanged follows a new selection on the canvas (has: whether
// there is one now).
func (l *scopedLoad[R]) SelectionChanged(has bool) {
	if followSelection(l.Scope, l.loaded, has) {
		l.Load()
	}
}

// followSelection sets scope to the selection if there is one, else to
// the whole run, and reports whether the tab should measure again: it has
// been shown, and the scope is (still) the selection.
func followSelection(scope *widget.RadioGroup, loaded, has bool) bool {
	want := scopeRun
	if has {
		want = scopeSelection
	}
	if scope.Selected == want {
		return loaded && has
	}
	scope.Selected = want
	scope.Refresh()
	return loaded
}

// rangeText names a range of the run as the status lines do.
func rangeText(from, to uint64) string { return paint.Duration(from) + " – " + paint.Duration(to) }
