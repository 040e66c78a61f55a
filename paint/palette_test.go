package paint

import (
	"image/color"
	"testing"
)

// TestBandsAvoidStates checks that no band colour is near a state colour,
// that the palette keeps enough colours, and that names hash stably.
func TestBandsAvoidStates(t *testing.T) {
	pal := BandPalette()
	if len(pal) < 24 {
		t.Fatalf("band palette has %d colours, want at least 24", len(pal))
	}
	hues := map[int]bool{}
	for _, b := range pal {
		hues[b.Hue] = true
		for k := InkIdle + 1; k < InkFinished; k++ {
			if d := Distance(b.Color, k.Color()); d < minStateSpace {
				t.Errorf("band colour %v is %.3f from %s", b.Color, d, k.Name())
			}
		}
		if b.Color == OtherBand {
			t.Errorf("band colour equals OTHER's grey")
		}
	}
	if len(hues) < BandHues-4 {
		t.Errorf("band palette keeps %d hues of %d", len(hues), BandHues)
	}
	if BandColorFor("THUNK") != BandColorFor("THUNK") || HashName("a") == HashName("b") {
		t.Error("band colours are not a function of the name")
	}
	// A colour equal to runnable's is near a state.
	if !NearState(InkRunnable.Color()) || NearState(color.RGBA{0x00, 0x00, 0x00, 0xff}) {
		t.Error("NearState misjudges")
	}
}

// TestInkNames checks one distinct name per ink and distinct colours among
// the states that are drawn.
func TestInkNames(t *testing.T) {
	seen := map[string]Ink{}
	for k := Ink(0); k < NumInks; k++ {
		n := k.Name()
		if n == "" || n == "invalid" {
			t.Errorf("ink %d has no name", k)
		}
		if p, dup := seen[n]; dup {
			t.Errorf("inks %d and %d are both %q", p, k, n)
		}
		seen[n] = k
	}
	for a := InkRunning; a < InkFinished; a++ {
		for b := a + 1; b < InkFinished; b++ {
			if d := Distance(a.Color(), b.Color()); d < 0.04 {
				t.Errorf("%s and %s look alike (%.3f)", a.Name(), b.Name(), d)
			}
		}
	}
	if Dark.Ink(InkHeapSize) != Dark.Line || Light.Ink(InkRunning) != InkRunning.Color() {
		t.Error("Theme.Ink")
	}
}

// contrast is the WCAG contrast ratio of two colours (1 to 21).
func contrast(a, b color.RGBA) float64 {
	lum := func(c color.RGBA) float64 {
		return 0.2126*linear(c.R) + 0.7152*linear(c.G) + 0.0722*linear(c.B)
	}
	x, y := lum(a), lum(b)
	if x < y {
		x, y = y, x
	}
	return (x + 0.05) / (y + 0.05)
}

// TestFindingInks checks that the severities' colours look apart, stand
// out of the dark theme's header (the light theme's amber has a rim), and
// that the text TextOn picks for each reads on it.
func TestFindingInks(t *testing.T) {
	sev := []Ink{InkFindingInfo, InkFindingWarning, InkFindingProblem}
	for i, a := range sev {
		for _, b := range sev[i+1:] {
			if d := Distance(a.Color(), b.Color()); d < 0.15 {
				t.Errorf("%s and %s look alike (%.3f)", a.Name(), b.Name(), d)
			}
		}
		if c := contrast(a.Color(), Dark.Header); c < 3 {
			t.Errorf("%s on the dark header: contrast %.2f", a.Name(), c)
		}
		if c := contrast(a.Color(), TextOn(a.Color())); c < 3.9 {
			t.Errorf("text on %s: contrast %.2f", a.Name(), c)
		}
	}
	if TextOn(Light.Background) == TextOn(Dark.Background) {
		t.Error("TextOn picks one colour on white and on black")
	}
}
