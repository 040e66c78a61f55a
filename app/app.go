package app

import (
	"fmt"
	"os"
	"sync"
	"time"

	"fyne.io/fyne/v2"

	"github.com/hecscope/hecscope/app/compareview"
	"github.com/hecscope/hecscope/app/liveview"
	"github.com/hecscope/hecscope/assets"
)

// Application metadata; FyneApp.toml at the repository root says the same.
const (
	// ID is the application's id: the desktop entry's, and the one under
	// which Fyne kept older versions' preferences (see LegacyDir).
	ID = "io.github.hecscope"
	// Name is the application's display name.
	Name = "hecscope"
	// Version is the application version.
	Version = "0.1.0"
)

// Icon is the application icon.
var Icon = fyne.NewStaticResource("hecscope.png", assets.IconPNG)

// App is the running desktop application: its windows and the recent-files
// list they share.
type App struct {
	fa     fyne.App
	recent *Recent
	// settings is where the app remembers things between runs (see
	// UseSettings).
	settings Settings
	windows  []*Window

	// useNative selects the system file chooser; tests turn it off.
	useNative bool
	// loaded, if set, is called on Fyne's loop after each load finishes or
	// fails (for tests).
	loaded func(*Window)
	// started is set once the app runs (see startedRunning).
	started bool
	// live holds the live views not yet finished (see finishLive).
	liveMu sync.Mutex
	live   map[*liveview.View]bool
}

// New returns the application running on fa, remembering things between
// runs in fa's preferences (Fyne's test app's, in the tests).
func New(fa fyne.App) *App {
	return NewWithSettings(fa, fa.Preferences())
}

// NewWithSettings returns the application running on fa, remembering
// things between runs (recent files, window size, bookmarks) in s: the
// desktop app passes a SettingsFile and makes fa without an ID, so that
// Fyne keeps no preferences file of its own (see LegacyDir).
func NewWithSettings(fa fyne.App, s Settings) *App {
	fa.SetIcon(Icon)
	a := &App{fa: fa, useNative: true}
	a.recent = NewRecent(s)
	a.UseSettings(s)
	fa.Lifecycle().SetOnStarted(a.startedRunning)
	a.recent.OnChange(func() {
		for _, w := range a.windows {
			w.recentChanged()
		}
	})
	return a
}

// Recent returns the recent-files list.
func (a *App) Recent() *Recent { return a.recent }

// Windows returns the open windows, oldest first.
func (a *App) Windows() []*Window { return append([]*Window(nil), a.windows...) }

// ShowStart opens a window on the start page.
func (a *App) ShowStart() *Window {
	w := a.newWindow()
	w.showStart()
	w.win.Show()
	return w
}

// Open opens path (an eventlog or a .hp heap profile) in a new window and
// starts loading it.
func (a *App) Open(path string) *Window {
	w := a.newWindow()
	w.load(path)
	w.win.Show()
	return w
}

// Run shows the windows and runs the event loop until the last one closes,
// then lets the live sessions finish their recordings (up to
// finishLiveWait).
func (a *App) Run() {
	a.fa.Run()
	if !a.finishLive(finishLiveWait) {
		fmt.Fprintf(os.Stderr, "hecscope: a live session's recording was not finished within %v of quitting\n", finishLiveWait)
	}
}

// finishLiveWait is how long quitting waits for the live sessions to
// finish their recordings: the last events to reach the file, the file
// synced to disk.
const finishLiveWait = 5 * time.Second

// watchLive keeps v among the live views to finish before the app exits,
// until it has finished by itself (its window closed, or showing
// something else).
func (a *App) watchLive(v *liveview.View) {
	a.liveMu.Lock()
	defer a.liveMu.Unlock()
	if a.live == nil {
		a.live = map[*liveview.View]bool{}
	}
	a.live[v] = true
	go func() {
		<-v.Finished()
		a.liveMu.Lock()
		defer a.liveMu.Unlock()
		delete(a.live, v)
	}()
}

// finishLive stops every live view and waits, up to wait in all, until
// each has finished; it reports whether all did.
func (a *App) finishLive(wait time.Duration) bool {
	a.liveMu.Lock()
	views := make([]*liveview.View, 0, len(a.live))
	for v := range a.live {
		views = append(views, v)
	}
	a.liveMu.Unlock()
	deadline := time.After(wait)
	for _, v := range views {
		v.Stop()
		select {
		case <-v.Finished():
		case <-deadline:
			return false
		}
	}
	return true
}

func (a *App) newWindow() *Window {
	fw := a.fa.NewWindow(Name)
	fw.SetIcon(Icon)
	fw.Resize(a.windowSize())
	fw.CenterOnScreen()
	w := &Window{app: a, win: fw}
	fw.SetOnDropped(func(_ fyne.Position, uris []fyne.URI) { w.dropped(uris) })
	fw.SetOnClosed(func() { a.closed(w) })
	a.windows = append(a.windows, w)
	w.setMenu()
	w.bindKeys()
	a.fitSoon(w)
	return w
}

func (a *App) closed(w *Window) {
	a.rememberSize(w.win.Canvas().Size())
	w.cancelLoad()
	w.releaseView()
	w.gen++ // what a cancelled load still reports finds the window gone
	for i, o := range a.windows {
		if o == w {
			a.windows = append(a.windows[:i], a.windows[i+1:]...)
			break
		}
	}
}

// OpenCompare opens a window comparing run B (file pathB, called nameB)
// against run A and starts loading both; an empty name is the file's name.
func (a *App) OpenCompare(pathA, nameA, pathB, nameB string) *compareview.Window {
	return a.openCompare(pathA, nameA, pathB, nameB, nil)
}

func (a *App) openCompare(pathA, nameA, pathB, nameB string, done func(error)) *compareview.Window {
	return a.openCompareSegments([2]string{pathA, pathB}, [2]int{}, [2]string{nameA, nameB}, done)
}

// openCompareSegments compares segment segs[1] (0-based) of paths[1] (B)
// with segment segs[0] of paths[0] (A), named names (their files' names
// if ""), in a window of its own.
func (a *App) openCompareSegments(paths [2]string, segs [2]int, names [2]string, done func(error)) *compareview.Window {
	return compareview.Open(a.compareHost(), paths, segs, names, done)
}

// compareHost is what the app gives the compare windows it opens.
func (a *App) compareHost() compareview.Host {
	return compareview.Host{
		NewWindow: func(title string) fyne.Window {
			w := a.fa.NewWindow(title + " — " + Name)
			w.SetIcon(Icon)
			return w
		},
		Started:   a.started,
		UseNative: a.useNative,
	}
}
