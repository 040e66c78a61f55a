package app

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/eventlog"
)

// TestNoticeSaysImpossibleTimestamps: a log with an event whose time lies
// outside its block's range (a flipped byte) says so in the window's
// notice, as `hecscope summary` does; the window said nothing.
func TestNoticeSaysImpossibleTimestamps(t *testing.T) {
	path := flippedTimeLog(t)
	ev, err := loaded.LoadEventlog(context.Background(), path, eventlog.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Log.Close()
	notice := ingestStatusNotice(ev)
	if !strings.Contains(notice, "1 event has an impossible timestamp (first: byte ") || !strings.Contains(notice, "shown at the latest time their block allows") {
		t.Errorf("notice %q", notice)
	}
	healthy, err := loaded.LoadEventlog(context.Background(), parworkN2, eventlog.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer healthy.Log.Close()
	if n := ingestStatusNotice(healthy); n != "" {
		t.Errorf("a healthy log's notice: %q", n)
	}
}

// TestSnapshotNoticeLeavesTheAxisAlone: in a --snapshot, a notice that
// wraps onto a second line pushes the canvas down instead of lying over
// its time axis (the real window lays out again on its next frame; the
// snapshot drew after one layout).
func TestSnapshotNoticeLeavesTheAxisAlone(t *testing.T) {
	path := flippedTimeLog(t)
	fa := test.NewApp()
	defer fa.Quit()
	w, err := snapshotWindow(fa, path, SnapshotOptions{Size: fyne.NewSize(1280, 800)})
	if err != nil {
		t.Fatal(err)
	}
	v := w.view.(*eventlogView)
	_, label, _ := findNotice(t, w.win.Content(), "This eventlog is damaged")
	d := fa.Driver()
	// A label drawn in less height than its text needs at its width spills
	// over what lies below it.
	bottom := d.AbsolutePositionForObject(label).Y + max(label.Size().Height, label.MinSize().Height)
	if top := d.AbsolutePositionForObject(v.canvas).Y; bottom > top {
		t.Errorf("the notice ends at y %.0f, below the canvas's top at %.0f", bottom, top)
	}
}

// TestNoticeCanBeDismissed: the damage notice has a close button, which
// hides it and gives its room to the timeline; the notice could not be
// closed, and stayed over every log it was shown for.
func TestNoticeCanBeDismissed(t *testing.T) {
	path := flippedTimeLog(t)
	fa := test.NewApp()
	defer fa.Quit()
	w, err := snapshotWindow(fa, path, SnapshotOptions{Size: fyne.NewSize(1280, 800)})
	if err != nil {
		t.Fatal(err)
	}
	v := w.view.(*eventlogView)
	notice, label, closeButton := findNotice(t, w.win.Content(), "This eventlog is damaged")
	d := fa.Driver()
	top := d.AbsolutePositionForObject(v.canvas).Y
	noticeTop := d.AbsolutePositionForObject(label).Y
	test.Tap(closeButton)
	if notice.Visible() {
		t.Fatal("the notice is still shown after its close button was tapped")
	}
	if now := d.AbsolutePositionForObject(v.canvas).Y; now > noticeTop || now >= top {
		t.Errorf("the canvas's top is at y %.0f after the notice was closed (%.0f before, the notice began at %.0f)", now, top, noticeTop)
	}
}

// findNotice returns the notice in root whose text begins with prefix: the
// notice, its label and its close button.
func findNotice(t *testing.T, root fyne.CanvasObject, prefix string) (*fyne.Container, *widget.Label, *widget.Button) {
	t.Helper()
	var label *widget.Label
	var outer []fyne.CanvasObject // label's ancestors, innermost last
	var walk func(o fyne.CanvasObject, up []fyne.CanvasObject)
	walk = func(o fyne.CanvasObject, up []fyne.CanvasObject) {
		up = append(up, o)
		switch x := o.(type) {
		case *widget.Label:
			if label == nil && strings.HasPrefix(x.Text, prefix) {
				label, outer = x, slices.Clone(up[:len(up)-1])
			}
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c, up)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(x).Objects() {
				walk(c, up)
			}
		}
	}
	walk(root, nil)
	if label == nil {
		t.Fatalf("no notice beginning %q in the window", prefix)
	}
	// The innermost ancestor holding a close button is the notice's row;
	// the one around it, the notice.
	for i := len(outer) - 1; i > 0; i-- {
		var button *widget.Button
		var find func(o fyne.CanvasObject)
		find = func(o fyne.CanvasObject) {
			switch x := o.(type) {
			case *widget.Button:
				if x.Icon == theme.CancelIcon() {
					button = x
				}
			case *fyne.Container:
				for _, c := range x.Objects {
					find(c)
				}
			}
		}
		find(outer[i])
		if button != nil {
			n, ok := outer[i-1].(*fyne.Container)
			if !ok {
				t.Fatalf("the notice is a %T", outer[i-1])
			}
			return n, label, button
		}
	}
	t.Fatal("the notice has no close button")
	return nil, nil, nil
}

// flippedTimeLog writes parwork-N2 with the top byte of one event's time
// set, far outside its block's range, and returns the file's path.
func flippedTimeLog(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(parworkN2)
	if err != nil {
		t.Fatal(err)
	}
	// The first event after the first block marker (type 2, time 8, size
	// 4, end 8, capability 2): its time's top byte.
	at := bytes.Index(data, []byte("datb")) + 4 + 24
	data[at+2] = 0x7f
	path := filepath.Join(t.TempDir(), "flipped.eventlog")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
