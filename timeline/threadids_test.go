package timeline

import (
	"math/rand/v2"
	"testing"
)

// TestDenseIDsEqualMap: the paged table of thread ids gives every id the
// index a map gives it, and none to an id never set, whether the ids
// come in order, nearly in order (a page's bytes) or scattered (a page
// widened to an int32 an id).
func TestDenseIDsEqualMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, spread := range []int{0, 3, 100, 1 << 14} {
		var d denseIDs
		want := map[uint32]int32{}
		for i := range int32(20000) {
			id := uint32(int(i) + rng.IntN(spread+1))
			if _, ok := want[id]; ok {
				continue
			}
			d.grow(int(id) + 1)
			d.set(id, i)
			want[id] = i
		}
		widened := 0
		for _, p := range d.pages {
			if p != nil && p.wide != nil {
				widened++
			}
		}
		for id := range uint32(len(d.pages)*idPageSize + 10) {
			got, ok := d.get(id)
			w, wok := want[id]
			if ok != wok || got != w {
				t.Fatalf("spread %d: id %d gives %d %v, want %d %v", spread, id, got, ok, w, wok)
			}
		}
		if (spread >= 1<<14) != (widened > 0) {
			t.Errorf("spread %d: %d pages widened", spread, widened)
		}
	}
}
