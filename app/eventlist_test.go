package app

import (
	"testing"
)

// openEvents opens path in a test app and returns its view with an event
// list.
func openEvents(t *testing.T, path string) *eventlogView {
	t.Helper()
	_, v, _ := openNav(t, path)
	if v.events == nil {
		t.Fatalf("%s: no event list", path)
	}
	return v
}
