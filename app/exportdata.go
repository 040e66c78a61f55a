package app

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/export"
	"github.com/hecscope/hecscope/internal/chooser"
	"github.com/hecscope/hecscope/paint"
)

// dataExports are the File menu's data exports: the format, the menu
// item's text, the file's extension and the file types offered.
var dataExports = []struct {
	format  export.Format
	title   string
	ext     string
	filters []chooser.Filter
}{
	{export.Chrome, "Export Chrome Trace (Perfetto)…", ".json", []chooser.Filter{{Desc: "Chrome trace JSON", Extensions: []string{"json"}}}},
	{export.Speedscope, "Export Cost-Centre Samples (speedscope)…", ".speedscope.json", []chooser.Filter{{Desc: "speedscope JSON", Extensions: []string{"json"}}}},
	{export.CSV, "Export Spans, GC and Heap as CSV…", ".csv", []chooser.Filter{{Desc: "CSV", Extensions: []string{"csv"}}}},
}

// dataExportMenuItems returns the File menu's data exports for a window
// showing an eventlog file: the run (or the timeline's selection) as a
// Chrome trace, a speedscope profile or CSV, as `hecscope export` writes
// them.
func (w *Window) dataExportMenuItems() []*fyne.MenuItem {
	if w.view == nil {
		return nil
	}
	ev, c := w.view.eventlog(), w.view.TimelineCanvas()
	if ev == nil || ev.Path == "" {
		return nil
	}
	items := []*fyne.MenuItem{fyne.NewMenuItemSeparator()}
	for _, d := range dataExports {
		items = append(items, fyne.NewMenuItem(d.title, func() {
			var from, to uint64
			if c != nil {
				if a, b, ok := c.Selection(); ok && b > a {
					from, to = a, b
				}
			}
			name := w.fileStem()
			if to > 0 {
				name += "-selection"
			}
			kit.PickFileToSave(w.win, w.app.useNative, strings.TrimSuffix(d.title, "…"), name+d.ext, d.filters, func(out string) {
				go func() {
					err := exportData(ev, d.format, from, to, out)
					kit.OnUI(func() {
						if err != nil {
							dialog.ShowError(err, w.win)
							return
						}
						what := "the whole run"
						if to > 0 {
							what = paint.Duration(from) + " – " + paint.Duration(to)
						}
						dialog.ShowInformation("Export", fmt.Sprintf("Exported %s to %s.", what, out), w.win)
					})
				}()
			})
		}))
	}
	return items
}

// exportData writes the log of ev (the segment shown, of a file holding
// several) in format f — the run, or [from, to) if to > 0 — to out (see
// export.ToFile: a failed export leaves no partial file).
func exportData(ev *loaded.Eventlog, f export.Format, from, to uint64, out string) error {
	opt := export.Options{From: from, To: to}
	if g, ok := ev.SegmentBytes(); ok {
		opt.Offset, opt.Length = g.Offset, g.End-g.Offset
	}
	if _, err := export.ToFile(context.Background(), f, ev.Path, out, opt); err != nil {
		return fmt.Errorf("exporting as %s: %w", f, err)
	}
	return nil
}
