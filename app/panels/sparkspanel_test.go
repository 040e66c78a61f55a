package panels

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/timeline"
)

// The Sparks table says what its columns count, so that a HEC that ran
// more sparks than it created (Converted 33,016 against a Total of 5,032:
// it stole them) reads as it should.
func TestSparksPanelSaysWhatItCounts(t *testing.T) {
	a := test.NewApp()
	defer a.Quit()
	s := &timeline.Summary{}
	s.Sparks.PerCap = []timeline.CapSparks{{Cap: 1, SparkCounts: timeline.SparkCounts{Total: 5032, Converted: 33016}}}
	var texts []string
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch o := o.(type) {
		case *widget.Label:
			texts = append(texts, o.Text)
		case *fyne.Container:
			for _, c := range o.Objects {
				walk(c)
			}
		}
	}
	walk(SparksPanel(s))
	all := strings.Join(texts, "|")
	for _, want := range []string{"Total created", "Converted (run)", "33,016", "5,032", "those it stole from other HECs, so it can exceed Total"} {
		if !strings.Contains(all, want) {
			t.Errorf("no %q in the Sparks panel: %q", want, texts)
		}
	}
}
