package app

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
	link   rangeLink
	scope  *widget.RadioGroup
	status *widget.Label
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

	gen    int // counts loads, so that a stale one is dropped
	loaded bool
	// preset: the whole run's result is shown already (see preset).
	preset bool
}

// newScopedLoad returns a tab's load skeleton; the caller sets selected,
// collect and show before the first load.
func newScopedLoad[R any](link rangeLink, doing, failed string) *scopedLoad[R] {
	l := &scopedLoad[R]{link: link, doing: doing, failed: failed}
	l.status = widget.NewLabel("")
	l.status.Truncation = fyne.TextTruncateEllipsis
	l.scope = widget.NewRadioGroup([]string{scopeRun, scopeSelection}, func(string) { l.load() })
	l.scope.Horizontal = true
	l.scope.Selected = scopeRun
	refresh := widget.NewButton("Refresh", l.load)
	l.bar = container.NewBorder(nil, nil, container.NewHBox(l.scope, refresh), nil, l.status)
	return l
}

// ensureLoaded loads the first time the tab is shown, over the selection
// if there is one (over the whole run only if that was not preset).
func (l *scopedLoad[R]) ensureLoaded() {
	if !l.loaded {
		_, _, has := l.link.selection()
		followSelection(l.scope, false, has)
		if l.preset && !has {
			l.loaded = true
			return
		}
		l.load()
	}
}

// presetRun shows r, computed over the whole run before the tab was
// shown, so that showing the tab computes it again only for a selection.
func (l *scopedLoad[R]) presetRun(r R) {
	l.preset = true
	l.show(r, "the whole run")
}

// load computes the result over the scope in the background and shows it,
// unless another load started meanwhile.
func (l *scopedLoad[R]) load() {
	l.loaded = true
	var from, to uint64
	what := "the whole run"
	if l.scope.Selected == scopeSelection {
		var ok bool
		from, to, ok = l.link.selection()
		if !ok || to <= from {
			l.status.SetText("No selection: drag across the timeline to select a range.")
			return
		}
		what = l.selected(from, to)
	}
	l.gen++
	gen := l.gen
	l.status.SetText(l.doing + " " + what + "…")
	go func() {
		r, err := l.collect(from, to)
		kit.OnUI(func() {
			if gen != l.gen {
				return
			}
			if err != nil {
				l.status.SetText(fmt.Sprintf("%s: %v", l.failed, err))
				return
			}
			l.show(r, what)
		})
	}()
}

// selectionChanged follows a new selection on the canvas (has: whether
// there is one now).
func (l *scopedLoad[R]) selectionChanged(has bool) {
	if followSelection(l.scope, l.loaded, has) {
		l.load()
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
