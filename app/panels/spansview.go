package panels

import (
	"cmp"
	"context"
	"fmt"
	"image"
	"slices"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/trackcanvas"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/spans"
	"github.com/hecscope/hecscope/timeline"
	"github.com/hecscope/hecscope/tracks"
)

// RangeLink is what an analysis tab needs of the timeline: the selected
// range, and a way to show a range.
type RangeLink struct {
	// Selection returns the timeline's selected range, if any.
	Selection func() (from, to uint64, ok bool)
	// Show shows [from, to] on the timeline.
	Show func(from, to uint64)
}

// scopeRun and scopeSelection are the choices of an analysis tab's scope.
const (
	scopeRun       = "Whole run"
	scopeSelection = "Selection"
)

// spansTableRows is how many rows the span table asks room for under its
// header.
const spansTableRows = 5

// spansColumns are the span table's columns.
var spansColumns = []string{"Label", "Kind", "Count", "Total", "Mean", "p50", "p90", "p99", "Max", "Open"}

// SpansView is the Spans tab: the statistics of every user span label
// (START x / STOP x) and thread label, for the run or the timeline's
// selection, in a table sorted by any column. Selecting a label shows its
// duration histogram and its longest instances; selecting an instance
// shows it on the timeline.
type SpansView struct {
	*scopedLoad[*spans.Report]
	// pass reads the log again, in time order.
	pass func(context.Context) ingest.Pass
	Root fyne.CanvasObject

	table *widget.Table
	hist  *trackcanvas.Picture
	list  *widget.List
	title *widget.Label

	report *spans.Report
	rows   []*spans.Label // the report's labels in table order
	sortOrder
	label   *spans.Label     // the label selected
	longest []spans.Instance // its instances listed
	markDur uint64           // the duration of the instance picked
	onLoad  func()           // tests: called after a report is shown
	// Mark (if set) marks the instance picked on the timeline; to ≤ from
	// clears it.
	Mark func(from, to uint64)
	// Reveal (if set) scrolls the timeline to the track of an instance of
	// label l.
	Reveal func(l *spans.Label, in spans.Instance)
}

// NewSpansView returns the Spans tab over the log pass reads, linked to
// the timeline through link.
func NewSpansView(pass func(context.Context) ingest.Pass, link RangeLink) *SpansView {
	v := &SpansView{pass: pass, sortOrder: sortOrder{sortCol: 3, desc: true}}
	v.scopedLoad = newScopedLoad[*spans.Report](link, "Measuring", "Cannot measure spans")
	v.selected = func(from, to uint64) string { return "spans starting in " + rangeText(from, to) }
	v.collect = func(from, to uint64) (*spans.Report, error) {
		return spans.Collect(v.pass(context.Background()), spans.Options{From: from, To: to})
	}
	v.scopedLoad.show = v.show
	v.table = widget.NewTable(
		func() (int, int) { return len(v.rows), len(spansColumns) },
		func() fyne.CanvasObject { return widget.NewLabel("00000 ms 000") },
		func(id widget.TableCellID, o fyne.CanvasObject) {
			// The figures end at one x, as the GC and Sparks tables' do.
			l := o.(*widget.Label)
			l.Alignment = fyne.TextAlignTrailing
			if id.Col < 2 {
				l.Alignment = fyne.TextAlignLeading
			}
			l.SetText(v.cell(id))
		},
	)
	sortingHeader(v.table, spansColumns, &v.sortOrder, v.sortBy)
	v.table.OnSelected = func(id widget.TableCellID) {
		if id.Row >= 0 && id.Row < len(v.rows) {
			v.pick(v.rows[id.Row])
		}
	}
	v.title = widget.NewLabel("Select a label to see its durations and instances.")
	v.hist = trackcanvas.NewPicture(v.drawHistogram)
	v.hist.Raster.SetMinSize(fyne.NewSize(200, 90))
	v.list = widget.NewList(
		func() int { return len(v.longest) },
		func() fyne.CanvasObject { return widget.NewLabel("000.000 s  00000 ms  thread 000000") },
		func(i widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(v.instanceText(i)) },
	)
	v.list.OnSelected = func(i widget.ListItemID) {
		if i < 0 || i >= len(v.longest) {
			return
		}
		in := v.longest[i]
		v.markDur = in.Duration()
		v.hist.Raster.Refresh()
		if v.Mark != nil {
			v.Mark(in.Start, in.End)
		}
		if v.link.Show != nil {
			pad := max(in.Duration()/10, 1000)
			v.link.Show(in.Start-min(in.Start, pad), in.End+pad)
		}
		if v.Reveal != nil && v.label != nil {
			v.Reveal(v.label, in)
		}
	}
	detail := container.NewBorder(v.title, nil, nil, nil,
		container.NewHSplit(v.hist.Raster, v.list))
	// The table asks for its header and spansTableRows rows: the split
	// leaves it that much, and the tab's scroller scrolls the rest.
	sep := theme.Padding() // a table's rows are a padding apart
	table := container.New(&kit.FitColumns{Table: v.table, Widths: spansColumnWidths,
		MinHeight: widget.NewButton("Label", nil).MinSize().Height + sep +
			spansTableRows*(widget.NewLabel("00000 ms 000").MinSize().Height+sep)}, v.table)
	split := container.NewVSplit(table, detail)
	split.Offset = 0.55
	v.title.Truncation = fyne.TextTruncateEllipsis
	v.Root = container.NewBorder(v.bar, nil, nil, nil, split)
	return v
}

// Widths of the spans table's columns, at the least: the label's, and
// each figure's.
const spansLabelWidth, spansFigureWidth = 220, 84

// spansColumnWidths gives the table's columns their widths in a table
// width wide: each its least width and an equal share of what is left,
// so that the table fills its width as the GC and Sparks tables do and
// its columns keep apart.
func spansColumnWidths(width float32) []float32 {
	n := len(spansColumns)
	least := make([]float32, n)
	total := float32(0)
	for c := range least {
		least[c] = spansFigureWidth
		if c == 0 {
			least[c] = spansLabelWidth
		}
		total += least[c]
	}
	extra := max(0, width-kit.TableSpare(n)-total) / float32(n)
	for c := range least {
		least[c] += extra
	}
	return least
}

// show puts a report in the table.
func (v *SpansView) show(r *spans.Report, what string) {
	v.report = r
	v.rows = slices.Clone(r.Labels)
	v.sortRows()
	v.label, v.longest, v.markDur = nil, nil, 0
	if v.Mark != nil {
		v.Mark(0, 0)
	}
	v.title.SetText("Select a label to see its durations and instances.")
	switch {
	case len(r.Labels) == 0:
		v.Status.SetText("No user spans (traceEventIO \"START x\" / \"STOP x\") or thread labels in " + what + ".")
	default:
		note := ""
		if !r.Exact {
			note = " (percentiles within 0.5%)"
		}
		v.Status.SetText(fmt.Sprintf("%d labels in %s%s", len(r.Labels), what, note))
	}
	v.table.UnselectAll()
	v.table.Refresh()
	v.list.Refresh()
	v.hist.Raster.Refresh()
	if v.onLoad != nil {
		v.onLoad()
	}
}

// cell is the text of a table cell.
func (v *SpansView) cell(id widget.TableCellID) string {
	if id.Row < 0 || id.Row >= len(v.rows) {
		return ""
	}
	l := v.rows[id.Row]
	d := func(ns uint64) string {
		if l.Count == 0 {
			return "–"
		}
		return paint.Duration(ns)
	}
	switch id.Col {
	case 0:
		return l.Name
	case 1:
		return l.Kind.String()
	case 2:
		return strconv.Itoa(l.Count)
	case 3:
		return d(l.Total)
	case 4:
		return d(l.Mean())
	case 5:
		return d(l.Quantile(.5))
	case 6:
		return d(l.Quantile(.9))
	case 7:
		return d(l.Quantile(.99))
	case 8:
		return d(l.Max)
	case 9:
		return strconv.Itoa(l.Open)
	}
	return ""
}

// sortBy sorts the table by column col (again: the other way).
func (v *SpansView) sortBy(col int) {
	v.toggle(col, 2)
	v.sortRows()
	v.table.UnselectAll()
	v.table.Refresh()
}

// sortRows orders the rows by the sort column, ties by name.
func (v *SpansView) sortRows() {
	key := func(l *spans.Label) uint64 {
		switch v.sortCol {
		case 2:
			return uint64(l.Count)
		case 3:
			return l.Total
		case 4:
			return l.Mean()
		case 5:
			return l.Quantile(.5)
		case 6:
			return l.Quantile(.9)
		case 7:
			return l.Quantile(.99)
		case 8:
			return l.Max
		case 9:
			return uint64(l.Open)
		}
		return 0
	}
	slices.SortStableFunc(v.rows, func(a, b *spans.Label) int {
		var c int
		switch v.sortCol {
		case 0:
			c = cmp.Compare(a.Name, b.Name)
		case 1:
			c = cmp.Compare(a.Kind, b.Kind)
		default:
			c = cmp.Compare(key(a), key(b))
		}
		if v.desc {
			c = -c
		}
		if c == 0 {
			c = cmp.Compare(a.Name, b.Name)
		}
		return c
	})
}

// pick shows label l's histogram and instances.
func (v *SpansView) pick(l *spans.Label) {
	v.label, v.longest, v.markDur = l, l.Longest(), 0
	more := ""
	if len(v.longest) < l.Count {
		more = fmt.Sprintf(" (the %d longest listed)", len(v.longest))
	}
	v.title.SetText(fmt.Sprintf("%s %q: %s, median %s, p99 %s%s — select one to show it on the timeline",
		l.Kind, l.Name, paint.CountOf(int64(l.Count), "span", "spans"), paint.Duration(l.Quantile(.5)), paint.Duration(l.Quantile(.99)), more))
	v.list.UnselectAll()
	v.list.Refresh()
	v.list.ScrollToTop()
	v.hist.Raster.Refresh()
}

// instanceText is the list's line for instance i.
func (v *SpansView) instanceText(i int) string {
	if i < 0 || i >= len(v.longest) {
		return ""
	}
	in := v.longest[i]
	s := fmt.Sprintf("%s  at %s", paint.Duration(in.Duration()), paint.Duration(in.Start))
	if in.Thread != 0 {
		s += "  thread " + strconv.FormatUint(uint64(in.Thread), 10)
	}
	if in.ID != 0 {
		s += "  #" + strconv.FormatUint(uint64(in.ID), 10)
	}
	return s
}

// drawHistogram draws the picked label's duration histogram.
func (v *SpansView) drawHistogram(w, h int, scale float64) (*image.RGBA, error) {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	var bins []spans.Bin
	if v.label != nil {
		bins = v.label.Histogram(max(8, min(40, w/int(12*max(scale, 1)))))
	}
	spans.DrawHistogram(paint.NewRaster(img), bins, spans.HistogramOptions{Theme: paint.ThemeFor(kit.DarkTheme()), Scale: scale, Mark: v.markDur})
	return img, nil
}

// InstanceTrack returns the track of the timeline that shows instance in
// of label l: a thread label's thread; a user span's thread's spans, or,
// with the spans shown by label (byLabel), its label's track (the
// thread's spans if the model has no such label).
func InstanceTrack(m *timeline.Model, l *spans.Label, in spans.Instance, byLabel bool) (tracks.TrackID, bool) {
	if l.Kind == spans.Thread {
		return tracks.TrackID{Kind: tracks.KindThread, ID: in.Thread}, in.Thread != 0
	}
	for i := range m.Labels {
		if !byLabel {
			break
		}
		if m.String(m.Labels[i].Label) == l.Name {
			return tracks.TrackID{Kind: tracks.KindUserLabel, ID: uint32(m.Labels[i].Label)}, true
		}
	}
	return tracks.TrackID{Kind: tracks.KindUserThread, ID: in.Thread}, in.Thread != 0
}

// sortOrder is the column a table is sorted by, and whether descending.
type sortOrder struct {
	sortCol int
	desc    bool
}

// toggle sorts by column col: the other way if it is sorted by col
// already, else descending from column firstDesc on (the figures),
// ascending before it (the names).
func (o *sortOrder) toggle(col, firstDesc int) {
	if col == o.sortCol {
		o.desc = !o.desc
	} else {
		o.sortCol, o.desc = col, col >= firstDesc
	}
}

// sortingHeader gives table a header row of buttons titled columns, the
// column it is sorted by (order) marked ▼ or ▲, that sorts it by the
// column tapped (sortBy).
func sortingHeader(table *widget.Table, columns []string, order *sortOrder, sortBy func(col int)) {
	table.ShowHeaderRow = true
	table.CreateHeader = func() fyne.CanvasObject { return widget.NewButton("", nil) }
	table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		b := o.(*widget.Button)
		if id.Col < 0 || id.Col >= len(columns) {
			b.SetText("")
			return
		}
		text := columns[id.Col]
		if id.Col == order.sortCol {
			text += map[bool]string{true: " ▼", false: " ▲"}[order.desc]
		}
		b.SetText(text)
		col := id.Col
		b.OnTapped = func() { sortBy(col) }
	}
}
