package app

import "testing"

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
	v.bookmarks.Remove(0) // leave the preferences as they were
}
