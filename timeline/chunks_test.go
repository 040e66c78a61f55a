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
