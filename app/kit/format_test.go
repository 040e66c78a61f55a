package kit

import (
	"testing"
)

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{
		-1: "0 B", 0: "0 B", 1023: "1023 B", 1024: "1.00 KiB", 17403: "17.0 KiB", 123456789: "118 MiB", 2_500_000_000: "2.33 GiB",
	} {
		if got := FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestFormatCount(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 950: "950", 12345: "12.3 k", 4_560_000: "4.56 M", 7.8e9: "7.8 G"} {
		if got := FormatCount(v); got != want {
			t.Errorf("FormatCount(%g) = %q, want %q", v, got, want)
		}
	}
}
