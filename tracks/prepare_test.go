package tracks

import (
	"bytes"
	"context"
	"testing"

	"github.com/hecscope/hecscope/eventlog"
)

// TestPreparedViewDrawsTheSame: a view given what Prepare derived from
// its overview draws exactly what a view deriving it itself draws, its
// threads' and user spans' groups open, by thread and by label, for exact
// and summarised models; and it uses what was prepared rather than
// deriving it again.
func TestPreparedViewDrawsTheSame(t *testing.T) {
	for _, name := range []string{"userheavy-N2", "gcstorm-N2", "advise-mvar", "parwork-N2"} {
		for _, exactBelow := range []int64{0, -1} {
			lg, err := eventlog.Open(context.Background(), "../testdata/ghc-9.0.2/"+name+".eventlog", eventlog.Options{ExactBelow: exactBelow})
			if err != nil {
				t.Fatal(err)
			}
			view := func(p *Prepared) *View {
				v := New(lg)
				v.SetSize(1600, 1400, 1)
				for g := Group(0); g < NumGroups; g++ {
					v.SetCollapsed(g, false)
				}
				v.UsePrepared(p)
				return v
			}
			p := Prepare(lg.Overview())
			sameRows(t, name, p.users, sortedRows(lg.Overview()))
			plain, prepared := view(nil), view(p)
			if prepared.userIndex() != p.users || prepared.present.ov != lg.Overview() {
				t.Errorf("%s (exact below %d): the view derived again what was prepared", name, exactBelow)
			}
			for _, byLabel := range []bool{false, true} {
				plain.SetSpansByLabel(byLabel)
				prepared.SetSpansByLabel(byLabel)
				if !bytes.Equal(plain.Render().Pix, prepared.Render().Pix) {
					t.Errorf("%s (exact below %d, by label %v): the prepared view draws another picture", name, exactBelow, byLabel)
				}
			}
			lg.Close()
		}
	}
}

// TestPreparedForAnotherModelIsIgnored: what was derived from another
// overview than the view's is not used.
func TestPreparedForAnotherModelIsIgnored(t *testing.T) {
	open := func(name string) *eventlog.Log {
		lg, err := eventlog.Open(context.Background(), "../testdata/ghc-9.0.2/"+name+".eventlog", eventlog.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { lg.Close() })
		return lg
	}
	other := Prepare(open("advise-mvar").Overview())
	v := New(open("userheavy-N2"))
	v.UsePrepared(other)
	v.UsePrepared(nil)
	if v.users != nil || v.present.ov != nil {
		t.Error("the view took what was prepared for another model")
	}
	if u := v.userIndex(); u == other.users || u.ov != v.overview() {
		t.Error("the view's spans are not its own model's")
	}
}
