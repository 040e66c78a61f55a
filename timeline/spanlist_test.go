package timeline

import (
	"math/rand"
	"testing"
)

// TestSpanListKeepsEverySpan: spans kept in 10 bytes come back as they
// were, across chunks, with ends out of order or far apart and spans too
// long for 4-byte lengths (kept whole), and with more distinct labels,
// ids, capabilities and threads than a chunk holds spans; a view taken
// before more spans come stays as it was.
func TestSpanListKeepsEverySpan(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	var l spanList
	var want []UserSpan
	var early spanView
	end := uint64(5e9)
	for i := 0; i < 5*chunkSize+33; i++ {
		end += uint64(rng.Intn(3000))
		sp := UserSpan{End: end, Label: int32(rng.Intn(7)), Cap: int32(rng.Intn(3)) - 1, Thread: uint32(rng.Intn(4))}
		sp.Start = end - uint64(rng.Intn(5000))
		switch c := i / chunkSize; {
		case c == 1 && rng.Intn(300) == 0:
			sp.Start = 0 // longer than 4.29 s
		case c == 2 && i%chunkSize == 10:
			sp.End = want[2*chunkSize].End - 1 // before the chunk's first
			sp.Start = sp.End - 10
		case c == 3:
			sp.ID = uint32(i) // as many contexts as spans
		case c == 4 && i%chunkSize == 100:
			end += 5e9 // past a 4-byte offset
		}
		l.add(spanRecord{start: sp.Start, end: sp.End, label: sp.Label, id: sp.ID, cap: sp.Cap, thread: sp.Thread})
		want = append(want, sp)
		if i == 2*chunkSize+50 {
			early = l.view()
		}
	}
	v := l.view()
	if v.Len() != len(want) {
		t.Fatalf("%d spans kept, want %d", v.Len(), len(want))
	}
	wide := 0
	for i, w := range want {
		if got := v.At(i); got != w {
			t.Fatalf("span %d is %+v, want %+v", i, got, w)
		}
	}
	for _, c := range append(v.full, v.cur) {
		if c.wide != nil {
			wide++
		}
	}
	if wide != 3 {
		t.Errorf("%d chunks kept whole records, want the 3 whose spans do not fit", wide)
	}
	if early.Len() != 2*chunkSize+51 {
		t.Fatalf("an early view grew to %d spans", early.Len())
	}
	for i := 0; i < early.Len(); i++ {
		if got := early.At(i); got != want[i] {
			t.Fatalf("an early view's span %d is %+v, want %+v", i, got, want[i])
		}
	}
}
