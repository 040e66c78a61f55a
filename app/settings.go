package app

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"fyne.io/fyne/v2"

	"github.com/hecscope/hecscope/app/kit"
)

// Settings is what the app remembers between runs (recent files, window
// size, bookmarks), by key (see kit.Settings).
type Settings = kit.Settings

// SettingsFile keeps settings in one JSON file that several instances of
// the app may share: a read takes the file as it is; a change reads it,
// changes its key and writes it whole to a temporary file renamed over it,
// so that no reader ever sees half a file and no instance undoes another's
// change to a different key. (Fyne's own preferences file is rewritten in
// place, and a second instance reading it meanwhile logs "Preferences load
// error: EOF" and starts without them.)
type SettingsFile struct {
	path string
	old  fallback
	mu   sync.Mutex
}

// fallback is where a SettingsFile reads a key it does not hold.
type fallback interface {
	FloatWithFallback(key string, fallback float64) float64
	StringList(key string) []string
}

// DefaultSettingsPath is $XDG_CONFIG_HOME/hecscope/settings.json, else
// ~/.config/hecscope/settings.json.
func DefaultSettingsPath() (string, error) {
	if d := os.Getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "hecscope", "settings.json"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("finding the settings directory: %w", err)
	}
	return filepath.Join(home, ".config", "hecscope", "settings.json"), nil
}

// OpenSettingsFile returns the settings kept at path. A key the file does
// not hold is read from old, if not nil: the Fyne preferences older
// versions kept settings in (see LegacyPreferences; they move to the file
// as they change).
func OpenSettingsFile(path string, old fallback) *SettingsFile {
	if p, ok := old.(*LegacyPreferences); ok && p == nil {
		old = nil // a nil *LegacyPreferences is no fallback
	}
	return &SettingsFile{path: path, old: old}
}

// read returns the settings on disk (none if there is no file or it cannot
// be read: the defaults then hold).
func (s *SettingsFile) read() map[string]any {
	vals := map[string]any{}
	data, err := os.ReadFile(s.path)
	if err == nil {
		if json.Unmarshal(data, &vals) != nil {
			vals = map[string]any{}
		}
	}
	return vals
}

// write replaces the file with vals, atomically.
func (s *SettingsFile) write(vals map[string]any) error {
	data, err := json.MarshalIndent(vals, "", "  ")
	if err != nil {
		return fmt.Errorf("writing settings: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o755); err != nil {
		return fmt.Errorf("writing settings: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(s.path), ".settings-*.tmp")
	if err != nil {
		return fmt.Errorf("writing settings: %w", err)
	}
	_, err = f.Write(data)
	if err2 := f.Close(); err == nil {
		err = err2
	}
	if err == nil {
		err = os.Rename(f.Name(), s.path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("writing settings: %w", err)
	}
	return nil
}

// change applies fn to the settings on disk and writes them back; an error
// is logged (a setting not remembered is no reason to stop).
func (s *SettingsFile) change(fn func(map[string]any)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	unlock := lockSettings(s.path)
	defer unlock()
	vals := s.read()
	fn(vals)
	if err := s.write(vals); err != nil {
		fyne.LogError("hecscope", err)
	}
}

// value returns the value at key and whether the file has the key (a
// removed key is held as null, so that old does not bring it back).
func (s *SettingsFile) value(key string) (any, bool) {
	v, ok := s.read()[key]
	return v, ok
}

// FloatWithFallback returns the number at key, or fallback.
func (s *SettingsFile) FloatWithFallback(key string, fallback float64) float64 {
	v, ok := s.value(key)
	if !ok && s.old != nil {
		return s.old.FloatWithFallback(key, fallback)
	}
	if f, isF := v.(float64); isF {
		return f
	}
	return fallback
}

// SetFloat keeps value at key.
func (s *SettingsFile) SetFloat(key string, value float64) {
	s.change(func(m map[string]any) { m[key] = value })
}

// StringList returns the list of strings at key (nil if none).
func (s *SettingsFile) StringList(key string) []string {
	v, ok := s.value(key)
	if !ok && s.old != nil {
		return s.old.StringList(key)
	}
	raw, ok := v.([]any)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(raw))
	for _, v := range raw {
		if str, ok := v.(string); ok {
			out = append(out, str)
		}
	}
	return out
}

// SetStringList keeps value at key.
func (s *SettingsFile) SetStringList(key string, value []string) {
	s.change(func(m map[string]any) { m[key] = value })
}

// RemoveValue forgets key.
func (s *SettingsFile) RemoveValue(key string) {
	s.change(func(m map[string]any) { m[key] = nil })
}

// UseSettings makes the app remember things (recent files, window size,
// bookmarks) in s instead of the Fyne app's preferences. Call it before the
// first window opens.
func (a *App) UseSettings(s Settings) {
	a.settings = s
	a.recent.prefs = s
	kit.UseSettings(s)
}

// MemorySettings are settings kept only while the app runs: for when there
// is nowhere to keep them (no home or config directory).
type MemorySettings struct {
	mu   sync.Mutex
	vals map[string]any
}

// NewMemorySettings returns empty MemorySettings.
func NewMemorySettings() *MemorySettings { return &MemorySettings{vals: map[string]any{}} }

// FloatWithFallback returns the number at key, or fallback.
func (m *MemorySettings) FloatWithFallback(key string, fallback float64) float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if f, ok := m.vals[key].(float64); ok {
		return f
	}
	return fallback
}

// SetFloat keeps value at key.
func (m *MemorySettings) SetFloat(key string, value float64) {
	m.mu.Lock()
	m.vals[key] = value
	m.mu.Unlock()
}

// StringList returns the list of strings at key (nil if none).
func (m *MemorySettings) StringList(key string) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	l, _ := m.vals[key].([]string)
	return append([]string(nil), l...)
}

// SetStringList keeps value at key.
func (m *MemorySettings) SetStringList(key string, value []string) {
	m.mu.Lock()
	m.vals[key] = append([]string(nil), value...)
	m.mu.Unlock()
}

// RemoveValue forgets key.
func (m *MemorySettings) RemoveValue(key string) {
	m.mu.Lock()
	delete(m.vals, key)
	m.mu.Unlock()
}
