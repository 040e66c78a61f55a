package timeline

import "testing"

func TestTimeList(t *testing.T) {
	var l timeList
	var want []uint64
	tm := uint64(5)
	for i := 0; i < 3*chunkSize+17; i++ {
		switch {
		case i == chunkSize+100:
			tm += 1 << 33 // forces a wide chunk
		case i%1000 == 999:
			tm += 1 << 20
		default:
			tm += uint64(i % 7)
		}
		l.add(tm)
		want = append(want, tm)
		if i == 2*chunkSize {
			v := l.view()
			l.add(tm + 1) // later additions do not show in an earlier view
			want = append(want, tm+1)
			if v.Len() != i+1 {
				t.Fatalf("view has %d, want %d", v.Len(), i+1)
			}
		}
	}
	v := l.view()
	if v.Len() != len(want) {
		t.Fatalf("len %d, want %d", v.Len(), len(want))
	}
	for i, w := range want {
		if v.At(i) != w {
			t.Fatalf("At(%d) = %d, want %d", i, v.At(i), w)
		}
	}
	for _, probe := range []uint64{0, 5, want[100], want[chunkSize+100], want[len(want)-1], want[len(want)-1] + 1} {
		n := 0
		for _, w := range want {
			if w < probe {
				n++
			}
		}
		if got := countBefore(v, 0, probe); got != n {
			t.Errorf("countBefore(%d) = %d, want %d", probe, got, n)
		}
		if got := gallop(v, 0, probe); got != n {
			t.Errorf("gallop(%d) = %d, want %d", probe, got, n)
		}
	}
}

// TestChunkViewSlice: a view's slice holds its elements, whether they lie
// in one chunk or straddle two.
func TestChunkViewSlice(t *testing.T) {
	var l chunkList[int]
	for i := range chunkSize + 10 {
		l.add(i)
	}
	v := l.view()
	for _, c := range []struct{ off, n int }{{0, 0}, {0, 5}, {3, 7}, {chunkSize - 2, 2}, {chunkSize - 3, 6}, {0, chunkSize + 10}} {
		s := v.sub(c.off, c.n).slice()
		if len(s) != c.n {
			t.Fatalf("sub(%d, %d): %d elements", c.off, c.n, len(s))
		}
		for i, x := range s {
			if x != c.off+i {
				t.Fatalf("sub(%d, %d)[%d] = %d", c.off, c.n, i, x)
			}
		}
	}
}

// TestChunkListAddSlice: elements appended a slice at a time, across the
// ends of chunks, are those appended one at a time.
func TestChunkListAddSlice(t *testing.T) {
	var one, many chunkList[int]
	next := 0
	for _, n := range []int{0, 3, 1, 7, chunkSize - 5, 9, 2 * chunkSize, 1} {
		s := make([]int, n)
		for i := range s {
			s[i] = next
			one.add(next)
			next++
		}
		many.addSlice(s)
	}
	if many.len() != one.len() || len(many.chunks) != len(one.chunks) {
		t.Fatalf("%d elements in %d chunks, want %d in %d", many.len(), len(many.chunks), one.len(), len(one.chunks))
	}
	for k, c := range many.chunks {
		if len(c) != len(one.chunks[k]) {
			t.Fatalf("chunk %d holds %d, want %d", k, len(c), len(one.chunks[k]))
		}
		for i, x := range c {
			if x != one.chunks[k][i] {
				t.Fatalf("chunk %d [%d] = %d, want %d", k, i, x, one.chunks[k][i])
			}
		}
	}
}
