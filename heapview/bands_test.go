package heapview

import (
	"image/color"
	"testing"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
)

// twoBands is a profile of three censuses one second apart with band "big"
// at 300 bytes and band "small" at 100 bytes, then 0 and 200 at the last.
func twoBands(t *testing.T) *Profile {
	t.Helper()
	hp := &ingest.HeapProfile{Samples: []ingest.HeapSample{
		{Time: 0, Entries: []ingest.HeapEntry{{Label: "small", Bytes: 100}, {Label: "big", Bytes: 300}}, Complete: true},
		{Time: 1, Entries: []ingest.HeapEntry{{Label: "small", Bytes: 100}, {Label: "big", Bytes: 300}}, Complete: true},
		{Time: 2, Entries: []ingest.HeapEntry{{Label: "small", Bytes: 200}}, Complete: true},
	}}
	p, err := FromHeapProfile(hp)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestColors checks that colours depend on the name only, that OTHER is
// grey and that bands of one chart get distinct colours.
func TestColors(t *testing.T) {
	if ColorFor("THUNK") != ColorFor("THUNK") || ColorFor(OtherName) != otherColor {
		t.Fatal("ColorFor is not a function of the name")
	}
	p := readProfile(t, "../testdata/generated/hd.eventlog")
	bd := NewBands(p, BandOptions{})
	colors := BandColors(bd)
	seen := map[color.RGBA]string{}
	for b, c := range colors {
		if prev, dup := seen[c]; dup {
			t.Errorf("%q and %q share %v", prev, bd.Name(b), c)
		}
		seen[c] = bd.Name(b)
	}
	// The biggest band keeps its name's colour in any company.
	if colors[0] != ColorFor(bd.Name(0)) {
		t.Errorf("biggest band %q: %v, want %v", bd.Name(0), colors[0], ColorFor(bd.Name(0)))
	}
	bd5 := NewBands(p, BandOptions{Max: 5, Order: ByName})
	c5 := BandColors(bd5)
	for b := 0; b < bd5.Len(); b++ {
		if bd5.Name(b) == bd.Name(0) && c5[b] != colors[0] {
			t.Errorf("%q changes colour between charts", bd.Name(0))
		}
	}
	if c5[bd5.Other()] != otherColor {
		t.Errorf("OTHER is %v", c5[bd5.Other()])
	}
}

// TestValuesAtInterpolates checks the hover read-out between censuses.
func TestValuesAtInterpolates(t *testing.T) {
	bd := NewBands(twoBands(t), BandOptions{})
	v, ok := bd.ValuesAt(15e8, nil) // halfway from (300,100) to (0,200)
	if !ok || v[0] != 150 || v[1] != 150 {
		t.Errorf("ValuesAt(1.5 s) = %v %v", v, ok)
	}
	if _, ok := bd.ValuesAt(3e9, v); ok {
		t.Errorf("ValuesAt past the end reports a value")
	}
	if bd.Nearest(14e8) != 1 || bd.Nearest(16e8) != 2 || bd.Nearest(0) != 0 {
		t.Errorf("Nearest: %d %d %d", bd.Nearest(14e8), bd.Nearest(16e8), bd.Nearest(0))
	}
}

// TestNeighbouringBandsStandApart checks that bands stacked one on the
// other get colours at least minNeighbourSpace apart, in the profiles of
// every closure-type and cost-centre sample, in both orders.
func TestNeighbouringBandsStandApart(t *testing.T) {
	for _, path := range []string{"../testdata/ghc-9.0.2/heap-hT.eventlog", "../testdata/ghc-9.0.2/heap-hc.eventlog",
		"../testdata/generated/hd.eventlog", "../testdata/generated/hy.eventlog"} {
		p := readProfile(t, path)
		for _, order := range []Order{BySize, ByName} {
			bd := NewBands(p, BandOptions{Order: order})
			colors := BandColors(bd)
			for b := 1; b < bd.Len(); b++ {
				if d := paint.Distance(colors[b-1], colors[b]); d < minNeighbourSpace {
					t.Errorf("%s: %q and %q, stacked together, are %.3f apart", path, bd.Name(b-1), bd.Name(b), d)
				}
			}
		}
	}
}

// TestParseMode reads the modes' names, and only those.
func TestParseMode(t *testing.T) {
	for _, m := range []Mode{ModeArea, ModeNormalised, ModeLines} {
		if got, err := ParseMode(m.String()); err != nil || got != m {
			t.Errorf("ParseMode(%q) = %v, %v", m.String(), got, err)
		}
	}
	if m, err := ParseMode(" Normalized"); err != nil || m != ModeNormalised {
		t.Errorf("ParseMode(Normalized) = %v, %v", m, err)
	}
	if _, err := ParseMode("pie"); err == nil {
		t.Error("ParseMode(pie) accepted")
	}
}

// ColorFor returns the colour BandColors gives a band called name when
// no bigger band took its hue (OtherName: grey).
func ColorFor(name string) color.RGBA {
	if name == OtherName {
		return otherColor
	}
	return paint.BandColorFor(name)
}
