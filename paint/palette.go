package paint

import (
	"image"
	"image/color"
	"math"
)

// Ink is one thing the views colour: a state of a HEC or thread, an
// instant event, a spark curve, a heap line or a GC. Each has one name,
// used in legends, tooltips and tables alike, and one colour. The states
// keep ThreadScope's colours where its users know them: running code dark
// green, GC work orange, thread creation light blue, GC requests cyan and
// dark blue, migration dark red, wakeups green, shutdown brown, markers
// pink. Findings (package advise) are flagged by severity: info slate,
// warning amber, problem red.
type Ink uint8

// The inks.
const (
	// States of a HEC or thread.
	InkIdle             Ink = iota // idle HEC; not drawn on tracks
	InkRunning                     // running Haskell code
	InkRunnable                    // ready to run, waiting for a HEC
	InkGCSync                      // GC started, not yet working
	InkGCWork                      // a GC thread working
	InkGCIdle                      // a GC thread idle, looking for work
	InkGCDone                      // a GC thread done, waiting for the GC to end
	InkBlockedMVar                 // blocked on an MVar (take, put or read)
	InkBlockedBlackHole            // blocked on a black hole
	InkBlockedSTM                  // blocked in STM
	InkBlockedIO                   // blocked on I/O or a delay
	InkForeignCall                 // in a foreign call
	InkBlockedThrowTo              // blocked in throwTo
	InkBlocked                     // blocked for another reason
	InkFinished                    // finished thread; not drawn on tracks
	// Instant events.
	InkCreateThread
	InkMigrate
	InkWakeup
	InkSeqGCRequest
	InkParGCRequest
	InkShutdown
	InkUserMessage
	InkLogMessage
	InkMarker
	InkBookmark
	// Sparks.
	InkSparkCreated
	InkSparkDud
	InkSparkOverflowed
	InkSparkConverted
	InkSparkStolen
	InkSparkFizzled
	InkSparkGCd
	InkSparkPool
	// Heap and GC.
	InkHeapSize
	InkHeapLive
	InkHeapBlocks
	InkHeapAllocated
	InkMinorGC
	InkMajorGC
	// Activity: HECs running Haskell code, the utilisation graph.
	InkActivity
	// Findings, by severity.
	InkFindingInfo
	InkFindingWarning
	InkFindingProblem
	NumInks
)

var inkNames = [NumInks]string{
	"idle", "running", "runnable", "GC sync", "GC work", "GC idle", "GC done",
	"blocked on MVar", "blocked on black hole", "blocked in STM", "blocked on I/O or delay", "in foreign call",
	"blocked in throwTo", "blocked", "finished",
	"create thread", "migrate thread", "wake up thread", "sequential GC request", "parallel GC request",
	"shutdown", "user message", "log message", "marker", "bookmark",
	"sparks created", "dud sparks", "overflowed sparks", "sparks converted", "sparks stolen", "sparks fizzled",
	"sparks GC'd", "spark pool size",
	"heap size", "live data", "blocks size", "allocated", "minor GC", "major GC",
	"HECs running Haskell code",
	"info finding", "warning finding", "problem finding",
}

func rgb(v uint32) color.RGBA { return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff} }

var inkColors = [NumInks]color.RGBA{
	rgb(0xd8d8d8), rgb(0x006400), rgb(0xc8dca0), rgb(0xe4d4b4), rgb(0xe87010), rgb(0xf3b27a), rgb(0xcfa06c),
	rgb(0xd05050), rgb(0x503030), rgb(0xa040c0), rgb(0x7090c0), rgb(0xc0a040),
	rgb(0x2f8f8f), rgb(0x9a7a7a), rgb(0xffffff),
	rgb(0x70b0f0), rgb(0x8b0000), rgb(0x008000), rgb(0x00c0c0), rgb(0x00008b),
	rgb(0x805020), rgb(0xb02020), rgb(0x606060), rgb(0xe040a0), rgb(0x1f6fd0),
	rgb(0x006400), rgb(0xc0c0c0), rgb(0xe00000), rgb(0x40c040), rgb(0x3060d0), rgb(0x909090),
	rgb(0xffa500), rgb(0x5080c0),
	rgb(0x101010), rgb(0x1f4eb4), rgb(0x8a5a00), rgb(0x7a3fb0), rgb(0xf0a040), rgb(0xc02020),
	rgb(0x006400),
	// OKLCH (0.60, 0.05, 255°), (0.76, 0.15, 85°), (0.58, 0.20, 27°): apart
	// from the highlight's orange, and each at least 3:1 against the dark
	// theme's header and, but for the amber (drawn with a darker rim), the
	// light theme's.
	rgb(0x6c829e), rgb(0xdca81c), rgb(0xd73431),
}

// Name returns the ink's name, such as "running" or "GC work".
func (k Ink) Name() string {
	if k < NumInks {
		return inkNames[k]
	}
	return "invalid"
}

// Color returns the ink's colour on a light background (Theme.Ink gives
// it for a theme).
func (k Ink) Color() color.RGBA {
	if k < NumInks {
		return inkColors[k]
	}
	return color.RGBA{0xff, 0x00, 0xff, 0xff}
}

// State reports whether the ink is a state of a HEC or thread.
func (k Ink) State() bool { return k <= InkFinished }

// GC reports whether the ink is a phase of garbage collection.
func (k Ink) GC() bool { return k >= InkGCSync && k <= InkGCDone }

// Theme is the furniture of a picture — background, text, grid, axis,
// rules, the overlays' colours — for light or dark surroundings. The data
// keep their colours in both, except the lines that have none of their own.
type Theme struct {
	// Dark tells a dark theme.
	Dark bool
	// Background is the canvas; Header the track headers' column; Group
	// the rows that title a group; Stripe every other track's background.
	Background, Header, Group, Stripe color.RGBA
	// Text is for names and labels, Dim for secondary text (units, counts).
	Text, Dim color.RGBA
	// Grid is the vertical lines at major ticks; Axis the axis' rule and
	// ticks; Rule the lines between tracks.
	Grid, Axis, Rule color.RGBA
	// LabelOnBar is text drawn over a coloured bar.
	LabelOnBar color.RGBA
	// Idle fills time when nothing ran, where that is drawn at all.
	Idle color.RGBA
	// Line draws a curve that has no colour of its own (the heap size).
	Line color.RGBA
	// Unknown fills time whose state is not known — a capability's events
	// not received yet, or past where a log cut short ends — and
	// UnknownHatch draws the diagonal lines over it (Hatch); Frontier
	// marks where a cut log's data for a capability ends.
	Unknown, UnknownHatch, Frontier color.RGBA
	// Cursor is the pointer's time line; Selection shades a selected range
	// (translucent); Hover highlights the track under the pointer
	// (translucent).
	Cursor, Selection, Hover color.RGBA
	// Tooltip is a tooltip's background, TooltipText its text, TooltipEdge
	// its border.
	Tooltip, TooltipText, TooltipEdge color.RGBA
}

// Light is the theme for light surroundings, as ThreadScope draws; Dark
// the theme for dark surroundings (a desktop's dark theme), whose
// background is that of Fyne's dark theme. Their colours are set side by
// side, a furniture's light and dark colour to a line.
var Light, Dark = Theme{}, Theme{Dark: true}

func init() {
	for _, c := range []struct {
		light, dark *color.RGBA
		l, d        color.RGBA
	}{
		{&Light.Background, &Dark.Background, rgb(0xffffff), rgb(0x171718)},
		{&Light.Header, &Dark.Header, rgb(0xf4f4f6), rgb(0x202023)},
		{&Light.Group, &Dark.Group, rgb(0xe6e6ea), rgb(0x2c2c31)},
		{&Light.Stripe, &Dark.Stripe, rgb(0xf8f8fa), rgb(0x1c1c1e)},
		{&Light.Text, &Dark.Text, rgb(0x202020), rgb(0xe4e4e4)},
		{&Light.Dim, &Dark.Dim, rgb(0x707070), rgb(0x9c9ca0)},
		{&Light.Grid, &Dark.Grid, rgb(0xe4e4e4), rgb(0x343438)},
		{&Light.Axis, &Dark.Axis, rgb(0x606060), rgb(0xa0a0a4)},
		{&Light.Rule, &Dark.Rule, rgb(0xc8c8c8), rgb(0x48484c)},
		{&Light.LabelOnBar, &Dark.LabelOnBar, rgb(0xffffff), rgb(0xffffff)},
		{&Light.Idle, &Dark.Idle, rgb(0xd8d8d8), rgb(0x505054)},
		{&Light.Line, &Dark.Line, rgb(0x101010), rgb(0xe8e8e8)},
		{&Light.Unknown, &Dark.Unknown, rgb(0xeeeef3), rgb(0x26262b)},
		{&Light.UnknownHatch, &Dark.UnknownHatch, rgb(0xc2c2cc), rgb(0x46464e)},
		{&Light.Frontier, &Dark.Frontier, rgb(0x55555f), rgb(0xb4b4be)},
		{&Light.Cursor, &Dark.Cursor, rgb(0x1a1a1a), rgb(0xf0f0f0)},
		{&Light.Selection, &Dark.Selection, color.RGBA{0x3c, 0x78, 0xdc, 0x30}, color.RGBA{0x78, 0xaa, 0xff, 0x38}},
		{&Light.Hover, &Dark.Hover, color.RGBA{0x00, 0x00, 0x00, 0x0c}, color.RGBA{0xff, 0xff, 0xff, 0x10}},
		{&Light.Tooltip, &Dark.Tooltip, rgb(0xfffff4), rgb(0x2a2a2e)},
		{&Light.TooltipText, &Dark.TooltipText, rgb(0x202020), rgb(0xe8e8e8)},
		{&Light.TooltipEdge, &Dark.TooltipEdge, rgb(0x909090), rgb(0x6c6c70)},
	} {
		*c.light, *c.dark = c.l, c.d
	}
}

// ThemeFor returns Dark if dark is true, Light otherwise.
func ThemeFor(dark bool) Theme {
	if dark {
		return Dark
	}
	return Light
}

// Ink returns ink k's colour in this theme: its own colour, except for the
// inks that are drawn in the theme's line or idle colour.
func (th *Theme) Ink(k Ink) color.RGBA {
	switch k {
	case InkHeapSize:
		return th.Line
	case InkIdle:
		return th.Idle
	case InkFinished:
		return th.Background
	}
	return k.Color()
}

// TextOn returns the colour of text drawn on a fill of colour c: near
// black on a light fill, white on a dark one.
func TextOn(c color.RGBA) color.RGBA {
	if l, _, _ := OKLab(c); l > 0.7 {
		return rgb(0x202020)
	}
	return rgb(0xffffff)
}

// HatchStep is the distance in pixels, at scale 1, between the lines of
// the hatch over unknown time (Hatch).
const HatchStep = 6

// Hatch fills r with fill and diagonal lines of colour lines, step pixels
// apart: time whose state is not known, in a theme's Unknown and
// UnknownHatch. The lines are laid on the canvas's own grid (x + y a
// multiple of step), so that neighbouring hatched rectangles join into one
// pattern.
func Hatch(c Canvas, r image.Rectangle, fill, lines color.RGBA, step int) {
	if r.Empty() {
		return
	}
	step = max(step, 3)
	c.Fill(r, fill)
	c.PushClip(r)
	h := r.Dy()
	// Lines x + y = k·step for every k whose line crosses r.
	k0 := (r.Min.X + r.Min.Y) / step
	for s := k0 * step; s <= r.Max.X+r.Max.Y; s += step {
		// From its point at y = r.Max.Y up to y = r.Min.Y.
		x0 := float64(s - r.Max.Y)
		c.Line(x0, float64(r.Max.Y), x0+float64(h), float64(r.Min.Y), 1, lines)
	}
	c.PopClip()
}

// HatchColumns hatches (Hatch) n pixel columns from x0 on, column i from
// top down to bottom(i), each run of columns of one bottom as one
// rectangle; a column whose bottom is not below top is left alone.
func HatchColumns(c Canvas, x0, n, top int, bottom func(i int) int, fill, lines color.RGBA, step int) {
	for i := 0; i < n; {
		b := bottom(i)
		j := i + 1
		for j < n && bottom(j) == b {
			j++
		}
		if b > top {
			Hatch(c, image.Rect(x0+i, top, x0+j, b), fill, lines, step)
		}
		i = j
	}
}

// The band palette: hues around the OKLCH colour wheel at four lightness
// levels, so that neighbouring bands in a stack stay apart and black text
// and lines remain readable over every colour; those too near a state's
// colour are left out (see BandPalette): the oranges and yellows of GC and
// foreign calls, the greens of running and runnable, the reds of blocking.
const (
	// BandHues is the number of hues of the band palette.
	BandHues      = 14
	bandLevels    = 4
	minStateSpace = 0.1 // OKLab distance kept from every state colour
)

// BandColor is one colour of the band palette and the index of its hue
// (0 to BandHues-1).
type BandColor struct {
	Color color.RGBA
	Hue   int
}

var bandPalette = buildBandPalette()

func buildBandPalette() []BandColor {
	levels := [bandLevels]struct{ l, c float64 }{{0.72, 0.13}, {0.58, 0.12}, {0.84, 0.09}, {0.78, 0.11}}
	var out []BandColor
	for _, lv := range levels {
		for h := 0; h < BandHues; h++ {
			c := OKLCH(lv.l, lv.c, (float64(h)+0.5)*2*math.Pi/BandHues)
			if !NearState(c) {
				out = append(out, BandColor{c, h})
			}
		}
	}
	return out
}

// NearState reports whether c looks like (is within a small OKLab distance
// of) the colour of a state, of the marker or bookmark, or of a heap line
// or GC: such a colour would be mistaken for one of them.
func NearState(c color.RGBA) bool {
	for k := Ink(0); k < NumInks; k++ {
		if k == InkIdle || k == InkFinished || (k > InkFinished && k < InkMarker) || (k > InkBookmark && k < InkHeapLive) || k >= InkActivity {
			continue // not drawn, or thin ticks and curves of their own tracks, or flags on the axis
		}
		if Distance(c, k.Color()) < minStateSpace {
			return true
		}
	}
	return false
}

// BandPalette returns the colours heap-profile bands and user spans are
// given: none of them near a state colour (NearState). The slice is
// shared: do not modify it.
func BandPalette() []BandColor { return bandPalette }

// OtherBand is the colour of a profile's OTHER band: a neutral grey that no
// palette colour resembles.
var OtherBand = rgb(0xbdbdbd)

// HashName is the 32-bit FNV-1a hash of a name.
func HashName(name string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(name); i++ {
		h ^= uint32(name[i])
		h *= 16777619
	}
	return h
}

// BandIndex returns the index in BandPalette of the colour of a band or
// label called name: a hash of the name, so that it does not depend on
// the file or on the other bands.
func BandIndex(name string) int { return int(HashName(name) % uint32(len(bandPalette))) }

// BandColorFor returns the colour of a band or label called name.
func BandColorFor(name string) color.RGBA { return bandPalette[BandIndex(name)].Color }
