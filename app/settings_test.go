package app

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"fyne.io/fyne/v2/test"
)

// TestSettingsFileSharedByInstances: two instances' settings on one file
// (each its own SettingsFile, as two processes would have) change
// different keys at the same time: no change is lost, and a reader never
// sees a half-written file (a key set before stays readable throughout).
func TestSettingsFileSharedByInstances(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hecscope", "settings.json")
	a, b := OpenSettingsFile(path, nil), OpenSettingsFile(path, nil)
	a.SetStringList("recent", []string{"/x.eventlog"})
	var wg sync.WaitGroup
	stop := make(chan struct{})
	torn := 0
	var readers sync.WaitGroup
	readers.Add(1)
	go func() {
		defer readers.Done()
		r := OpenSettingsFile(path, nil)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if len(r.StringList("recent")) != 1 {
				torn++
			}
		}
	}()
	for i, s := range []*SettingsFile{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 50 {
				s.SetFloat(fmt.Sprintf("k%d.%d", i, j), float64(j))
			}
		}()
	}
	wg.Wait()
	close(stop)
	readers.Wait()
	if torn > 0 {
		t.Errorf("a reader saw the file without a key set before, %d times", torn)
	}
	c := OpenSettingsFile(path, nil)
	for i := range 2 {
		for j := range 50 {
			if got := c.FloatWithFallback(fmt.Sprintf("k%d.%d", i, j), -1); got != float64(j) {
				t.Fatalf("k%d.%d = %v: a change was lost", i, j, got)
			}
		}
	}
}

// TestSettingsFileReadsOldPreferences: a key the file lacks comes from the
// Fyne preferences older versions used; once set or removed in the file,
// the file's word holds.
func TestSettingsFileReadsOldPreferences(t *testing.T) {
	old := test.NewApp().Preferences()
	old.SetStringList("recent", []string{"/old.eventlog"})
	old.SetFloat("w", 900)
	s := OpenSettingsFile(filepath.Join(t.TempDir(), "settings.json"), old)
	if got := s.StringList("recent"); !slices.Equal(got, []string{"/old.eventlog"}) {
		t.Errorf("recent from the old preferences: %v", got)
	}
	if got := s.FloatWithFallback("w", 1); got != 900 {
		t.Errorf("w = %v", got)
	}
	s.SetFloat("w", 1200)
	s.RemoveValue("recent")
	if got := s.FloatWithFallback("w", 1); got != 1200 {
		t.Errorf("w after setting = %v", got)
	}
	if got := s.StringList("recent"); got != nil {
		t.Errorf("a removed key came back from the old preferences: %v", got)
	}
}

// TestLegacyPreferencesFallback: settings older versions kept in Fyne's
// preferences file are read through a SettingsFile until it holds its own,
// and the old file is never written.
func TestLegacyPreferencesFallback(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "preferences.json")
	data := `{"recent.files":["/a.eventlog","/b.eventlog"],"window.width":1000}`
	if err := os.WriteFile(old, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	s := OpenSettingsFile(filepath.Join(dir, "new", "settings.json"), ReadLegacyPreferences(dir))
	if got := s.StringList("recent.files"); !slices.Equal(got, []string{"/a.eventlog", "/b.eventlog"}) {
		t.Errorf("recent files from the old preferences = %q", got)
	}
	if got := s.FloatWithFallback("window.width", 1); got != 1000 {
		t.Errorf("width from the old preferences = %v, want 1000", got)
	}
	s.SetStringList("recent.files", []string{"/c.eventlog"})
	if got := s.StringList("recent.files"); !slices.Equal(got, []string{"/c.eventlog"}) {
		t.Errorf("recent files after a change = %q", got)
	}
	if after, _ := os.ReadFile(old); string(after) != data {
		t.Errorf("the old preferences file changed: %s", after)
	}
	// No old file, or an empty one (as Fyne leaves it mid-write): no fallback.
	if p := ReadLegacyPreferences(t.TempDir()); p != nil {
		t.Errorf("preferences read from an empty directory: %v", p)
	}
	if err := os.WriteFile(old, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s = OpenSettingsFile(filepath.Join(dir, "other.json"), ReadLegacyPreferences(dir))
	if got := s.StringList("recent.files"); got != nil {
		t.Errorf("recent files from an empty old file = %q", got)
	}
}
