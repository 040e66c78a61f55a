// Package apptest holds what the tests of app and of its rooms share:
// running work as Fyne's loop would, waiting for a signal, reading the
// texts a widget tree shows, and the test logs' paths. Only tests import
// it.
package apptest

import (
	"image"
	"image/color"
	"math/rand"
	"net"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/tracks"
)

// UI runs f as work handed to Fyne's loop runs (under kit.UiMu): tests
// that drive widgets while background loads report through kit.OnUI use
// it.
func UI(f func()) {
	kit.UiMu.Lock()
	defer kit.UiMu.Unlock()
	f()
}

// Wait waits up to 20 seconds for a signal on ch, failing t without one.
func Wait(t *testing.T, ch chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(20 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
}

// Until waits up to 20 seconds for cond to hold, asking it every few
// milliseconds under UI (as work handed to Fyne's loop runs, so that it
// may read widgets a background load fills), failing t if it never does.
func Until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var ok bool
		UI(func() { ok = cond() })
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Log returns the path of the test log testdata/ghc-9.0.2/NAME.eventlog
// of the repository.
func Log(name string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "ghc-9.0.2", name+".eventlog")
}

// Texts returns the text of every label and button in o, in layout order,
// including those on tabs that are not selected.
func Texts(o fyne.CanvasObject) []string {
	var out []string
	for _, obj := range test.LaidOutObjects(o) {
		switch x := obj.(type) {
		case *widget.Label:
			out = append(out, x.Text)
		case *kit.CopyLabel:
			out = append(out, x.Text)
		case *kit.HintLabel:
			out = append(out, x.Text)
		case *widget.Button:
			out = append(out, x.Text)
		case *container.AppTabs:
			for _, item := range x.Items {
				out = append(out, Texts(item.Content)...)
			}
		case *kit.Deferred:
			out = append(out, Texts(x.Content())...)
		}
	}
	return out
}

// ColourCount returns how many colours every third pixel of every third
// row of img has between them.
func ColourCount(img image.Image) int {
	b := img.Bounds()
	colours := map[color.RGBA]bool{}
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, al := img.At(x, y).RGBA()
			colours[color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), uint8(al >> 8)}] = true
		}
	}
	return len(colours)
}

// VariantTheme is a theme whose colours are always those of one variant,
// whatever the system prefers.
type VariantTheme struct {
	fyne.Theme
	Variant fyne.ThemeVariant
}

// Color returns the colour name has in the theme's variant.
func (t VariantTheme) Color(name fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return t.Theme.Color(name, t.Variant)
}

// TrackView is a widget that draws a tracks.View, as the track canvas
// does.
type TrackView interface {
	// With runs f with the widget's view.
	With(f func(v *tracks.View))
	// PixelScale returns how many device pixels a unit is.
	PixelScale() float64
}

// UnitsOf returns the rectangle r of c's device pixels in units.
func UnitsOf(c TrackView, r image.Rectangle) (x0, y0, x1, y1 float32) {
	s := float32(c.PixelScale())
	return float32(r.Min.X) / s, float32(r.Min.Y) / s, float32(r.Max.X) / s, float32(r.Max.Y) / s
}

// TrackAt returns a point (units) in the middle of a track's plot at time
// tm, failing if the track is not in view.
func TrackAt(t *testing.T, c TrackView, id tracks.TrackID, tm uint64) fyne.Position {
	t.Helper()
	var r image.Rectangle
	var ok bool
	var x float64
	c.With(func(v *tracks.View) {
		r, ok = v.TrackRect(id)
		x = v.X(tm)
	})
	if !ok {
		t.Fatalf("track %v is not in view", id)
	}
	s := float32(c.PixelScale())
	return fyne.NewPos(float32(x)/s+0.5/s, float32(r.Min.Y+r.Max.Y)/2/s)
}

// ShowEvents returns every event of the file at path, stable-sorted by
// time as `ghc-events show` prints them, and its header.
func ShowEvents(t *testing.T, path string) ([]ingest.Event, *ingest.Header) {
	t.Helper()
	f, err := ingest.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var evs []ingest.Event
	var ev ingest.Event
	for f.Next(&ev) {
		evs = append(evs, ev.Clone())
	}
	slices.SortStableFunc(evs, func(a, b ingest.Event) int {
		switch {
		case a.Time < b.Time:
			return -1
		case a.Time > b.Time:
			return 1
		}
		return 0
	})
	return evs, f.Header()
}

// KnownSpan finds, straight from the events, the longest run of a thread
// on capability 1 that a StopThread ends: thread, start, end, stop status.
func KnownSpan(t *testing.T, path string) (thread uint32, start, end uint64, st ingest.StopStatus) {
	t.Helper()
	f, err := ingest.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ev ingest.Event
	running := false
	var cur uint32
	var since uint64
	for f.Next(&ev) {
		if ev.Cap != 1 {
			continue
		}
		switch ev.Kind {
		case ingest.KindRunThread:
			running, cur, since = true, ev.Thread(), ev.Time
		case ingest.KindStopThread:
			if running && ev.Thread() == cur && ev.Time-since > end-start {
				thread, start, end, st = cur, since, ev.Time, ev.StopStatus()
			}
			running = false
		}
	}
	if end == 0 {
		t.Fatalf("%s: no run on cap 1", path)
	}
	return thread, start, end, st
}

// Drag presses at point p of o (with mods held), drags by (dx, dy) in ten
// steps, as the desktop driver reports a drag, and ends it.
func Drag(o interface {
	desktop.Mouseable
	fyne.Draggable
}, p fyne.Position, dx, dy float32, mods fyne.KeyModifier) {
	o.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: p}, Modifier: mods})
	for i := 0; i < 10; i++ {
		p.X += dx / 10
		p.Y += dy / 10
		o.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: p}, Dragged: fyne.Delta{DX: dx / 10, DY: dy / 10}})
	}
	o.DragEnd()
	o.MouseUp(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: p}})
}

// Hover moves the pointer to point p of o.
func Hover(o desktop.Hoverable, p fyne.Position) {
	o.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: p}})
}

// TipText returns the lines a tooltip (a trackcanvas.Tooltip) shows, none
// when it is hidden.
func TipText(tip interface {
	Visible() bool
	Objects() []fyne.CanvasObject
}) []string {
	if !tip.Visible() {
		return nil
	}
	var out []string
	for _, o := range tip.Objects() {
		if l, ok := o.(*canvas.Text); ok && l.Visible() {
			out = append(out, l.Text)
		}
	}
	return out
}

// ServeOnce listens on loopback and sends data to the first client in
// uneven chunks with pauses; if gate is not nil it waits on it after half
// the data. It returns the tcp:// URL to attach to.
func ServeOnce(t *testing.T, data []byte, gate chan struct{}) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		rng := rand.New(rand.NewSource(int64(len(data))))
		half := len(data) / 2
		for off := 0; off < len(data); {
			n := min(len(data)-off, 1+rng.Intn(9000))
			if off < half && off+n > half {
				n = half - off
			}
			if _, err := c.Write(data[off : off+n]); err != nil {
				return
			}
			off += n
			if off == half && gate != nil {
				<-gate
			}
			if rng.Intn(4) == 0 {
				time.Sleep(time.Millisecond)
			}
		}
	}()
	return "tcp://" + l.Addr().String()
}
