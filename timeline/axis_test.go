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

func TestTicks(t *testing.T) {
	cases := []struct {
		from, to uint64
		width    float64
		step     uint64
		first    string
	}{
		{0, 10e9, 1000, 1e9, "0s"},             // 100 px per second
		{0, 3e9, 1000, 500e6, "0.0s"},          // 333 px/s: 0.5 s apart needs decimals
		{1e6, 2e6, 1000, 100e3, "1.0ms"},       // 1 ms window
		{0, 1000, 1000, 100, "0.0µs"},          // 1 µs
		{250e6, 260e6, 1920, 500e3, "250.0ms"}, // 10 ms
		{0, 1234567890123, 1920, 100e9, "0s"},  // ~20 minutes
		{42, 43, 1920, 1, "42ns"},              // 1 ns
	}
	for _, c := range cases {
		a := NewAxis(c.from, c.to, 0, c.width)
		if got := a.TickStep(80); got != c.step {
			t.Errorf("[%d,%d]@%v: step %d, want %d", c.from, c.to, c.width, got, c.step)
		}
		ticks := a.Ticks(80)
		var majors []Tick
		for i, tk := range ticks {
			if tk.Time < c.from || tk.Time > c.to {
				t.Errorf("tick %d outside range", tk.Time)
			}
			if i > 0 && tk.Time <= ticks[i-1].Time {
				t.Errorf("ticks out of order")
			}
			if tk.Major {
				majors = append(majors, tk)
			} else if tk.Label != "" {
				t.Errorf("minor tick with label %q", tk.Label)
			}
		}
		if len(majors) == 0 {
			t.Fatalf("[%d,%d]: no major ticks", c.from, c.to)
		}
		if majors[0].Label != c.first {
			t.Errorf("[%d,%d]: first label %q, want %q", c.from, c.to, majors[0].Label, c.first)
		}
		seen := map[string]bool{}
		for i, m := range majors {
			if seen[m.Label] {
				t.Errorf("[%d,%d]: duplicate label %q", c.from, c.to, m.Label)
			}
			seen[m.Label] = true
			if i > 0 && m.X-majors[i-1].X < 80-1e-9 {
				t.Errorf("majors %v px apart", m.X-majors[i-1].X)
			}
		}
	}
}

func TestFormatTime(t *testing.T) {
	cases := []struct {
		t, step uint64
		want    string
	}{
		{1500e6, 500e6, "1.5s"},
		{250e6, 50e6, "250ms"},
		{2e9, 1e9, "2s"},
		{800e3, 100e3, "0.8ms"},
		{800e3, 10e3, "800µs"},
		{12, 1, "12ns"},
		{0, 0, "0ns"},
	}
	for _, c := range cases {
		if got := FormatTime(c.t, c.step); got != c.want {
			t.Errorf("FormatTime(%d, %d) = %q, want %q", c.t, c.step, got, c.want)
		}
	}
	durs := map[uint64]string{0: "0", 999: "999 ns", 1234: "1.23 µs", 45_600_000: "45.6 ms", 123e9: "2 min 3 s"}
	for ns, want := range durs {
		if got := FormatDuration(ns); got != want {
			t.Errorf("FormatDuration(%d) = %q, want %q", ns, got, want)
		}
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
