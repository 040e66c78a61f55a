package library

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestOpenLeavesAnotherSaveAlone: a second instance opening the library
// while the first saves does not take the save for a crash's leftover: the
// save completes, and both see the entry.
func TestOpenLeavesAnotherSaveAlone(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no flock")
	}
	root := t.TempDir()
	first := open(t, root)
	copied, resume := make(chan struct{}), make(chan struct{})
	first.crash = func(s string) bool {
		if s == "copied" {
			close(copied)
			<-resume
		}
		return false
	}
	done := make(chan error, 1)
	go func() {
		_, err := first.Save(logN1, SaveOptions{Name: "saved while another opens"})
		done <- err
	}()
	<-copied
	second := open(t, root) // what a second window of the app does
	close(resume)
	if err := <-done; err != nil {
		t.Fatalf("the first instance's save: %v", err)
	}
	for _, l := range []*Library{first, second} {
		if got := strings.Join(names(t, l), ","); got != "saved while another opens" {
			t.Errorf("the library lists %q", got)
		}
	}
}

// TestKilledSaveIsCleanedUp: a real process saving into the library is
// killed mid-save (SIGKILL, after the copy, before the entry is renamed
// into place). While it lives, Open in another process leaves its staging
// directory alone; once it is dead, Open removes it, and the library
// lists only the entries saved before.
func TestKilledSaveIsCleanedUp(t *testing.T) {
	if root := os.Getenv("HECSCOPE_LIBRARY_SAVER"); root != "" {
		// The helper process: save, and hang after the copy until killed.
		l, err := Open(root)
		if err != nil {
			os.Exit(2)
		}
		l.crash = func(s string) bool {
			if s == "copied" {
				os.WriteFile(filepath.Join(root, "..", "copied"), nil, 0o644)
				select {}
			}
			return false
		}
		l.Save(logN2, SaveOptions{Name: "killed"})
		os.Exit(3)
	}
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no flock")
	}
	dir := t.TempDir()
	root := filepath.Join(dir, "library")
	l := open(t, root)
	if _, err := l.Save(logN1, SaveOptions{Name: "before"}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledSaveIsCleanedUp$")
	cmd.Env = append(os.Environ(), "HECSCOPE_LIBRARY_SAVER="+root)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(dir, "copied")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the saving process never got past its copy")
		}
		time.Sleep(10 * time.Millisecond)
	}
	staging := func() []string {
		m, _ := filepath.Glob(filepath.Join(root, stagingPref+"*"))
		return m
	}
	if len(staging()) != 1 {
		t.Fatalf("staging directories while the save runs: %v", staging())
	}
	open(t, root)
	if len(staging()) != 1 {
		t.Fatal("Open removed the staging directory of a save in progress")
	}
	cmd.Process.Kill()
	cmd.Wait()
	l2 := open(t, root)
	if left := staging(); len(left) != 0 {
		t.Errorf("the killed save's staging directory survives Open: %v", left)
	}
	if got := strings.Join(names(t, l2), ","); got != "before" {
		t.Errorf("after the killed save the library lists %q", got)
	}
}

// TestMoveEntries: the profiles of a library kept elsewhere before move
// whole into the new place, the old place goes, and moving again (or from
// nowhere) does nothing.
func TestMoveEntries(t *testing.T) {
	dir := t.TempDir()
	old, root := filepath.Join(dir, "old"), filepath.Join(dir, "new")
	lo := open(t, old)
	a, err := lo.Save(logN1, SaveOptions{Name: "a"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lo.Save(logN2, SaveOptions{Name: "b", Tags: []string{"x"}}); err != nil {
		t.Fatal(err)
	}
	if n, err := MoveEntries(old, root); err != nil || n != 2 {
		t.Fatalf("moved %d (%v), want 2", n, err)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("the old library is still there: %v", err)
	}
	l := open(t, root)
	if got := strings.Join(names(t, l), ","); got != "a,b" && got != "b,a" {
		t.Errorf("the new library lists %q", got)
	}
	if e, err := l.Get(a.ID); err != nil || e.SHA256 != a.SHA256 {
		t.Errorf("entry a after the move: %v", err)
	}
	if n, err := MoveEntries(old, root); err != nil || n != 0 {
		t.Errorf("moving again: %d, %v", n, err)
	}
}
