package app

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"github.com/hecscope/hecscope/app/kit"
)

// pressKey presses key in canvas c as the desktop driver does: the focused
// widget gets it, else the canvas's own handler.
func pressKey(c fyne.Canvas, key fyne.KeyName) {
	ev := &fyne.KeyEvent{Name: key}
	if f := c.Focused(); f != nil {
		f.TypedKey(ev)
		return
	}
	if h := c.OnTypedKey(); h != nil {
		h(ev)
	}
}

// typeRunes types chars in canvas c as the desktop driver does: the focused
// widget gets them, else the canvas's own handler (Fyne's
// test.TypeOnCanvas always gives them to the canvas's handler).
func typeRunes(c fyne.Canvas, chars string) {
	for _, r := range chars {
		if f := c.Focused(); f != nil {
			f.TypedRune(r)
		} else if h := c.OnTypedRune(); h != nil {
			h(r)
		}
	}
}

// TestKeysReachTheViewWhateverHasFocus types the view's keys with nothing
// focused, with the event list or the search's kind drop-down focused, and checks that they zoom, pan and fit; and that in a
// text field the letters are text, until Esc gives the keyboard back.
func TestKeysReachTheViewWhateverHasFocus(t *testing.T) {
	w, v, _ := openNav(t, parworkN2)
	c := w.Fyne().Canvas()
	span := func() uint64 { from, to := v.canvas.View(); return to - from }
	whole := span()
	// The Events tab's list, its search's kind chooser and text field, as
	// the window shows them.
	var (
		list   *kit.KeyList
		choose *kit.KeySelect
		entry  *kit.KeyEntry
	)
	for _, tab := range v.tabs.Items {
		if tab.Text != "Events" {
			continue
		}
		v.tabs.Select(tab)
		for _, o := range test.LaidOutObjects(tab.Content) {
			switch x := o.(type) {
			case *kit.KeyList:
				list = x
			case *kit.KeySelect:
				choose = x
			case *kit.KeyEntry:
				if x.PlaceHolder == "Find in events (Enter: next)" {
					entry = x
				}
			}
		}
	}
	if list == nil || choose == nil || entry == nil {
		t.Fatalf("the Events tab shows list %v, kind chooser %v, search field %v", list != nil, choose != nil, entry != nil)
	}
	for _, focus := range []struct {
		name string
		o    fyne.Focusable
	}{{"nothing", nil}, {"the timeline", v.canvas}, {"the event list", list}, {"the search's kind", choose}} {
		c.Unfocus()
		if focus.o != nil {
			c.Focus(focus.o)
			if c.Focused() != focus.o {
				t.Fatalf("could not focus %s", focus.name)
			}
		}
		typeRunes(c, "w")
		if got := span(); got >= whole {
			t.Errorf("with %s focused, W did not zoom in (span %d of %d)", focus.name, got, whole)
		}
		from, _ := v.canvas.View()
		typeRunes(c, "d")
		pressKey(c, fyne.KeyRight)
		if after, _ := v.canvas.View(); after <= from {
			t.Errorf("with %s focused, D and → did not pan right (from %d to %d)", focus.name, from, after)
		}
		typeRunes(c, "0")
		if got := span(); got != whole {
			t.Errorf("with %s focused, 0 did not fit the run (span %d of %d)", focus.name, got, whole)
		}
	}

	c.Focus(entry)
	if c.Focused() != entry {
		t.Fatal("could not focus the search field")
	}
	typeRunes(c, "ws")
	if entry.Text != "ws" || span() != whole {
		t.Errorf("typing in the search field: text %q, span %d of %d", entry.Text, span(), whole)
	}
	pressKey(c, fyne.KeyEscape)
	if c.Focused() != nil {
		t.Fatalf("Esc left %T focused", c.Focused())
	}
	typeRunes(c, "+")
	if span() >= whole {
		t.Error("after Esc in the search field, + did not zoom in")
	}
}

// TestShortcutHelpListsEveryKey checks that Help > Keyboard Shortcuts names
// every binding.
func TestShortcutHelpListsEveryKey(t *testing.T) {
	help := shortcutHelp()
	for _, b := range kit.KeyBindings {
		found := false
		for _, h := range help {
			if h[1] == b.Help {
				found = true
			}
		}
		if !found {
			t.Errorf("the help does not list %q", b.Help)
		}
	}
}

// TestShortcutsDialogReadsWithoutScrolling: in windows of 1280×800 and
// 1920×1080 the Keyboard Shortcuts dialog shows every row at once (its
// list needs no scrolling either way), every line of text inside its
// width, and every control and key named.
func TestShortcutsDialogReadsWithoutScrolling(t *testing.T) {
	for _, size := range []fyne.Size{{Width: 1280, Height: 800}, {Width: 1920, Height: 1080}} {
		a, _ := newTestApp(t)
		w := a.ShowStart()
		w.Fyne().Resize(size)
		ui(func() { showShortcuts(w.win) })
		scroll := dialogWidget(t, w, func(*container.Scroll) bool { return true })
		if scroll.Direction != container.ScrollVerticalOnly {
			t.Errorf("%v: the list scrolls %v, want up and down only", size, scroll.Direction)
		}
		content, view := scroll.Content.MinSize(), scroll.Size()
		if content.Width > view.Width+1 || content.Height > view.Height+1 || view.Width < 600 {
			t.Errorf("%v: the rows need %v, the dialog shows %v", size, content, view)
		}
		shown := map[string]bool{}
		for _, o := range test.LaidOutObjects(scroll.Content) {
			if tx, ok := o.(*canvas.Text); ok {
				shown[tx.Text] = true
				if end := tx.Position().X + tx.Size().Width; end > view.Width+1 {
					t.Errorf("%v: %q ends at %g, past the dialog's %g", size, tx.Text, end, view.Width)
				}
			}
		}
		for _, h := range shortcutHelp() {
			if !shown[h[0]] {
				t.Errorf("%v: %q is not shown", size, h[0])
			}
		}
		w.Fyne().Close()
	}
}
