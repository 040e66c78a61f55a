package app

import (
	"strings"
	"testing"
	"time"

	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/ingest"
)

func parseForTest(r *strings.Reader) (*ingest.HeapProfile, error) { return ingest.ParseHeapProfile(r) }

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{
		-1: "0 B", 0: "0 B", 1023: "1023 B", 1024: "1.00 KiB", 17403: "17.0 KiB", 123456789: "118 MiB", 2_500_000_000: "2.33 GiB",
	} {
		if got := kit.FormatBytes(n); got != want {
			t.Errorf("formatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestFormatCount(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 950: "950", 12345: "12.3 k", 4_560_000: "4.56 M", 7.8e9: "7.8 G"} {
		if got := kit.FormatCount(v); got != want {
			t.Errorf("formatCount(%g) = %q, want %q", v, got, want)
		}
	}
}

func TestProgress(t *testing.T) {
	p := loaded.Progress{Bytes: 25_000_000, Total: 100_000_000, Events: 3_000_000, Elapsed: 1500 * time.Millisecond}
	if f := p.Fraction(); f != 0.25 {
		t.Errorf("Fraction = %g", f)
	}
	if r := p.EventsPerSecond(); r != 2e6 {
		t.Errorf("EventsPerSecond = %g", r)
	}
	if s, want := p.String(), "23.8 MiB of 95.4 MiB · 3 M events · 2 M events/s"; s != want {
		t.Errorf("String = %q, want %q", s, want)
	}
	if (loaded.Progress{}).Fraction() != 0 || (loaded.Progress{}).EventsPerSecond() != 0 {
		t.Error("empty progress is not zero")
	}
}
