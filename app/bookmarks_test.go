package app

import (
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// bookmarkButtons returns the buttons labelled text that v's Bookmarks
// tab shows, top to bottom.
func bookmarkButtons(t *testing.T, v *eventlogView, text string) []*widget.Button {
	t.Helper()
	var out []*widget.Button
	for _, o := range test.LaidOutObjects(tabContent(t, v, "Bookmarks")) {
		if b, ok := o.(*widget.Button); ok && b.Visible() && b.Text == text {
			out = append(out, b)
		}
	}
	return out
}

// removeUserBookmarks removes the user's bookmarks with their rows'
// Remove buttons, leaving the preferences as they were.
func removeUserBookmarks(t *testing.T, v *eventlogView) {
	t.Helper()
	for range 100 {
		del := bookmarkButtons(t, v, "Remove")
		if len(del) == 0 {
			return
		}
		test.Tap(del[0])
	}
	t.Error("the user's bookmarks were not all removed")
}

// TestBKeyBookmarks checks the B key on the timeline bookmarks the view's
// centre.
func TestBKeyBookmarks(t *testing.T) {
	v := openEvents(t, parworkN2)
	before := len(v.bookmarks.Marks)
	v.canvas.ShowRange(2000000, 4000000)
	v.canvas.TypedRune('b')
	if len(v.bookmarks.Marks) != before+1 {
		t.Fatalf("%d bookmarks after B, want %d", len(v.bookmarks.Marks), before+1)
	}
	found := false
	for _, m := range v.bookmarks.Marks {
		found = found || (!m.Marker && m.Time == 3000000)
	}
	if !found {
		t.Errorf("no user bookmark at the view's centre (3 ms): %+v", v.bookmarks.Marks)
	}
	removeUserBookmarks(t, v)
	if len(v.bookmarks.Marks) != before {
		t.Errorf("%d bookmarks after removing the user's, want the %d markers", len(v.bookmarks.Marks), before)
	}
}
