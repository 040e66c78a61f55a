package loaded

import (
	"testing"
	"time"
)

func TestProgress(t *testing.T) {
	p := Progress{Bytes: 25_000_000, Total: 100_000_000, Events: 3_000_000, Elapsed: 1500 * time.Millisecond}
	if f := p.Fraction(); f != 0.25 {
		t.Errorf("Fraction = %g", f)
	}
	if r := p.EventsPerSecond(); r != 2e6 {
		t.Errorf("EventsPerSecond = %g", r)
	}
	if s, want := p.String(), "23.8 MiB of 95.4 MiB · 3 M events · 2 M events/s"; s != want {
		t.Errorf("String = %q, want %q", s, want)
	}
	if (Progress{}).Fraction() != 0 || (Progress{}).EventsPerSecond() != 0 {
		t.Error("empty progress is not zero")
	}
}
