package panels

import (
	"cmp"
	"context"
	"fmt"
	"image"
	"math"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/ccprofile"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
)

// profileColumns are the cost-centre table's columns.
var profileColumns = []string{"Cost centre", "Module", "Source", "Self", "Inherited"}

// spreadBins is how many bins the strip of a cost centre's samples has.
const spreadBins = 200

// ProfileView is the Profile tab: the cost-centre profile of a profiled
// run's time samples (+RTS -l -p), for the run or the timeline's
// selection: a flame graph (click a frame to zoom into it, the top row to
// zoom out) and the table of self and inherited shares, sorted by any
// column. Shares are of the mutator's samples, as GHC's .prof counts them,
// with GC's, idle and the RTS's samples given apart; a check box makes them
// shares of all samples. Picking a cost centre in the table highlights it in the flame
// graph and shows where its samples fall in time; clicking that strip
// shows the stretch on the timeline.
type ProfileView struct {
	*scopedLoad[*ccprofile.Profile]
	// pass reads the log again, in time order.
	pass func(context.Context) ingest.Pass
	Root fyne.CanvasObject

	flame *flameWidget
	table *widget.Table
	strip *stripWidget

	// withGC makes the shares of all samples; note says what they are of
	// and which samples they leave out.
	withGC *widget.Check
	note   *widget.Label

	// full is the profile of all samples, mutator that of the mutator's;
	// prof is the one shown.
	full, mutator *ccprofile.Profile
	what          string
	prof          *ccprofile.Profile
	rows          []ccprofile.Row
	sortOrder
	picked *ccprofile.CostCentre
	onLoad func() // tests: called after a profile is shown
	// onSpread (tests) is called after a cost centre's samples are placed.
	onSpread func()
	// Mark (if set) shows where the picked cost centre's samples fall on
	// the timeline; nil clears it.
	Mark func(*ccprofile.Spread)
}

// NewProfileView returns the Profile tab over the log pass reads, linked
// to the timeline through link.
func NewProfileView(pass func(context.Context) ingest.Pass, link RangeLink) *ProfileView {
	v := &ProfileView{pass: pass, sortOrder: sortOrder{sortCol: 3, desc: true}}
	v.scopedLoad = newScopedLoad[*ccprofile.Profile](link, "Profiling", "Cannot profile")
	v.selected = rangeText
	v.collect = func(from, to uint64) (*ccprofile.Profile, error) {
		return ccprofile.Collect(v.pass(context.Background()), ccprofile.Options{From: from, To: to, Of: ccprofile.AllSamples})
	}
	v.scopedLoad.show = v.show
	v.flame = newFlameWidget(v)
	v.strip = newStripWidget(v)
	v.table = widget.NewTable(
		func() (int, int) { return len(v.rows), len(profileColumns) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("00000.0%")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TableCellID, o fyne.CanvasObject) { o.(*widget.Label).SetText(v.cell(id)) },
	)
	sortingHeader(v.table, profileColumns, &v.sortOrder, v.sortBy)
	v.table.OnSelected = func(id widget.TableCellID) {
		if id.Row >= 0 && id.Row < len(v.rows) {
			v.pick(v.rows[id.Row].CC)
		}
	}
	v.note = widget.NewLabel("")
	v.note.Truncation = fyne.TextTruncateEllipsis
	v.withGC = widget.NewCheck("Count GC and RTS samples", func(bool) {
		if v.full != nil {
			v.display()
		}
	})
	lower := container.NewBorder(v.strip, nil, nil, nil, container.New(&kit.FitColumns{Table: v.table, Widths: profileColumnWidths,
		MinHeight: (profileTableRows + 1) * widget.NewLabel("Self").MinSize().Height}, v.table))
	split := container.NewVSplit(v.flame, lower)
	split.Offset = 0.55
	top := container.NewVBox(v.bar, container.NewBorder(nil, nil, v.withGC, nil, v.note))
	v.Root = container.NewBorder(top, nil, nil, nil, split)
	return v
}

// show puts a profile of all samples in the flame graph and table.
func (v *ProfileView) show(p *ccprofile.Profile, what string) {
	v.full, v.mutator, v.what = p, p.Mutator(), what
	v.display()
}

// display shows the profile of the samples the check box asks for.
func (v *ProfileView) display() {
	p, what := v.mutator, v.what
	if v.withGC.Checked {
		p = v.full
	}
	v.prof = p
	v.rows = slices.Clone(p.Rows)
	v.sortRows()
	v.picked = nil
	v.flame.focus = nil
	v.strip.spread = nil
	if v.Mark != nil {
		v.Mark(nil)
	}
	if p.All == 0 {
		v.Status.SetText("No cost-centre samples in " + what + " (build with -prof -fprof-auto, run with +RTS -l -p).")
		v.note.SetText("")
	} else {
		v.Status.SetText(fmt.Sprintf("%d samples in %s — click a frame to zoom in, the top row to zoom out", p.All, what))
		v.note.SetText(strings.Join(slices.DeleteFunc([]string{p.Basis(), p.ApartText()}, func(s string) bool { return s == "" }), " · "))
	}
	v.table.UnselectAll()
	v.table.Refresh()
	v.flame.Refresh()
	v.strip.Refresh()
	if v.onLoad != nil {
		v.onLoad()
	}
}

// cell is the text of a table cell.
func (v *ProfileView) cell(id widget.TableCellID) string {
	if id.Row < 0 || id.Row >= len(v.rows) || v.prof == nil {
		return ""
	}
	r := v.rows[id.Row]
	switch id.Col {
	case 0:
		return r.CC.Label
	case 1:
		return r.CC.Module
	case 2:
		return r.CC.Src
	case 3:
		return fmt.Sprintf("%.1f%%", 100*v.prof.SelfShare(r))
	case 4:
		return fmt.Sprintf("%.1f%%", 100*v.prof.InheritedShare(r))
	}
	return ""
}

// sortBy sorts the table by column col (again: the other way).
func (v *ProfileView) sortBy(col int) {
	v.toggle(col, 3)
	v.sortRows()
	v.table.UnselectAll()
	v.table.Refresh()
}

// sortRows orders the rows by the sort column, ties by label and module.
func (v *ProfileView) sortRows() {
	slices.SortStableFunc(v.rows, func(a, b ccprofile.Row) int {
		var c int
		switch v.sortCol {
		case 0:
			c = cmp.Compare(a.CC.Label, b.CC.Label)
		case 1:
			c = cmp.Compare(a.CC.Module, b.CC.Module)
		case 2:
			c = cmp.Compare(a.CC.Src, b.CC.Src)
		case 3:
			c = cmp.Compare(a.Self, b.Self)
		case 4:
			c = cmp.Compare(a.Inherited, b.Inherited)
		}
		if v.desc {
			c = -c
		}
		if c == 0 {
			c = cmp.Or(cmp.Compare(a.CC.Label, b.CC.Label), cmp.Compare(a.CC.Module, b.CC.Module))
		}
		return c
	})
}

// pick highlights cost centre cc in the flame graph and finds where its
// samples fall.
func (v *ProfileView) pick(cc *ccprofile.CostCentre) {
	v.picked = cc
	v.flame.Refresh()
	p := v.prof
	if p == nil || p.Samples == 0 {
		return
	}
	if r := p.Row(cc.Label, cc.Module); r != nil {
		v.Status.SetText(fmt.Sprintf("%s (%s) %s: self %.1f%%, inherited %.1f%%", cc.Label, cc.Module, cc.Src,
			100*p.SelfShare(*r), 100*p.InheritedShare(*r)))
	}
	v.strip.spread = nil
	v.strip.Refresh()
	gen := v.Gen
	from, to := p.First, p.Last+1
	go func() {
		s, err := ccprofile.SpreadOf(v.pass(context.Background()), cc.Label, cc.Module, from, to, spreadBins)
		kit.OnUI(func() {
			if gen != v.Gen || v.picked != cc {
				return
			}
			if err != nil {
				v.Status.SetText(fmt.Sprintf("Cannot place %s's samples: %v", cc.Label, err))
				return
			}
			v.strip.spread = s
			v.strip.Refresh()
			if v.Mark != nil {
				v.Mark(s)
			}
			if v.onSpread != nil {
				v.onSpread()
			}
		})
	}()
}

// profileTableRows is how many rows of the table the tab asks room for
// when it is shown.
const profileTableRows = 8

// profileColumnWidths gives the table's columns their widths in a table
// width wide: the two shares as wide as their headers, the rest shared by
// the cost centre (30%), module (25%) and source (45%), whose text is cut
// short with an ellipsis rather than run into the next column.
func profileColumnWidths(width float32) []float32 {
	share := max(kit.TextWidth("Inherited ▼"), kit.TextWidth("100.0%")) + 4*theme.InnerPadding()
	rest := max(width-2*share-kit.TableSpare(5), 3*kit.TextWidth("Module"))
	return []float32{0.30 * rest, 0.25 * rest, 0.45 * rest, share, share}
}

// flameWidget draws the profile's flame graph and takes clicks on it.
type flameWidget struct {
	rasterWidget
	v      *ProfileView
	layout *ccprofile.FlameLayout
	scale  float64
	focus  *ccprofile.Node
}

func newFlameWidget(v *ProfileView) *flameWidget {
	f := &flameWidget{v: v}
	f.makeRaster(f, f.draw, fyne.NewSize(200, 100))
	return f
}

// draw is the raster's generator: w and h are device pixels.
func (f *flameWidget) draw(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, max(w, 1), max(h, 1)))
	f.scale = 1
	if size := f.raster.Size(); size.Width > 0 {
		f.scale = float64(w) / float64(size.Width)
	}
	opt := ccprofile.FlameOptions{Theme: paint.ThemeFor(kit.DarkTheme()), Scale: f.scale, Focus: f.focus}
	if cc := f.v.picked; cc != nil {
		opt.Highlight = func(n *ccprofile.Node) bool {
			for m := n; m != nil; m = m.Parent() {
				if m.CC == cc {
					return true
				}
			}
			return false
		}
	}
	f.layout = ccprofile.DrawFlame(paint.NewRaster(img), f.v.prof, opt)
	return img
}

// nodeAt returns the frame under p.
func (f *flameWidget) nodeAt(p fyne.Position) *ccprofile.Node {
	if f.layout == nil {
		return nil
	}
	return f.layout.At(int(float64(p.X)*f.scale), int(float64(p.Y)*f.scale))
}

// Tapped zooms into the frame clicked, or out to the whole tree when the
// frame is the focus or one of its callers.
func (f *flameWidget) Tapped(ev *fyne.PointEvent) {
	n := f.nodeAt(ev.Position)
	if n == nil {
		return
	}
	if n == f.focus || n.Parent() == nil {
		f.focus = n.Parent()
	} else {
		f.focus = n
	}
	if f.focus != nil && f.focus.Parent() == nil {
		f.focus = nil
	}
	f.Refresh()
}

// MouseIn implements desktop.Hoverable.
func (f *flameWidget) MouseIn(ev *desktop.MouseEvent) { f.MouseMoved(ev) }

// MouseMoved names the frame under the pointer in the status line.
func (f *flameWidget) MouseMoved(ev *desktop.MouseEvent) {
	p := f.v.prof
	n := f.nodeAt(ev.Position)
	if p == nil || n == nil {
		return
	}
	text := ccprofile.NodeTitle(p, n)
	if n.CC != nil {
		text += fmt.Sprintf(" — %s, %d samples (%d in it alone)", n.CC.Src, n.Total, n.Self)
	}
	f.v.Status.SetText(text)
}

// MouseOut implements desktop.Hoverable.
func (f *flameWidget) MouseOut() {}

// stripWidget shows where the picked cost centre's samples fall in time;
// a click shows that stretch on the timeline.
type stripWidget struct {
	rasterWidget
	v      *ProfileView
	spread *ccprofile.Spread
}

func newStripWidget(v *ProfileView) *stripWidget {
	s := &stripWidget{v: v}
	s.makeRaster(s, s.draw, fyne.NewSize(200, 28))
	return s
}

// draw is the raster's generator.
func (s *stripWidget) draw(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, max(w, 1), max(h, 1)))
	c := paint.NewRaster(img)
	th := paint.ThemeFor(kit.DarkTheme())
	c.Fill(img.Bounds(), th.Header)
	scale := 1.0
	if size := s.raster.Size(); size.Width > 0 {
		scale = float64(w) / float64(size.Width)
	}
	face := paint.FaceFor(paint.Regular, 10, scale)
	sp := s.spread
	if sp == nil || sp.Max == 0 {
		msg := "Pick a cost centre in the table to see when its samples were taken."
		if s.v.picked != nil {
			msg = "Placing " + s.v.picked.Label + "'s samples…"
		}
		c.Text(face, msg, 6, face.Baseline(float64(h)/2), th.Dim)
		return img
	}
	ink := paint.OKLCH(0.70, 0.16, 55*math.Pi/180)
	for i, n := range sp.Counts {
		if n == 0 {
			continue
		}
		x0, x1 := i*w/len(sp.Counts), (i+1)*w/len(sp.Counts)
		top := h - int(float64(n)/float64(sp.Max)*float64(h-2))
		c.Fill(image.Rect(x0, top, max(x1, x0+1), h), ink)
	}
	return img
}

// Tapped shows the stretch of the bin clicked (and its neighbours) on the
// timeline.
func (s *stripWidget) Tapped(ev *fyne.PointEvent) {
	sp := s.spread
	if sp == nil || s.v.link.Show == nil || s.Size().Width <= 0 {
		return
	}
	i := int(float64(ev.Position.X) / float64(s.Size().Width) * float64(len(sp.Counts)))
	i = min(max(i, 0), len(sp.Counts)-1)
	from, _ := sp.Bin(max(i-2, 0))
	_, to := sp.Bin(min(i+2, len(sp.Counts)-1))
	s.v.link.Show(from, to)
}

// rasterWidget is a widget drawn as one raster, at device pixels (the
// flame graph, the samples' strip).
type rasterWidget struct {
	widget.BaseWidget
	raster *canvas.Raster
}

// makeRaster makes the raster of self, the widget that embeds r, drawn by
// draw and at least minSize large.
func (r *rasterWidget) makeRaster(self fyne.Widget, draw func(w, h int) image.Image, minSize fyne.Size) {
	r.raster = canvas.NewRaster(draw)
	r.raster.SetMinSize(minSize)
	r.ExtendBaseWidget(self)
}

// CreateRenderer implements fyne.Widget.
func (r *rasterWidget) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(r.raster)
}

// Refresh draws the raster again.
func (r *rasterWidget) Refresh() { r.raster.Refresh() }
