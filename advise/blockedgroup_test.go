package advise

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBlockedGroupKeepsTheLongest: a group's threads blocked longest, as
// keepTop leaves them, are the first MaxThreads of a stable sort of every
// thread added (longest first, in index order among equals), with many
// equal times and few, for groups of up to fifty times MaxThreads; and its
// sums are those of all of them.
func TestBlockedGroupKeepsTheLongest(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 5, 99, 100, 101, 399, 400, 401, 1000, 5000} {
		for _, spread := range []int{3, 50, 1 << 30} {
			var g blockedGroup
			var all []blockedThread
			var on, life uint64
			w := waitSTM
			for i := range n {
				var b blockedThread
				b.index = i
				b.on[w] = uint64(rng.IntN(spread))
				b.life = uint64(rng.IntN(1000))
				b.first, b.last = uint64(rng.IntN(1e6)), uint64(1e6+rng.IntN(1e6))
				all = append(all, b)
				on, life = on+b.on[w], life+b.life
				g.add(&b, w)
			}
			slices.SortStableFunc(all, func(a, b blockedThread) int { return cmp.Compare(b.on[w], a.on[w]) })
			want := all[:min(len(all), MaxThreads)]
			for range 2 { // keepTop again changes nothing
				g.keepTop(w)
				if !slices.Equal(g.top, want) {
					t.Fatalf("%d threads, times below %d: the threads kept differ from a stable sort's first %d", n, spread, MaxThreads)
				}
			}
			if g.n != n || g.on != on || g.life != life {
				t.Errorf("%d threads: the group counts %d, blocked %d, lived %d; want %d, %d, %d", n, g.n, g.on, g.life, n, on, life)
			}
		}
	}
}
