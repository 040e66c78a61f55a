package timeline

import (
	"math"
	"testing"
)

func TestAxisMapping(t *testing.T) {
	a := NewAxis(1000, 3000, 10, 200)
	if got := a.X(1000); got != 10 {
		t.Errorf("X(From) = %v, want 10", got)
	}
	if got := a.X(3000); got != 210 {
		t.Errorf("X(To) = %v, want 210", got)
	}
	if got := a.X(2000); got != 110 {
		t.Errorf("X(mid) = %v, want 110", got)
	}
	for _, x := range []float64{10, 57, 110, 209} {
		if got := a.X(a.Time(x)); math.Abs(got-x) > 0.01 {
			t.Errorf("X(Time(%v)) = %v", x, got)
		}
	}
	if got := a.Time(-1e9); got != 0 {
		t.Errorf("Time far left = %d, want 0", got)
	}
	if got := a.ColumnTime(100); got != 2000 {
		t.Errorf("ColumnTime(100) = %d, want 2000", got)
	}
	b := NewAxis(5, 5, 0, 0)
	if b.Span() != 1 || b.Width != 1 {
		t.Errorf("degenerate axis not widened: %+v", b)
	}
}

func TestParseTime(t *testing.T) {
	good := map[string]uint64{
		"1.5s": 1_500_000_000, "250ms": 250_000_000, "800us": 800_000, "800µs": 800_000,
		"120ns": 120, "123456789": 123456789, " 2s ": 2e9, "0": 0, "18446744073709551615": math.MaxUint64,
	}
	for in, want := range good {
		got, err := ParseTime(in)
		if err != nil || got != want {
			t.Errorf("ParseTime(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	// A number without a unit is whole nanoseconds: "1.5" was taken as 2 ns.
	for _, in := range []string{"", "s", "abc", "-1s", "1.5x", "1e30s", "NaNs", "1.5", "1e3"} {
		if v, err := ParseTime(in); err == nil {
			t.Errorf("ParseTime(%q) = %d, want error", in, v)
		}
	}
}
