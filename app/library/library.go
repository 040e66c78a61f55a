// Package library keeps saved profiles: copies of eventlogs with a name,
// tags, a note and what hecscope read from them (program, arguments, RTS,
// date, size, summary figures), in a directory the app chooses. It knows
// nothing of the GUI, so it is tested headless.
//
// # On disk
//
// Each entry is a directory root/ID holding "eventlog" (the copy) and
// "entry.json" (the metadata). Every change is made so that a crash at any
// point leaves either the old state or the new one, never a mix:
//
//   - Save builds the entry in a staging directory (root/.new-ID): the
//     copy and the metadata are written and fsynced, then the directory is
//     renamed into place and the root fsynced. A crash before the rename
//     leaves only a staging directory, which List ignores and Open removes.
//   - Rename, SetTags and SetNote write the new metadata to a temporary
//     file in the entry (entry.json.RANDOM.tmp), fsync it and rename it
//     over entry.json: the old metadata stays whole until the new one
//     replaces it.
//
// Several processes may use one library at once (two windows of the app):
// a save holds a lock (flock) on its staging directory, and an edit on its
// temporary file, from the moment they have their names until they are
// done, so that Open in another process removes only what a crashed one
// left (the kernel drops a dead process's locks). A staging directory is
// made under a name Open leaves alone (root/.mk-ID), locked, and only then
// renamed to root/.new-ID.
//   - Delete renames the entry to root/.del-ID (so it vanishes from the
//     library at once) and then removes it; Open finishes removals a crash
//     interrupted.
package library

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hecscope/hecscope/timeline"
)

// File names inside an entry and prefixes of work directories in the root.
const (
	eventlogFile = "eventlog"
	entryFile    = "entry.json"
	stagingPref  = ".new-"
	makingPref   = ".mk-"
	deletingPref = ".del-"
	tempSuffix   = ".tmp"
	// leftoverAge is how old a directory still being made (root/.mk-ID,
	// empty and unlocked between its mkdir and its lock) must be before
	// Open removes it.
	leftoverAge = time.Minute
)

// Figures are the summary figures kept with an entry, so that the library
// can list and sort runs without decoding them (ThreadScope's definitions;
// see timeline.Summary).
type Figures struct {
	Status       string  `json:"status"`
	TotalNS      uint64  `json:"total_ns"`
	MutatorNS    uint64  `json:"mutator_ns"`
	GCNS         uint64  `json:"gc_ns"`
	Productivity float64 `json:"productivity"`
	HasHeap      bool    `json:"has_heap"`
	Collections  int     `json:"collections"`
	MaxPauseNS   uint64  `json:"max_pause_ns"`
	Allocated    uint64  `json:"allocated"`
	MaxHeapSize  uint64  `json:"max_heap_size"`
	MaxLive      uint64  `json:"max_live"`
	// NoLive says the log has no HeapLive events: MaxLive is absent, not 0
	// (entries saved before it was kept read false).
	NoLive        bool   `json:"no_live,omitempty"`
	Capabilities  int    `json:"capabilities"`
	Threads       uint64 `json:"threads"`
	SparksCreated uint64 `json:"sparks_created"`
	SparksConvert uint64 `json:"sparks_converted"`
	SparksFizzled uint64 `json:"sparks_fizzled"`
	Events        uint64 `json:"events"`
}

// Entry is one saved profile.
type Entry struct {
	// ID names the entry's directory; it never changes.
	ID string `json:"id"`
	// Name, Tags and Note are the user's; tags are kept sorted and unique.
	Name string   `json:"name"`
	Tags []string `json:"tags"`
	Note string   `json:"note"`
	// Source is the path the eventlog was saved from; Segment, if not "",
	// says which eventlog of a source holding several one after another it
	// is ("segment 2 of 4"): the entry holds that one's bytes alone.
	Source  string `json:"source"`
	Segment string `json:"segment,omitempty"`
	// Saved is when it was saved.
	Saved time.Time `json:"saved"`
	// Size is the eventlog's size in bytes and SHA256 its hash (hex).
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
	// Program, Args and RTS are the run's (ProgramArgs, RTSIdentifier);
	// Started is the wall-clock time the run started (zero if the log does
	// not say).
	Program string    `json:"program"`
	Args    []string  `json:"args"`
	RTS     string    `json:"rts"`
	Started time.Time `json:"started"`
	// Figures are the run's summary figures.
	Figures Figures `json:"figures"`
}

// Library is a directory of saved profiles. Its methods may be called from
// several goroutines; two Library values must not share a directory.
type Library struct {
	root string
	mu   sync.Mutex
	// crash, when set (tests only), is asked at each step of a change; if
	// it returns true the change stops there as a crash would, without
	// cleaning up.
	crash func(step string) bool
}

// ErrNotFound is returned (wrapped) for an ID the library does not hold.
var ErrNotFound = errors.New("no such saved profile")

// errCrashed is what a simulated crash returns.
var errCrashed = errors.New("simulated crash")

// DefaultRoot returns where the library lives when the app gives no
// storage directory: $XDG_DATA_HOME/hecscope/library, or
// ~/.local/share/hecscope/library.
func DefaultRoot() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "hecscope", "library"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("library: finding the data directory: %w", err)
	}
	return filepath.Join(home, ".local", "share", "hecscope", "library"), nil
}

// Open opens (creating it if needed) the library in directory root and
// removes what interrupted changes left behind: staging directories of
// saves, entries being deleted and temporary metadata files.
func Open(root string) (*Library, error) {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("library: creating %s: %w", root, err)
	}
	l := &Library{root: root}
	des, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("library: reading %s: %w", root, err)
	}
	for _, de := range des {
		name := de.Name()
		p := filepath.Join(root, name)
		switch {
		case strings.HasPrefix(name, stagingPref) && inUse(p):
			// Another process is saving into it.
		case strings.HasPrefix(name, makingPref):
			if info, err := de.Info(); err == nil && time.Since(info.ModTime()) > leftoverAge && !inUse(p) {
				os.RemoveAll(p)
			}
		case strings.HasPrefix(name, stagingPref), strings.HasPrefix(name, deletingPref):
			if err := os.RemoveAll(p); err != nil {
				return nil, fmt.Errorf("library: cleaning up %s: %w", p, err)
			}
		case de.IsDir():
			if err := removeStaleTemps(p); err != nil {
				return nil, err
			}
		}
	}
	return l, nil
}

// removeStaleTemps removes the temporary metadata files in entry directory
// dir that no process is writing.
func removeStaleTemps(dir string) error {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil // not an entry: List skips it
	}
	for _, de := range des {
		if n := de.Name(); strings.HasPrefix(n, entryFile+".") && strings.HasSuffix(n, tempSuffix) {
			p := filepath.Join(dir, n)
			if inUse(p) {
				continue
			}
			if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("library: cleaning up %s: %w", p, err)
			}
		}
	}
	return nil
}

// Root returns the library's directory.
func (l *Library) Root() string { return l.root }

// step is a point where a simulated crash may stop a change.
func (l *Library) step(name string) error {
	if l.crash != nil && l.crash(name) {
		return errCrashed
	}
	return nil
}

// EventlogPath returns the path of the saved copy of an entry's eventlog.
func (l *Library) EventlogPath(id string) string {
	return filepath.Join(l.root, id, eventlogFile)
}

// SaveOptions are the user's words for a saved profile.
type SaveOptions struct {
	// Name defaults to the eventlog's file name.
	Name string
	Tags []string
	Note string
	// Offset and Length, if Length > 0, are the bytes of the file to save
	// (one eventlog of a file holding several one after another), and
	// Segment says which one it is (see Entry.Segment).
	Offset, Length int64
	Segment        string
}

// Save copies the eventlog at path into the library with the given name,
// tags and note, reading it once to copy, hash and summarise it. A
// truncated or corrupt log is saved as it is (Figures.Status says how it
// ends). The entry appears in the library whole or not at all.
func (l *Library) Save(path string, opt SaveOptions) (Entry, error) {
	// The copy is made without the lock (its staging directory is its
	// own), so that listing and editing go on while a large log is saved.
	src, err := os.Open(path)
	if err != nil {
		return Entry{}, fmt.Errorf("library: saving: %w", err)
	}
	defer src.Close()
	id, err := newID()
	if err != nil {
		return Entry{}, err
	}
	staging, lock, err := l.makeStaging(id)
	if err != nil {
		return Entry{}, fmt.Errorf("library: saving %s: %w", path, err)
	}
	// The lock goes with the process; closing it (a save over, or one
	// given up as a crash would) lets another Open see a leftover.
	defer lock.Close()
	var in io.Reader = src
	if opt.Length > 0 {
		in = io.NewSectionReader(src, opt.Offset, opt.Length)
	}
	e, err := l.stage(staging, in, path, id, opt)
	if errors.Is(err, errCrashed) {
		return Entry{}, err
	}
	if err != nil {
		os.RemoveAll(staging)
		return Entry{}, err
	}
	final := filepath.Join(l.root, id)
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.step("rename"); err != nil {
		return Entry{}, err
	}
	if err := os.Rename(staging, final); err != nil {
		os.RemoveAll(staging)
		return Entry{}, fmt.Errorf("library: saving %s: %w", path, err)
	}
	if err := syncDir(l.root); err != nil {
		return Entry{}, fmt.Errorf("library: saving %s: %w", path, err)
	}
	return e, nil
}

// makeStaging makes the staging directory of entry id, locked (see the
// package's doc): it is made as root/.mk-ID, locked through the returned
// file, and renamed to root/.new-ID, so that no other process ever sees it
// there unlocked while this one lives.
func (l *Library) makeStaging(id string) (string, *os.File, error) {
	making := filepath.Join(l.root, makingPref+id)
	if err := os.Mkdir(making, 0o755); err != nil {
		return "", nil, err
	}
	lock, err := os.Open(making)
	if err == nil {
		err = lockFile(lock)
	}
	staging := filepath.Join(l.root, stagingPref+id)
	if err == nil {
		err = os.Rename(making, staging)
	}
	if err != nil {
		if lock != nil {
			lock.Close()
		}
		os.RemoveAll(making)
		return "", nil, err
	}
	return staging, lock, nil
}

// stage writes the copy and the metadata of a new entry into dir.
func (l *Library) stage(dir string, src io.Reader, path, id string, opt SaveOptions) (Entry, error) {
	dst, err := os.Create(filepath.Join(dir, eventlogFile))
	if err != nil {
		return Entry{}, fmt.Errorf("library: saving %s: %w", path, err)
	}
	defer dst.Close()
	h := sha256.New()
	counter := &countWriter{}
	w := io.MultiWriter(dst, h, counter)
	// The summary reads as far as the log decodes; the rest is copied after.
	s, err := timeline.Summarize(io.TeeReader(src, w))
	if err != nil {
		return Entry{}, fmt.Errorf("library: saving %s: %w", path, err)
	}
	if _, err := io.Copy(w, src); err != nil {
		return Entry{}, fmt.Errorf("library: saving %s: %w", path, err)
	}
	if err := l.step("copied"); err != nil {
		return Entry{}, err
	}
	if err := dst.Sync(); err != nil {
		return Entry{}, fmt.Errorf("library: saving %s: %w", path, err)
	}
	if err := dst.Close(); err != nil {
		return Entry{}, fmt.Errorf("library: saving %s: %w", path, err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	name := strings.TrimSpace(opt.Name)
	if name == "" {
		name = filepath.Base(path)
	}
	e := Entry{
		ID: id, Name: name, Tags: cleanTags(opt.Tags), Note: opt.Note, Source: abs, Segment: opt.Segment,
		Saved: time.Now().UTC(), Size: counter.n, SHA256: hex.EncodeToString(h.Sum(nil)),
		Program: s.Program, Args: s.Args, RTS: s.RTS, Started: s.StartWall,
		Figures: figuresOf(&s),
	}
	if e.Args == nil {
		e.Args = []string{}
	}
	if err := l.writeEntry(dir, &e); err != nil {
		return Entry{}, err
	}
	if err := syncDir(dir); err != nil {
		return Entry{}, fmt.Errorf("library: saving %s: %w", path, err)
	}
	return e, nil
}

// figuresOf takes the figures the library keeps from a summary.
func figuresOf(s *timeline.Summary) Figures {
	return Figures{
		Status: s.Status.State.String(), TotalNS: s.TotalNS, MutatorNS: s.MutatorNS, GCNS: s.GC.Total.ElapsedNS,
		Productivity: s.Productivity, HasHeap: s.HasHeap, Collections: s.GC.Total.Collections,
		MaxPauseNS: s.GC.Total.MaxPauseNS, Allocated: s.Heap.Allocated, MaxHeapSize: s.Heap.MaxSize,
		MaxLive: s.Heap.MaxLive, NoLive: !s.Heap.HasLive, Capabilities: s.Capabilities, Threads: s.Threads,
		SparksCreated: s.Sparks.Total.Created, SparksConvert: s.Sparks.Total.Converted,
		SparksFizzled: s.Sparks.Total.Fizzled, Events: s.Events,
	}
}

// countWriter counts the bytes written to it.
type countWriter struct{ n int64 }

// Write counts p.
func (c *countWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

// newID returns a fresh entry ID: the time and 4 random bytes, so that IDs
// sort by age.
func newID() (string, error) {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("library: making an ID: %w", err)
	}
	return time.Now().UTC().Format("20060102T150405") + "-" + hex.EncodeToString(b[:]), nil
}

// validID reports whether id can name an entry directory (and so cannot
// reach outside the root).
func validID(id string) bool {
	if id == "" || id == "." || id == ".." || strings.HasPrefix(id, ".") {
		return false
	}
	return !strings.ContainsAny(id, `/\`)
}

// writeEntry writes e as dir/entry.json atomically: to a temporary file,
// fsynced, then renamed over the old one.
func (l *Library) writeEntry(dir string, e *Entry) error {
	data, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return fmt.Errorf("library: encoding entry %s: %w", e.ID, err)
	}
	var rnd [4]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return fmt.Errorf("library: writing entry %s: %w", e.ID, err)
	}
	tmp := filepath.Join(dir, entryFile+"."+hex.EncodeToString(rnd[:])+tempSuffix)
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("library: writing entry %s: %w", e.ID, err)
	}
	// Locked while it is written, so that another process's Open leaves
	// it (it removes only what no one holds; a crash lets go of it).
	if err := lockFile(f); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("library: writing entry %s: %w", e.ID, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("library: writing entry %s: %w", e.ID, err)
	}
	if err := l.step("entry written"); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("library: writing entry %s: %w", e.ID, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("library: writing entry %s: %w", e.ID, err)
	}
	if err := l.step("entry synced"); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, entryFile)); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("library: writing entry %s: %w", e.ID, err)
	}
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("library: writing entry %s: %w", e.ID, err)
	}
	return nil
}

// syncDir fsyncs a directory, making renames in it durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("syncing %s: %w", dir, err)
	}
	return nil
}

// readEntry reads the metadata of entry id.
func (l *Library) readEntry(id string) (Entry, error) {
	if !validID(id) {
		return Entry{}, fmt.Errorf("library: entry %q: %w", id, ErrNotFound)
	}
	data, err := os.ReadFile(filepath.Join(l.root, id, entryFile))
	if errors.Is(err, os.ErrNotExist) {
		return Entry{}, fmt.Errorf("library: entry %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return Entry{}, fmt.Errorf("library: reading entry %s: %w", id, err)
	}
	var e Entry
	if err := json.Unmarshal(data, &e); err != nil {
		return Entry{}, fmt.Errorf("library: reading entry %s: %w", id, err)
	}
	e.ID = id
	return e, nil
}

// Get returns entry id.
func (l *Library) Get(id string) (Entry, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.readEntry(id)
}

// List returns every entry, newest first. Directories that are not entries
// (no or unreadable metadata) are skipped; the error is non-nil only if the
// root cannot be read.
func (l *Library) List() ([]Entry, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	des, err := os.ReadDir(l.root)
	if err != nil {
		return nil, fmt.Errorf("library: listing %s: %w", l.root, err)
	}
	var out []Entry
	for _, de := range des {
		if !de.IsDir() || !validID(de.Name()) {
			continue
		}
		e, err := l.readEntry(de.Name())
		if err != nil {
			continue
		}
		out = append(out, e)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Saved.Equal(out[j].Saved) {
			return out[i].Saved.After(out[j].Saved)
		}
		return out[i].ID > out[j].ID
	})
	return out, nil
}

// Search returns the entries (newest first) that match every word of
// query, case-insensitively: a word "tag:x" matches entries with tag x; any
// other word matches if it occurs in the name, a tag, the note, the
// program, its arguments, the RTS or the source path. An empty query
// matches all.
func (l *Library) Search(query string) ([]Entry, error) {
	all, err := l.List()
	if err != nil {
		return nil, err
	}
	words := strings.Fields(strings.ToLower(query))
	var out []Entry
	for _, e := range all {
		if matches(&e, words) {
			out = append(out, e)
		}
	}
	return out, nil
}

// matches reports whether e matches every word (already lower case).
func matches(e *Entry, words []string) bool {
	text := strings.ToLower(strings.Join(append([]string{e.Name, e.Note, e.Program, e.RTS, e.Source,
		strings.Join(e.Tags, " ")}, e.Args...), "\n"))
	for _, w := range words {
		if tag, ok := strings.CutPrefix(w, "tag:"); ok {
			found := false
			for _, t := range e.Tags {
				found = found || strings.ToLower(t) == tag
			}
			if !found {
				return false
			}
			continue
		}
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}

// update changes entry id's metadata with f and writes it atomically.
func (l *Library) update(id string, f func(*Entry) error) (Entry, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, err := l.readEntry(id)
	if err != nil {
		return Entry{}, err
	}
	if err := f(&e); err != nil {
		return Entry{}, err
	}
	if err := l.writeEntry(filepath.Join(l.root, id), &e); err != nil {
		return Entry{}, err
	}
	return e, nil
}

// Rename gives entry id a new name (not empty).
func (l *Library) Rename(id, name string) (Entry, error) {
	name = strings.TrimSpace(name)
	return l.update(id, func(e *Entry) error {
		if name == "" {
			return fmt.Errorf("library: renaming %s: empty name", id)
		}
		e.Name = name
		return nil
	})
}

// SetTags replaces entry id's tags (trimmed, without empty or repeated
// ones, sorted).
func (l *Library) SetTags(id string, tags []string) (Entry, error) {
	return l.update(id, func(e *Entry) error {
		e.Tags = cleanTags(tags)
		return nil
	})
}

// SetNote replaces entry id's note.
func (l *Library) SetNote(id, note string) (Entry, error) {
	return l.update(id, func(e *Entry) error {
		e.Note = note
		return nil
	})
}

// cleanTags trims tags, drops empty and repeated ones and sorts them; it
// never returns nil.
func cleanTags(tags []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, t := range tags {
		t = strings.TrimSpace(t)
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// Delete removes entry id: it leaves the library at once (an atomic
// rename), then its files are removed.
func (l *Library) Delete(id string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := l.readEntry(id); err != nil {
		return err
	}
	gone := filepath.Join(l.root, deletingPref+id)
	if err := os.Rename(filepath.Join(l.root, id), gone); err != nil {
		return fmt.Errorf("library: deleting %s: %w", id, err)
	}
	if err := syncDir(l.root); err != nil {
		return fmt.Errorf("library: deleting %s: %w", id, err)
	}
	if err := l.step("deleting"); err != nil {
		return err
	}
	if err := os.RemoveAll(gone); err != nil {
		return fmt.Errorf("library: deleting %s: %w", id, err)
	}
	return nil
}

// MoveEntries moves the saved profiles of the library in directory from (an
// older place of the library) into the library in directory to, each entry
// whole (a rename: both on one file system), leaving any whose ID to already
// holds, and removes from once it is empty. It returns how many it moved. A
// missing from is no error: there is nothing to move.
func MoveEntries(from, to string) (int, error) {
	des, err := os.ReadDir(from)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("library: moving from %s: %w", from, err)
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		return 0, fmt.Errorf("library: moving to %s: %w", to, err)
	}
	n := 0
	for _, de := range des {
		id := de.Name()
		if !de.IsDir() || !validID(id) {
			continue
		}
		if _, err := os.Stat(filepath.Join(from, id, entryFile)); err != nil {
			continue // not a whole entry (a save or delete cut short)
		}
		dst := filepath.Join(to, id)
		if _, err := os.Stat(dst); err == nil {
			continue
		}
		if err := os.Rename(filepath.Join(from, id), dst); err != nil {
			return n, fmt.Errorf("library: moving %s to %s: %w", id, to, err)
		}
		n++
	}
	if n > 0 {
		if err := syncDir(to); err != nil {
			return n, fmt.Errorf("library: moving to %s: %w", to, err)
		}
	}
	os.Remove(from) // only if empty: what was left stays where it was
	return n, nil
}
