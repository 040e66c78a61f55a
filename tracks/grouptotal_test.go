package tracks

import (
	"bytes"
	"testing"

	"github.com/hecscope/hecscope/timeline"
)

// TestGroupTotal: a group's title counts the total it is given when that
// is more than the tracks the source holds, and only then.
func TestGroupTotal(t *testing.T) {
	m := synthModel(2, 20, 5_000)
	draw := func(total int) []byte {
		v := New(timeline.Exact(m))
		v.SetSize(900, 600, 1)
		v.SetGroupTotal(GroupThreads, total)
		return v.Render().Pix
	}
	plain := draw(0)
	if !bytes.Equal(draw(5), plain) {
		t.Error("a total below the tracks held changed the picture")
	}
	if bytes.Equal(draw(20_000), plain) {
		t.Error("a total above the tracks held left the title as it was")
	}
}
