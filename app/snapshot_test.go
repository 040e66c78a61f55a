package app

import (
	"image"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/tracks"
)

// countRunning counts the pixels of img in the running-thread green.
func countRunning(img image.Image) int {
	wr, wg, wb, _ := paint.InkRunning.Color().RGBA()
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r>>8 == wr>>8 && g>>8 == wg>>8 && bl>>8 == wb>>8 {
				n++
			}
		}
	}
	return n
}

// luma returns the brightness of img at (x, y), 0 to 255.
func luma(img image.Image, x, y int) uint32 {
	r, g, b, _ := img.At(x, y).RGBA()
	return (299*r + 587*g + 114*b) / 1000 >> 8
}

// TestSnapshot draws the window headlessly in both themes and at two
// scales, and checks the picture's size, its background and that it shows
// the timeline; and that a time range and every row group can be asked for.
func TestSnapshot(t *testing.T) {
	light, _, err := Snapshot(parworkN2, SnapshotOptions{Size: fyne.NewSize(800, 600)})
	if err != nil {
		t.Fatal(err)
	}
	if b := light.Bounds(); b.Dx() != 800 || b.Dy() != 600 {
		t.Errorf("a snapshot at 800×600 is %v", b)
	}
	if l := luma(light, 2, 598); l < 200 {
		t.Errorf("the light theme's background has luma %d", l)
	}
	if n := countRunning(light); n < 2000 {
		t.Errorf("the light snapshot has %d running-green pixels, no timeline", n)
	}

	dark, _, err := Snapshot(parworkN2, SnapshotOptions{Size: fyne.NewSize(800, 600), Scale: 2, Dark: true,
		AllTracks: true, From: 80_000_000, To: 95_000_000})
	if err != nil {
		t.Fatal(err)
	}
	if b := dark.Bounds(); b.Dx() != 1600 || b.Dy() != 1200 {
		t.Errorf("a snapshot at 800×600, scale 2, is %v", b)
	}
	if l := luma(dark, 4, 1196); l > 60 {
		t.Errorf("the dark theme's background has luma %d", l)
	}
	if n := countRunning(dark); n < 500 {
		t.Errorf("the dark snapshot has %d running-green pixels, no timeline", n)
	}

	if _, _, err := Snapshot("../testdata/no-such-file.eventlog", SnapshotOptions{}); err == nil {
		t.Error("a snapshot of a file that does not exist did not fail")
	}
}

// TestSnapshotAllTracksShowsEveryGroup lays out the window as
// `--snapshot --tracks all --size 1600x1000` does and checks that the
// canvas shows the title of every group the run has, each expanded.
func TestSnapshotAllTracksShowsEveryGroup(t *testing.T) {
	fa := test.NewApp()
	defer fa.Quit()
	w, err := snapshotWindow(fa, parworkN2, SnapshotOptions{Size: fyne.NewSize(1600, 1000), AllTracks: true})
	if err != nil {
		t.Fatal(err)
	}
	v := w.view.(*eventlogView)
	seen := map[tracks.Group]bool{}
	var want []tracks.Group
	v.canvas.With(func(tv *tracks.View) {
		for _, id := range tv.Tracks() {
			if g := groupOf(id); !slices.Contains(want, g) {
				want = append(want, g)
			}
		}
		tr, hr := tv.TracksRect(), tv.HeaderRect()
		for y := tr.Min.Y; y < tr.Max.Y; y++ {
			if h := tv.Hit(float64(hr.Min.X+10), float64(y)); h.Part == tracks.PartToggle && !tv.Collapsed(h.Group) {
				seen[h.Group] = true
			}
		}
	})
	if len(want) < 6 {
		t.Fatalf("parwork-N2 has tracks in %d groups, want at least 6", len(want))
	}
	for _, g := range want {
		if !seen[g] {
			t.Errorf("the %s group is not shown in a 1600×1000 window with every track", g)
		}
	}
	w.win.Close()
}

// groupOf returns the group a track belongs to.
func groupOf(id tracks.TrackID) tracks.Group {
	switch id.Kind {
	case tracks.KindActivity, tracks.KindHECActivity:
		return tracks.GroupActivity
	case tracks.KindHEC:
		return tracks.GroupHECs
	case tracks.KindThread:
		return tracks.GroupThreads
	case tracks.KindSparks:
		return tracks.GroupSparks
	case tracks.KindMarkers, tracks.KindUserLabel, tracks.KindUserThread:
		return tracks.GroupUser
	case tracks.KindHeap, tracks.KindAlloc, tracks.KindBands:
		return tracks.GroupHeap
	}
	return tracks.GroupGC
}
