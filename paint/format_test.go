package paint

import (
	"math"
	"strings"
	"testing"
)

func TestTime(t *testing.T) {
	for _, c := range []struct {
		t, step uint64
		want    string
	}{
		{0, 50e6, "0"},
		{0, 0, "0"},
		{250e3, 50e3, "250 µs"},
		{250e3, 250e3, "250 µs"},
		{10_150_000_000, 50e6, "10.15 s"},
		{10_200_000_000, 50e6, "10.2 s"},
		{10e9, 50e6, "10 s"},
		{1500e6, 500e6, "1.5 s"},
		{500e6, 500e6, "500 ms"},
		{2e9, 1e9, "2 s"},
		{800e3, 100e3, "800 µs"},
		{1_000_250, 250, "1.00025 ms"},
		{12, 1, "12 ns"},
		{10_000_000_001, 1, "10.000000001 s"},
		{math.MaxUint64, 1e9, "18446744073 s"},
	} {
		if got := Time(c.t, c.step); got != c.want {
			t.Errorf("Time(%d, %d) = %q, want %q", c.t, c.step, got, c.want)
		}
	}
}

func TestDuration(t *testing.T) {
	for ns, want := range map[uint64]string{
		0: "0", 1: "1 ns", 999: "999 ns", 1000: "1 µs", 1234: "1.23 µs", 6970: "6.97 µs",
		45_600_000: "45.6 ms", 1_200_000_000: "1.2 s", 1_000_000_000: "1 s", 999_700: "1 ms",
		999_499: "999 µs", 123e9: "2 min 3 s", 59_600_000_000: "1 min 0 s", 3600e9: "1 h 0 min",
		3725e9: "1 h 2 min", 10_150_000_000: "10.2 s", math.MaxUint64: "5124095 h 35 min",
	} {
		if got := Duration(ns); got != want {
			t.Errorf("Duration(%d) = %q, want %q", ns, got, want)
		}
	}
	for ns := uint64(1); ns < 1e12; ns = ns*3 + 1 {
		s := Duration(ns)
		if strings.Contains(s, "ms") && strings.HasPrefix(s, "1000") || strings.HasSuffix(s, ".0 s") || s == "0 ns" {
			t.Errorf("Duration(%d) = %q", ns, s)
		}
	}
}

func TestBytes(t *testing.T) {
	for v, want := range map[uint64]string{
		0: "0 B", 1023: "1023 B", 1024: "1.00 KiB", 1536: "1.50 KiB",
		23_400_000: "22.3 MiB", 117 << 30: "117 GiB", 1<<64 - 1: "16.0 EiB",
	} {
		if got := Bytes(v); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", v, got, want)
		}
	}
	if got := ByteRate(2 << 30); got != "2.00 GiB/s" {
		t.Errorf("ByteRate = %q", got)
	}
	if got := ByteRate(math.NaN()); got != "? B/s" {
		t.Errorf("ByteRate(NaN) = %q", got)
	}
}

func TestCounts(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 950: "950", 1444: "1,444", 12_345_678: "12,345,678", -1234: "-1,234"} {
		if got := Count(n); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
	for v, want := range map[float64]string{
		0: "0", 0.52: "0.52", 3: "3", 12.34: "12.3", 950: "950", 1444: "1.44 k", 12_300: "12.3 k",
		999_999: "1 M", 4_560_000: "4.56 M", 7.8e9: "7.8 G", 0.001: "0.001", -2500: "-2.5 k",
	} {
		if got := CountShort(v); got != want {
			t.Errorf("CountShort(%v) = %q, want %q", v, got, want)
		}
	}
	if got := Rate(12_300, "s"); got != "12.3 k/s" {
		t.Errorf("Rate = %q", got)
	}
	for f, want := range map[float64]string{0: "0%", 0.62: "62%", 0.045: "4.5%", 0.0003: "<0.1%", 1: "100%"} {
		if got := Percent(f); got != want {
			t.Errorf("Percent(%v) = %q, want %q", f, got, want)
		}
	}
}

func TestValueTicks(t *testing.T) {
	labels := func(ts []ValueTick) string {
		var s []string
		for _, tk := range ts {
			s = append(s, tk.Label)
		}
		return strings.Join(s, " ")
	}
	if got := labels(ByteTicks(100<<20, 5)); got != "0 20 MiB 40 MiB 60 MiB 80 MiB 100 MiB" {
		t.Errorf("ByteTicks(100 MiB) = %s", got)
	}
	if got := labels(ByteTicks(39*1.04*(1<<20), 2)); got != "0 20 MiB 40 MiB" {
		t.Errorf("ByteTicks(40.6 MiB, 2) = %s", got)
	}
	if got := labels(ByteTicks(0, 3)); got != "0" {
		t.Errorf("ByteTicks(0) = %s", got)
	}
	for need, want := range map[float64]uint64{0: 1, 1: 1, 3: 5, 7: 10, 11: 20, 1.9e9: 2e9} {
		if got := TimeStep(need); got != want {
			t.Errorf("TimeStep(%v) = %d, want %d", need, got, want)
		}
	}
}

func TestCountOf(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{{0, "0 spans"}, {1, "1 span"}, {2, "2 spans"}, {1444, "1,444 spans"}} {
		if got := CountOf(c.n, "span", "spans"); got != c.want {
			t.Errorf("CountOf(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
