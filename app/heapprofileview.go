package app

import (
	"fmt"
	"image"
	"path/filepath"
	"slices"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/panels"
	"github.com/hecscope/hecscope/app/trackcanvas"
	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/ingest"
)

// topLabels is how many bands the heap profile view lists.
const topLabels = 12

// heapProfileView shows a textual heap profile: its chart, its facts and
// its largest bands.
type heapProfileView struct {
	plainView
	chart *trackcanvas.Picture
	root  fyne.CanvasObject
	// samples is how many samples the profile has.
	samples int
}

// bandPeak is one band of a heap profile and its largest sample.
type bandPeak struct {
	label string
	peak  uint64
	at    float64
}

// heapFacts lists a profile's facts and its bands by peak size, largest first.
func heapFacts(path string, p *ingest.HeapProfile) ([]panels.Fact, []bandPeak) {
	facts := []panels.Fact{
		{Label: "File", Value: path},
		{Label: "Job", Value: p.Job},
		{Label: "Date", Value: p.Date},
		{Label: "Samples", Value: strconv.Itoa(len(p.Samples))},
	}
	peaks := map[string]*bandPeak{}
	var order []string
	var total uint64
	var totalAt float64
	for _, s := range p.Samples {
		if t := s.TotalBytes(); t > total {
			total, totalAt = t, s.Time
		}
		for _, e := range s.Entries {
			b := peaks[e.Label]
			if b == nil {
				b = &bandPeak{label: e.Label}
				peaks[e.Label] = b
				order = append(order, e.Label)
			}
			if e.Bytes > b.peak {
				b.peak, b.at = e.Bytes, s.Time
			}
		}
	}
	if n := len(p.Samples); n > 0 {
		facts = append(facts, panels.Fact{Label: "Sampled", Value: fmt.Sprintf("from %g to %g %s", p.Samples[0].Time, p.Samples[n-1].Time, p.SampleUnit)})
	}
	facts = append(facts,
		panels.Fact{Label: "Peak total", Value: fmt.Sprintf("%s at %g %s", kit.FormatBytes(int64(min(total, 1<<62))), totalAt, p.SampleUnit)},
		panels.Fact{Label: "Bands", Value: strconv.Itoa(len(order))},
	)
	if len(p.Marks) > 0 {
		facts = append(facts, panels.Fact{Label: "Marks", Value: strconv.Itoa(len(p.Marks))})
	}
	bands := make([]bandPeak, 0, len(order))
	for _, l := range order {
		bands = append(bands, *peaks[l])
	}
	slices.SortStableFunc(bands, func(a, b bandPeak) int {
		switch {
		case a.peak > b.peak:
			return -1
		case a.peak < b.peak:
			return 1
		}
		return 0
	})
	return facts, bands
}

func newHeapProfileView(path string, p *ingest.HeapProfile) *heapProfileView {
	facts, bands := heapFacts(path, p)
	header := widget.NewLabelWithStyle(filepath.Base(path)+" — heap profile", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	top := container.NewVBox(header)
	v := &heapProfileView{samples: len(p.Samples)}
	if p.Truncated {
		top.Add(newNotice("This heap profile is cut off: its last sample is incomplete or its last line was dropped, as when the program was killed. The complete samples are shown.",
			func() { v.root.Refresh() }))
	}
	shown := bands[:min(len(bands), topLabels)]
	table := widget.NewTable(
		func() (int, int) { return len(shown) + 1, 3 },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(id widget.TableCellID, o fyne.CanvasObject) {
			l := o.(*widget.Label)
			l.TextStyle.Bold = id.Row == 0
			if id.Row == 0 {
				l.SetText([]string{"Band", "Peak", "At (" + p.SampleUnit + ")"}[id.Col])
				return
			}
			b := shown[id.Row-1]
			l.SetText([]string{b.label, kit.FormatBytes(int64(min(b.peak, 1<<62))), strconv.FormatFloat(b.at, 'g', 6, 64)}[id.Col])
		})
	table.SetColumnWidth(0, 360)
	table.SetColumnWidth(1, 110)
	table.SetColumnWidth(2, 110)
	heading := widget.NewLabelWithStyle(fmt.Sprintf("Largest bands (%d of %d), by peak size", len(shown), len(bands)), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	bandList := container.NewBorder(heading, nil, nil, nil, table)
	body := container.NewHSplit(container.NewVScroll(panels.FactsGrid(facts)), bandList)
	body.Offset = 0.4
	if prof, err := heapview.FromHeapProfile(p); err == nil {
		if r := trackcanvas.HeapRender(p.Job, prof, nil); r != nil {
			v.chart = trackcanvas.NewPicture(r)
		}
	}
	if v.chart != nil {
		split := container.NewVSplit(v.chart.Raster, body)
		split.Offset = 0.6
		v.root = container.NewBorder(container.NewPadded(top), nil, nil, nil, split)
	} else {
		v.root = container.NewBorder(container.NewPadded(top), nil, nil, nil, body)
	}
	return v
}

func (v *heapProfileView) Content() fyne.CanvasObject { return v.root }

func (v *heapProfileView) HasPicture() bool { return v.chart != nil }

// KeyTarget is nil: a heap profile has no time view.
func (v *heapProfileView) KeyTarget() kit.KeyTarget { return nil }

// TimelineCanvas is nil: a heap profile has no track canvas.
func (v *heapProfileView) TimelineCanvas() *trackcanvas.Canvas { return nil }

// WatchSelection does nothing: a heap profile has no selection.
func (v *heapProfileView) WatchSelection(func(has bool)) {}

func (v *heapProfileView) eventCount() int64 { return int64(v.samples) }

func (v *heapProfileView) Picture(scale float32) image.Image {
	if v.chart == nil {
		return nil
	}
	return v.chart.Export(scale)
}
