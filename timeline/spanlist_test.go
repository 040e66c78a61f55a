package timeline

import (
	"math/rand"
	"slices"
	"testing"
)

// TestSpanListKeepsEverySpan: spans kept in about 5 bytes come back as
// they were, across chunks, with ends too far from their block's first and
// spans too long for 2-byte lengths (100 µs, 5 s), ends out of order or
// 4.29 s apart (kept whole), and with more
// distinct labels, ids, capabilities and threads than a byte can index; a
// view taken before more spans come stays as it was.
func TestSpanListKeepsEverySpan(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	var l spanList
	var want []UserSpan
	var early, earlier spanView
	end := uint64(5e9)
	for i := 0; i < 5*chunkSize+33; i++ {
		end += uint64(rng.Intn(3000))
		if i == 1005 {
			end += 200000 // 200 µs on: the block's last three end beyond 2 bytes
		}
		sp := UserSpan{End: end, Label: int32(rng.Intn(7)), Cap: int32(rng.Intn(3)) - 1, Thread: uint32(rng.Intn(4))}
		sp.Start = end - uint64(rng.Intn(5000))
		switch c := i / chunkSize; {
		case c == 0 && i == 3000:
			sp.Start = end - 100000 // longer than 2 bytes of ns
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
		if i == 2000 {
			earlier = l.view() // before its chunk's first long span
		}
	}
	v := l.view()
	if v.Len() != len(want) {
		t.Fatalf("%d spans kept, want %d", v.Len(), len(want))
	}
	wide := 0
	for i, w := range want {
		if got := v.At(i); got != w || v.End(i) != w.End {
			t.Fatalf("span %d is %+v, ending at %d, want %+v", i, got, v.End(i), w)
		}
	}
	// Taken a chunk at a time, from a chunk's start or from within it
	// (before, among and after its exceptions), they are the same.
	for _, from := range []int{0, 1004, 1006, 1007, 1010, 3000, 3001, chunkSize, chunkSize + 77, 2*chunkSize + 10, 2*chunkSize + 11, 4*chunkSize + 100, len(want) - 1} {
		var got []UserSpan
		for i := from; i < len(want); i += len(got) {
			got = StoppedSpans{v}.From(i, got)
			if len(got) == 0 || !slices.Equal(got, want[i:i+len(got)]) || (i+len(got))%chunkSize != 0 && i+len(got) != len(want) {
				t.Fatalf("from %d, the %d spans from %d are not those kept there, or do not end a chunk", from, len(got), i)
			}
		}
	}
	var long, contexts16 []int
	for k, c := range append(v.full, v.cur) {
		switch {
		case c.wide != nil:
			wide++
		case c.contexts != nil:
			contexts16 = append(contexts16, k)
		}
		if len(c.long) > 0 {
			long = append(long, k)
		}
	}
	if n := len(v.full[0].far); n != 3 {
		t.Errorf("the first chunk has %d ends beyond 2 bytes, want 3", n)
	}
	if wide != 2 {
		t.Errorf("%d chunks kept whole records, want the 2 whose ends do not fit", wide)
	}
	if !slices.Equal(long, []int{0, 1}) || !slices.Equal(contexts16, []int{3}) {
		t.Errorf("chunks %v have long spans, %v 2-byte contexts; want [0 1] (spans of 100 µs and 5 s) and [3] (a context a span)", long, contexts16)
	}
	for _, e := range []struct {
		v spanView
		n int
	}{{early, 2*chunkSize + 51}, {earlier, 2001}} {
		if e.v.Len() != e.n {
			t.Fatalf("an early view of %d spans grew to %d", e.n, e.v.Len())
		}
		for i := 0; i < e.n; i++ {
			if got := e.v.At(i); got != want[i] {
				t.Fatalf("an early view's span %d is %+v, want %+v", i, got, want[i])
			}
		}
	}
}
