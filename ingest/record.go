package ingest

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Recorder writes a live stream to an eventlog file as it arrives. It writes
// only the header and whole events, each as soon as it is complete, so that
// if the process dies the file decodes as a truncated but valid eventlog up
// to the last whole event; Close adds the end marker. A Recorder is an
// io.WriteCloser: give it the raw bytes in any chunks.
type Recorder struct {
	mu      sync.Mutex
	f       *os.File
	path    string
	dir     string // where an automatically named recording lives; "" for a fixed path
	stamp   string // the time part of an automatic name
	named   bool   // the program's name is in the file name (or never will be)
	c       *cutter
	written int64
	err     error
	closed  bool
}

// NewRecorder records to the file at path, replacing it.
func NewRecorder(path string) (*Recorder, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	return &Recorder{f: f, path: path, named: true, c: newCutter()}, nil
}

// NewAutoRecorder records into dir (created if missing) under a name made of
// the start time, "live-20060102-150405.eventlog"; once the stream says which
// program it comes from (PROGRAM_ARGS), the file is renamed
// "<program>-20060102-150405.eventlog".
func NewAutoRecorder(dir string, start time.Time) (*Recorder, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	stamp := start.Format("20060102-150405")
	path, err := freeName(dir, "live-"+stamp)
	if err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	return &Recorder{f: f, path: path, dir: dir, stamp: stamp, c: newCutter()}, nil
}

// RecordingsDir returns where recordings go by default:
// $XDG_DATA_HOME/hecscope/recordings, else ~/.local/share/hecscope/recordings
// (the user's configuration directory where there is no home directory).
func RecordingsDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "hecscope", "recordings"), nil
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "share", "hecscope", "recordings"), nil
	}
	d, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("finding a directory for recordings: %w", err)
	}
	return filepath.Join(d, "hecscope", "recordings"), nil
}

// freeName returns dir/base.eventlog, or dir/base-N.eventlog if that exists.
func freeName(dir, base string) (string, error) {
	for i := 1; i < 1000; i++ {
		name := base
		if i > 1 {
			name = fmt.Sprintf("%s-%d", base, i)
		}
		p := filepath.Join(dir, name+".eventlog")
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			return p, nil
		}
	}
	return "", fmt.Errorf("no free file name for %s in %s", base, dir)
}

// programName makes a file-name-safe program name from PROGRAM_ARGS.
func programName(ev *Event) string {
	args := ev.Strings()
	if len(args) == 0 {
		return ""
	}
	name := filepath.Base(args[0])
	name = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, name)
	name = strings.Trim(name, ".")
	if len(name) > 64 {
		name = name[:64]
	}
	return name
}

// Write records p. It fails only if the file cannot be written; bytes that do
// not decode are not an error, they are just not recorded (Status says why).
func (r *Recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return 0, fmt.Errorf("recording %s: %w", r.path, os.ErrClosed)
	}
	if r.err != nil {
		return 0, r.err
	}
	whole := r.c.feed(p, r.watch)
	if len(whole) > 0 {
		if _, err := r.f.Write(whole); err != nil {
			r.err = fmt.Errorf("recording %s: %w", r.path, err)
			return 0, r.err
		}
		r.written += int64(len(whole))
	}
	return len(p), nil
}

// watch looks for the program's name to rename an automatic recording.
func (r *Recorder) watch(ev *Event) {
	if r.named || ev.Kind != KindProgramArgs {
		return
	}
	r.named = true
	name := programName(ev)
	if name == "" {
		return
	}
	to, err := freeName(r.dir, name+"-"+r.stamp)
	if err != nil {
		return // keep the time-only name
	}
	if os.Rename(r.path, to) == nil {
		r.path = to
	}
}

// Path returns the file being written (it changes when an automatic
// recording learns the program's name).
func (r *Recorder) Path() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.path
}

// Written returns how many bytes have been written to the file.
func (r *Recorder) Written() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.written
}

// Status returns the state of the recorded stream as the recorder decoded it.
func (r *Recorder) Status() Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.c.d.Status()
}

// Close ends the recording: it writes any event that the end of the input
// completes, then the end marker (unless the stream had its own), and closes
// the file. A recording whose stream never got past its header is left as
// it is (it does not decode as an eventlog).
func (r *Recorder) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.closed = true
	err := r.err
	if err == nil {
		whole := r.c.end(r.watch)
		if r.c.d.status.State != StateComplete && r.c.data {
			whole = binary.BigEndian.AppendUint16(append([]byte(nil), whole...), idDataEnd)
		}
		if len(whole) > 0 {
			if _, werr := r.f.Write(whole); werr != nil {
				err = fmt.Errorf("recording %s: %w", r.path, werr)
			} else {
				r.written += int64(len(whole))
			}
		}
	}
	if cerr := r.f.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("recording %s: %w", r.path, cerr)
	}
	return err
}
