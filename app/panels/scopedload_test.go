package panels

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"github.com/hecscope/hecscope/app/kit"
)

// TestScopedLoadDropsStaleResultsAndShowsErrors starts two loads whose
// results arrive in the opposite order: only the newer one is shown. A
// load that fails says so in the status line, a load of an absent
// selection asks for one, and a selection's load is computed over it.
func TestScopedLoadDropsStaleResultsAndShowsErrors(t *testing.T) {
	a := test.NewApp()
	defer a.Quit()
	fl := &fakeLink{}
	l := newScopedLoad[int](fl.link(), "Counting", "Cannot count")
	l.selected = rangeText
	type call struct {
		from, to uint64
		result   chan int
	}
	calls := make(chan *call, 4)
	l.collect = func(from, to uint64) (int, error) {
		c := &call{from: from, to: to, result: make(chan int)}
		calls <- c
		r := <-c.result
		if r < 0 {
			return 0, errors.New("boom")
		}
		return r, nil
	}
	var mu sync.Mutex
	var shown []int
	var whats []string
	done := make(chan struct{}, 4)
	l.show = func(r int, what string) {
		mu.Lock()
		shown, whats = append(shown, r), append(whats, what)
		mu.Unlock()
		done <- struct{}{}
	}
	next := func() *call {
		t.Helper()
		select {
		case c := <-calls:
			return c
		case <-time.After(10 * time.Second):
			t.Fatal("no load started")
			return nil
		}
	}
	status := func() string {
		kit.UiMu.Lock()
		defer kit.UiMu.Unlock()
		return l.Status.Text
	}

	ui(l.EnsureLoaded)
	first := next()
	if !strings.HasPrefix(status(), "Counting the whole run") {
		t.Errorf("status while loading: %q", status())
	}
	ui(l.Load)
	second := next()
	second.result <- 2
	waitFor(t, done, "the second load's result")
	first.result <- 1  // stale: dropped
	ui(l.EnsureLoaded) // loaded already: no new load
	select {
	case <-done:
		t.Fatal("the stale first load's result was shown")
	case c := <-calls:
		t.Fatalf("ensureLoaded loaded again over [%d, %d]", c.from, c.to)
	case <-time.After(100 * time.Millisecond):
	}
	mu.Lock()
	if len(shown) != 1 || shown[0] != 2 || whats[0] != "the whole run" {
		t.Errorf("shown %v over %q, want [2] over the whole run", shown, whats)
	}
	mu.Unlock()

	// An error is shown in the status line.
	ui(l.Load)
	next().result <- -1
	deadline := time.Now().Add(10 * time.Second)
	for status() != "Cannot count: boom" && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if got := status(); got != "Cannot count: boom" {
		t.Errorf("status after a failed load: %q", got)
	}

	// No selection: nothing is computed, the status line asks for one.
	ui(func() { l.Scope.SetSelected(scopeSelection) })
	if !strings.HasPrefix(status(), "No selection") {
		t.Errorf("status without a selection: %q", status())
	}
	// A selection appears: the tab follows it and computes over it.
	ui(func() {
		fl.from, fl.to = 1000, 5000
		l.SelectionChanged(true)
	})
	c := next()
	if c.from != 1000 || c.to != 5000 {
		t.Errorf("selection's load over [%d, %d], want [1000, 5000]", c.from, c.to)
	}
	c.result <- 3
	waitFor(t, done, "the selection's result")
	mu.Lock()
	if shown[len(shown)-1] != 3 || whats[len(whats)-1] != rangeText(1000, 5000) {
		t.Errorf("selection's result %v over %q", shown, whats)
	}
	mu.Unlock()
}
