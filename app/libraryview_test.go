package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hecscope/hecscope/app/library"
)

const (
	parworkN1 = "../testdata/ghc-9.0.2/parwork-N1.eventlog"
	parworkN2 = "../testdata/ghc-9.0.2/parwork-N2.eventlog"
)

// saveAndWait saves path to the library from window w and waits for it.
func saveAndWait(t *testing.T, w *Window, path string, opt library.SaveOptions) library.Entry {
	t.Helper()
	type result struct {
		e   library.Entry
		err error
	}
	ch := make(chan result, 1)
	w.saveToLibraryAs(path, opt, func(e library.Entry, err error) { ch <- result{e, err} })
	select {
	case r := <-ch:
		if r.err != nil {
			t.Fatal(r.err)
		}
		return r.e
	case <-time.After(20 * time.Second):
		t.Fatal("save did not finish")
	}
	return library.Entry{}
}

func TestLibraryWindow(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir()) // the test app's storage root
	a, done := newTestApp(t)
	start := a.ShowStart()
	if menuItem(start, "Save to Library…") != nil {
		t.Error("the start page offers Save to Library")
	}
	if menuItem(start, "Saved Profiles…") == nil || menuItem(start, "Compare Two Eventlogs (A, then B)…") == nil {
		t.Error("no library or compare items in the File menu")
	}
	w := a.Open(parworkN2)
	await(t, done)
	if menuItem(w, "Compare This Run With…") == nil || menuItem(start, "Compare This Run With…") != nil {
		t.Error("Compare This Run With is offered only for an open eventlog")
	}
	if menuItem(w, "Save to Library…") == nil {
		t.Fatal("an open eventlog cannot be saved to the library")
	}
	lv, err := a.ShowLibrary()
	if err != nil {
		t.Fatal(err)
	}
	root, _ := a.libraryRoot()
	if want := filepath.Join(os.Getenv("XDG_DATA_HOME"), "hecscope", "library"); root != want {
		t.Errorf("library at %s, want %s", root, want)
	}
	if len(lv.entries) != 0 {
		t.Fatalf("new library lists %d entries", len(lv.entries))
	}
	e2 := saveAndWait(t, w, w.Path(), library.SaveOptions{Name: "two HECs", Tags: []string{"par", "after"}})
	e1 := saveAndWait(t, w, parworkN1, library.SaveOptions{Name: "one HEC", Tags: []string{"before"}})
	// The open library window was refreshed by the saves.
	if len(lv.entries) != 2 || lv.entries[0].ID != e1.ID || lv.entries[1].ID != e2.ID {
		t.Fatalf("library window lists %v", lv.entries)
	}
	if len(lv.pickA.Options) != 2 {
		t.Errorf("compare pickers offer %v", lv.pickA.Options)
	}
	if got := entrySubtitle(&lv.entries[1]); !strings.Contains(got, "2 HEC") || !strings.Contains(got, "parwork") {
		t.Errorf("subtitle %q", got)
	}

	// Search narrows the list.
	lv.search.SetText("tag:par")
	if len(lv.entries) != 1 || lv.entries[0].ID != e2.ID {
		t.Errorf("search tag:par lists %v", lv.entries)
	}
	if !strings.Contains(lv.status.Text, "1 of 2") {
		t.Errorf("status %q", lv.status.Text)
	}

	// Edit the selected entry.
	lv.list.Select(0)
	if lv.selected != e2.ID || lv.name.Text != "two HECs" || lv.tags.Text != "after, par" {
		t.Fatalf("detail shows %q %q for %s", lv.name.Text, lv.tags.Text, lv.selected)
	}
	if !strings.Contains(lv.info.Text, "Wall time") || !strings.Contains(lv.info.Text, "2 HECs") {
		t.Errorf("info %q", lv.info.Text)
	}
	lv.name.SetText("parallel")
	lv.tags.SetText("par, N2 ,")
	lv.note.SetText("with -N2")
	lv.saveEdits()
	got, err := lv.sl.lib.Get(e2.ID)
	if err != nil || got.Name != "parallel" || strings.Join(got.Tags, ",") != "N2,par" || got.Note != "with -N2" {
		t.Errorf("after edits: %+v %v", got, err)
	}

	// Delete through the library: the window follows.
	lv.search.SetText("")
	if err := lv.sl.lib.Delete(e1.ID); err != nil {
		t.Fatal(err)
	}
	lv.sl.changed()
	if len(lv.entries) != 1 || lv.entries[0].Name != "parallel" {
		t.Errorf("after delete: %v", lv.entries)
	}
	lv.Fyne().Close()
}
