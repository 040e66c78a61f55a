package library

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hecscope/hecscope/timeline"
)

const (
	logN1 = "../../testdata/ghc-9.0.2/parwork-N1.eventlog"
	logN2 = "../../testdata/ghc-9.0.2/parwork-N2.eventlog"
)

func open(t *testing.T, root string) *Library {
	t.Helper()
	l, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// names returns the names of the entries, in order.
func names(t *testing.T, l *Library) []string {
	t.Helper()
	es, err := l.List()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name)
	}
	return out
}

// dirNames returns the names in the library's root, sorted.
func dirNames(t *testing.T, root string) []string {
	t.Helper()
	des, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, de := range des {
		out = append(out, de.Name())
	}
	return out
}

func TestSaveKeepsCopyAndMetadata(t *testing.T) {
	l := open(t, t.TempDir())
	e, err := l.Save(logN2, SaveOptions{Name: " N2 run ", Tags: []string{"par", " N2", "par", ""}, Note: "two HECs"})
	if err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(logN2)
	if err != nil {
		t.Fatal(err)
	}
	cp, err := os.ReadFile(l.EventlogPath(e.ID))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(orig, cp) {
		t.Fatal("the saved copy differs from the eventlog")
	}
	sum := sha256.Sum256(orig)
	if e.Size != int64(len(orig)) || e.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("size %d hash %s", e.Size, e.SHA256)
	}
	if e.Name != "N2 run" || strings.Join(e.Tags, ",") != "N2,par" || e.Note != "two HECs" {
		t.Errorf("user fields %q %q %q", e.Name, e.Tags, e.Note)
	}
	f, _ := os.Open(logN2)
	defer f.Close()
	s, err := timeline.Summarize(f)
	if err != nil {
		t.Fatal(err)
	}
	if e.Program != s.Program || e.RTS != s.RTS || strings.Join(e.Args, " ") != strings.Join(s.Args, " ") || e.Program == "" {
		t.Errorf("run %q %q %q", e.Program, e.Args, e.RTS)
	}
	if e.Figures != figuresOf(&s) || e.Figures.TotalNS != s.TotalNS || e.Figures.Capabilities != 2 || e.Figures.Status != "complete" {
		t.Errorf("figures %+v", e.Figures)
	}
	if abs, _ := filepath.Abs(logN2); e.Source != abs {
		t.Errorf("source %q", e.Source)
	}
	// What was saved reads back the same, also after reopening.
	got, err := open(t, l.Root()).Get(e.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != e.Name || got.SHA256 != e.SHA256 || got.Figures != e.Figures || !got.Saved.Equal(e.Saved) {
		t.Errorf("read back %+v, saved %+v", got, e)
	}
	// A name defaults to the file's.
	e2, err := l.Save(logN1, SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if e2.Name != "parwork-N1.eventlog" || e2.Tags == nil {
		t.Errorf("default name %q tags %v", e2.Name, e2.Tags)
	}
	if _, err := l.Save("/nonexistent.eventlog", SaveOptions{}); err == nil {
		t.Error("saved a missing file")
	}
	if len(dirNames(t, l.Root())) != 2 {
		t.Errorf("root holds %v", dirNames(t, l.Root()))
	}
}

func TestListSearchRenameTagDelete(t *testing.T) {
	root := t.TempDir()
	l := open(t, root)
	a, err := l.Save(logN1, SaveOptions{Name: "baseline", Tags: []string{"before"}, Note: "one HEC"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := l.Save(logN2, SaveOptions{Name: "parallel", Tags: []string{"after", "par"}, Note: "with -N2"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names(t, l), ","); got != "parallel,baseline" {
		t.Errorf("list %s, want newest first", got)
	}
	search := func(q string) string {
		es, err := l.Search(q)
		if err != nil {
			t.Fatal(err)
		}
		var n []string
		for _, e := range es {
			n = append(n, e.Name)
		}
		return strings.Join(n, ",")
	}
	for q, want := range map[string]string{
		"":               "parallel,baseline",
		"BASE":           "baseline",
		"tag:par":        "parallel",
		"tag:pa":         "",
		"-n2":            "parallel", // in the note and the RTS options
		"parwork":        "parallel,baseline",
		"parwork -N1":    "baseline",
		"ghc-9.0.2":      "parallel,baseline",
		"nothing-like":   "",
		"tag:before one": "baseline",
	} {
		if got := search(q); got != want {
			t.Errorf("search %q: %q, want %q", q, got, want)
		}
	}
	if _, err := l.Rename(a.ID, "  "); err == nil {
		t.Error("empty name accepted")
	}
	if _, err := l.Rename(a.ID, "before the change"); err != nil {
		t.Fatal(err)
	}
	if _, err := l.SetTags(b.ID, []string{"x", "a", "x"}); err != nil {
		t.Fatal(err)
	}
	if _, err := l.SetNote(b.ID, "new note"); err != nil {
		t.Fatal(err)
	}
	l2 := open(t, root)
	ga, _ := l2.Get(a.ID)
	gb, _ := l2.Get(b.ID)
	if ga.Name != "before the change" || strings.Join(gb.Tags, ",") != "a,x" || gb.Note != "new note" || gb.SHA256 != b.SHA256 {
		t.Errorf("after edits: %+v / %+v", ga, gb)
	}
	if err := l2.Delete(a.ID); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names(t, l2), ","); got != "parallel" {
		t.Errorf("after delete: %s", got)
	}
	if _, err := l2.Get(a.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleted entry: %v", err)
	}
	if err := l2.Delete(a.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleting twice: %v", err)
	}
	for _, id := range []string{"", "..", "../x", ".new-x", "a/b"} {
		if _, err := l2.Get(id); !errors.Is(err, ErrNotFound) {
			t.Errorf("Get(%q): %v", id, err)
		}
		if _, err := l2.Rename(id, "x"); !errors.Is(err, ErrNotFound) {
			t.Errorf("Rename(%q): %v", id, err)
		}
	}
}

// TestCrashDuringSave stops a save at each step as a crash would: the
// library still lists exactly the old entries, and reopening it removes
// the leftovers.
func TestCrashDuringSave(t *testing.T) {
	for _, step := range []string{"copied", "entry written", "entry synced", "rename"} {
		t.Run(step, func(t *testing.T) {
			root := t.TempDir()
			l := open(t, root)
			old, err := l.Save(logN1, SaveOptions{Name: "old"})
			if err != nil {
				t.Fatal(err)
			}
			reached := false
			l.crash = func(s string) bool {
				reached = reached || s == step
				return s == step
			}
			if _, err := l.Save(logN2, SaveOptions{Name: "new"}); !errors.Is(err, errCrashed) || !reached {
				t.Fatalf("save: %v (step reached: %v)", err, reached)
			}
			if got := strings.Join(names(t, l), ","); got != "old" {
				t.Errorf("after the crash the library lists %q", got)
			}
			if len(dirNames(t, root)) != 2 {
				t.Errorf("expected a leftover staging directory, root has %v", dirNames(t, root))
			}
			l2 := open(t, root)
			if got := dirNames(t, root); len(got) != 1 || got[0] != old.ID {
				t.Errorf("after reopening the root holds %v", got)
			}
			if e, err := l2.Get(old.ID); err != nil || e.SHA256 != old.SHA256 {
				t.Errorf("old entry: %v", err)
			}
			// The library works on.
			if _, err := l2.Save(logN2, SaveOptions{Name: "new"}); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(names(t, l2), ","); got != "new,old" {
				t.Errorf("after a new save: %q", got)
			}
		})
	}
}

// TestCrashDuringEdit stops a metadata change before its rename: the old
// metadata is intact, and reopening removes the temporary file.
func TestCrashDuringEdit(t *testing.T) {
	for _, step := range []string{"entry written", "entry synced"} {
		t.Run(step, func(t *testing.T) {
			root := t.TempDir()
			l := open(t, root)
			e, err := l.Save(logN1, SaveOptions{Name: "old name", Tags: []string{"t"}})
			if err != nil {
				t.Fatal(err)
			}
			l.crash = func(s string) bool { return s == step }
			if _, err := l.Rename(e.ID, "new name"); !errors.Is(err, errCrashed) {
				t.Fatalf("rename: %v", err)
			}
			if n := len(temps(t, filepath.Join(root, e.ID))); n != 1 {
				t.Errorf("%d temporary metadata files left by the crash, want 1", n)
			}
			l2 := open(t, root)
			got, err := l2.Get(e.ID)
			if err != nil || got.Name != "old name" || strings.Join(got.Tags, ",") != "t" {
				t.Errorf("after the crash: %+v, %v", got, err)
			}
			if left := temps(t, filepath.Join(root, e.ID)); len(left) != 0 {
				t.Errorf("temporary metadata survives reopening: %v", left)
			}
		})
	}
}

// TestCrashDuringDelete stops a delete after the entry left the library:
// it is gone at once, and reopening removes its files.
func TestCrashDuringDelete(t *testing.T) {
	root := t.TempDir()
	l := open(t, root)
	keep, _ := l.Save(logN1, SaveOptions{Name: "keep"})
	del, err := l.Save(logN2, SaveOptions{Name: "delete"})
	if err != nil {
		t.Fatal(err)
	}
	l.crash = func(s string) bool { return s == "deleting" }
	if err := l.Delete(del.ID); !errors.Is(err, errCrashed) {
		t.Fatalf("delete: %v", err)
	}
	if got := strings.Join(names(t, l), ","); got != "keep" {
		t.Errorf("list %q", got)
	}
	open(t, root)
	if got := dirNames(t, root); len(got) != 1 || got[0] != keep.ID {
		t.Errorf("root holds %v", got)
	}
}

// TestConcurrentSaves saves from several goroutines at once (run with
// -race).
func TestConcurrentSaves(t *testing.T) {
	l := open(t, t.TempDir())
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = l.Save(logN1, SaveOptions{Name: "run"})
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := len(names(t, l)); n != 4 {
		t.Errorf("%d entries, want 4", n)
	}
}

func TestDefaultRoot(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "/data")
	if r, err := DefaultRoot(); err != nil || r != "/data/hecscope/library" {
		t.Errorf("%q %v", r, err)
	}
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("HOME", "/home/u")
	if r, err := DefaultRoot(); err != nil || r != "/home/u/.local/share/hecscope/library" {
		t.Errorf("%q %v", r, err)
	}
}

// TestListDuringSave lists and edits while a save is part-way through its
// copy: a large log being saved must not block the library window.
func TestListDuringSave(t *testing.T) {
	l := open(t, t.TempDir())
	old, err := l.Save(logN1, SaveOptions{Name: "old"})
	if err != nil {
		t.Fatal(err)
	}
	reached, release := make(chan struct{}), make(chan struct{})
	l.crash = func(step string) bool {
		if step == "copied" {
			close(reached)
			<-release
		}
		return false
	}
	saved := make(chan error, 1)
	go func() {
		_, err := l.Save(logN2, SaveOptions{Name: "new"})
		saved <- err
	}()
	<-reached
	done := make(chan []string, 1)
	go func() {
		if _, err := l.Rename(old.ID, "renamed"); err != nil {
			t.Error(err)
		}
		es, err := l.List()
		if err != nil {
			t.Error(err)
		}
		var n []string
		for _, e := range es {
			n = append(n, e.Name)
		}
		done <- n
	}()
	select {
	case got := <-done:
		if strings.Join(got, ",") != "renamed" {
			t.Errorf("during the save the library lists %v", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("listing waited for the save")
	}
	close(release)
	if err := <-saved; err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names(t, l), ","); got != "new,renamed" {
		t.Errorf("after the save: %s", got)
	}
}

// TestDamagedEntriesAreSkipped: a directory without readable metadata is
// not an entry; the others are still listed.
func TestDamagedEntriesAreSkipped(t *testing.T) {
	root := t.TempDir()
	l := open(t, root)
	good, err := l.Save(logN1, SaveOptions{Name: "good"})
	if err != nil {
		t.Fatal(err)
	}
	bad, err := l.Save(logN2, SaveOptions{Name: "bad"})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, bad.ID, entryFile), []byte(`{"name": "ba`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "stray"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names(t, l), ","); got != "good" {
		t.Errorf("lists %q", got)
	}
	if _, err := l.Get(bad.ID); err == nil || errors.Is(err, ErrNotFound) {
		t.Errorf("damaged entry: %v", err)
	}
	if _, err := l.Get(good.ID); err != nil {
		t.Error(err)
	}
}

// temps lists the temporary metadata files in entry directory dir.
func temps(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, entryFile+".*"+tempSuffix))
	if err != nil {
		t.Fatal(err)
	}
	return m
}
