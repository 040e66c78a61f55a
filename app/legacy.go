package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
)

// Older versions ran as a Fyne app with the ID above and kept their
// settings in Fyne's preferences file and their saved profiles in Fyne's
// storage directory. The app no longer gives Fyne an ID: Fyne rewrites its
// preferences file in place whenever an app exits, so that an instance
// starting or running meanwhile read it empty ("Preferences load error:
// EOF") and lost its settings. The app keeps its own files instead
// (SettingsFile, library.DefaultRoot) and reads the old ones only to take
// what they hold.

// LegacyDir returns the directory where Fyne kept the preferences and
// storage of older versions ("" if the user's directories are unknown).
func LegacyDir() string {
	var root string
	switch runtime.GOOS {
	case "windows":
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		root = filepath.Join(home, "AppData", "Roaming")
	case "darwin":
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		root = filepath.Join(home, "Library", "Preferences")
	default:
		dir, err := os.UserConfigDir()
		if err != nil {
			return ""
		}
		root = dir
	}
	return filepath.Join(root, "fyne", ID)
}

// LegacyPreferences are the settings older versions kept in Fyne's
// preferences file, read once and never written: the fallback of a
// SettingsFile for keys it does not hold yet.
type LegacyPreferences struct {
	vals map[string]any
}

// ReadLegacyPreferences reads the preferences file in dir (LegacyDir()).
// It returns nil if there is none or it cannot be read: there is then
// nothing to take over.
func ReadLegacyPreferences(dir string) *LegacyPreferences {
	if dir == "" {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(dir, "preferences.json"))
	if err != nil {
		return nil
	}
	var vals map[string]any
	if json.Unmarshal(data, &vals) != nil || len(vals) == 0 {
		return nil
	}
	return &LegacyPreferences{vals: vals}
}

// FloatWithFallback returns the number at key, or fallback.
func (p *LegacyPreferences) FloatWithFallback(key string, fallback float64) float64 {
	if p == nil {
		return fallback
	}
	if f, ok := p.vals[key].(float64); ok {
		return f
	}
	return fallback
}

// StringList returns the strings at key (nil if none).
func (p *LegacyPreferences) StringList(key string) []string {
	if p == nil {
		return nil
	}
	raw, _ := p.vals[key].([]any)
	var out []string
	for _, v := range raw {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
