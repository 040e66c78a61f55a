package kit

import (
	"sync"

	"fyne.io/fyne/v2"
)

// Settings is what the app remembers between runs (recent files, window
// size, bookmarks), by key. fyne.Preferences is one (the tests use Fyne's
// in-memory ones); app.SettingsFile is the one the app uses.
type Settings interface {
	FloatWithFallback(key string, fallback float64) float64
	SetFloat(key string, value float64)
	StringList(key string) []string
	SetStringList(key string, value []string)
	RemoveValue(key string)
}

// appSettings are the settings UseSettings chose, for the parts of the app
// made without a reference to it (a window's bookmarks).
var (
	appSettingsMu sync.Mutex
	appSettings   Settings
)

// CurrentSettings returns the settings in use: those UseSettings chose,
// else the Fyne app's preferences.
func CurrentSettings() Settings {
	appSettingsMu.Lock()
	defer appSettingsMu.Unlock()
	if appSettings != nil {
		return appSettings
	}
	return fyne.CurrentApp().Preferences()
}

// UseSettings makes CurrentSettings return s from now on.
func UseSettings(s Settings) {
	appSettingsMu.Lock()
	appSettings = s
	appSettingsMu.Unlock()
}
