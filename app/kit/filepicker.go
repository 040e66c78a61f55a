package kit

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"

	"github.com/hecscope/hecscope/internal/chooser"
	"github.com/hecscope/hecscope/paint"
)

// errNoNativeDialog means the system file chooser could not be shown (its
// program is missing, or GTK could not start), so Fyne's own dialog must
// be used.
var errNoNativeDialog = errors.New("system file chooser unavailable")

// nativeMu keeps to one system chooser at a time (in-process, the
// library's choosers are not safe to drive from two goroutines at once).
var nativeMu sync.Mutex

// nativeFile runs the system file chooser and blocks until the user picks
// a file or cancels. It must not run on Fyne's event loop. It returns ("",
// nil) on cancel and errNoNativeDialog if the chooser could not be started.
func nativeFile(title string, save bool, startDir, startFile string, filters []chooser.Filter) (path string, err error) {
	nativeMu.Lock()
	defer nativeMu.Unlock()
	return chooseNative(chooser.Request{Save: save, Title: title, StartDir: startDir, StartFile: startFile, Filters: filters})
}

// openFilters are the file types offered by File > Open.
var openFilters = []chooser.Filter{
	{Desc: "GHC eventlogs and heap profiles", Extensions: []string{"eventlog", "hp"}},
	{Desc: "All files", Extensions: []string{"*"}},
}

// PickFileToOpen asks the user for a file to open, in a dialog titled
// title, and calls done with its path on Fyne's loop; done is not called if
// the user cancels. It tries the system chooser first, off Fyne's loop, and
// falls back to Fyne's dialog in parent when that cannot start.
func PickFileToOpen(parent fyne.Window, useNative bool, title string, done func(path string)) {
	start, chosen := lastFolder(), rememberingFolder(done)
	fallback := func() {
		d := dialog.NewFileOpen(func(rc fyne.URIReadCloser, err error) {
			if err != nil {
				dialog.ShowError(fmt.Errorf("choosing a file: %w", err), parent)
				return
			}
			if rc == nil {
				return
			}
			path := rc.URI().Path()
			rc.Close()
			chosen(path)
		}, parent)
		d.SetFilter(storage.NewExtensionFileFilter([]string{".eventlog", ".hp"}))
		showFileDialog(d, title, start)
	}
	runPicker(parent, useNative, "choosing a file", func() (string, error) {
		return nativeFile(title, false, start, "", openFilters)
	}, fallback, chosen)
}

// nativeShowsTitle reports whether the system chooser shows the title it
// is given: sqweek/dialog's GTK chooser (Linux; see cmd/hecscope-chooser)
// ignores it and writes "Open File" or "Save File".
var nativeShowsTitle = runtime.GOOS != "linux"

// PickRunToOpen is pickFileToOpen for a chooser whose title must be seen
// (which run of a comparison it asks for): where the system chooser would
// not show it, Fyne's own chooser is used.
func PickRunToOpen(parent fyne.Window, useNative bool, title string, done func(path string)) {
	PickFileToOpen(parent, useNative && nativeShowsTitle, title, done)
}

// PickFileToSave asks the user where to save a file named like suggested,
// in a dialog titled title, and calls done with the chosen path on Fyne's
// loop, as pickFileToOpen does.
func PickFileToSave(parent fyne.Window, useNative bool, title, suggested string, filters []chooser.Filter, done func(path string)) {
	start, chosen := lastFolder(), rememberingFolder(done)
	fallback := func() {
		d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
			if err != nil {
				dialog.ShowError(fmt.Errorf("choosing where to save: %w", err), parent)
				return
			}
			if wc == nil {
				return
			}
			path := wc.URI().Path()
			wc.Close()
			chosen(path)
		}, parent)
		d.SetFileName(suggested)
		showFileDialog(d, title, start)
	}
	runPicker(parent, useNative, "choosing where to save", func() (string, error) {
		return nativeFile(title, true, start, suggested, filters)
	}, fallback, chosen)
}

// lastFolderKey is the setting that keeps the folder of the file last
// chosen in a file chooser.
const lastFolderKey = "lastFolder"

// lastFolder returns the folder the file choosers start in: the folder of
// the file last chosen in one, if it is still there; "" (the chooser's
// own choice) if there is none.
func lastFolder() string {
	l := CurrentSettings().StringList(lastFolderKey)
	if len(l) == 0 || l[0] == "" {
		return ""
	}
	if st, err := os.Stat(l[0]); err != nil || !st.IsDir() {
		return ""
	}
	return l[0]
}

// rememberFolder keeps the folder of path, a file just chosen, for the
// next chooser.
func rememberFolder(path string) {
	dir := filepath.Dir(path)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if l := CurrentSettings().StringList(lastFolderKey); len(l) == 1 && l[0] == dir {
		return
	}
	CurrentSettings().SetStringList(lastFolderKey, []string{dir})
}

// startIn has Fyne's chooser d start in dir ("": where it would).
func startIn(d *dialog.FileDialog, dir string) {
	if dir == "" {
		return
	}
	if l, err := storage.ListerForURI(storage.NewFileURI(dir)); err == nil {
		d.SetLocation(l)
	}
}

// runPicker runs the system chooser off Fyne's loop and, back on it, calls
// done with the path chosen, shows what went wrong (what is the action, for
// the message), or runs Fyne's own dialog (fallback) when the system
// chooser cannot start or is not wanted. A cancelled choice does nothing.
func runPicker(parent fyne.Window, useNative bool, what string, native func() (string, error), fallback func(), done func(path string)) {
	if !useNative {
		fallback()
		return
	}
	go func() {
		path, err := native()
		OnUI(func() {
			switch {
			case errors.Is(err, errNoNativeDialog):
				fallback()
			case err != nil:
				dialog.ShowError(fmt.Errorf("%s: %w", what, err), parent)
			case path != "":
				done(path)
			}
		})
	}()
}

// ExportedMessage says where an export of what went: one file, or the
// pages written.
func ExportedMessage(what string, w, h int, paths []string) string {
	size := paint.Count(int64(w)) + " × " + paint.Count(int64(h)) + " px"
	if len(paths) == 1 {
		return fmt.Sprintf("Exported %s (%s) to\n%s", what, size, paths[0])
	}
	return fmt.Sprintf("Exported %s (%s in all) as %d pages:\n%s", what, size, len(paths), strings.Join(paths, "\n"))
}

// pngFilters and svgFilters are the file types offered when exporting a
// picture.
var (
	PNGFilters = []chooser.Filter{{Desc: "PNG images", Extensions: []string{"png"}}}
	SVGFilters = []chooser.Filter{{Desc: "SVG images", Extensions: []string{"svg"}}}
)

// rememberingFolder returns done, remembering first the folder of the
// path chosen.
func rememberingFolder(done func(path string)) func(path string) {
	return func(path string) {
		rememberFolder(path)
		done(path)
	}
}

// showFileDialog shows Fyne's file dialog d titled title, in folder start.
func showFileDialog(d *dialog.FileDialog, title, start string) {
	d.SetTitleText(title)
	startIn(d, start)
	d.Resize(fyne.NewSize(760, 520))
	d.Show()
}
