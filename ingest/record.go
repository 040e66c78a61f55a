package ingest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Recorder writes a live stream to an eventlog file as it arrives. It writes
// only the header and whole events, each as soon as it is complete, so that
// the file always decodes as an eventlog up to its last whole event: one
// that ends with the stream's own end marker if the stream had one, and
// reads as truncated otherwise (a stream that was cut, or a recording
// stopped while the program ran, is not complete, and its recording does
// not pretend to be).
//
// If the stream was joined while the program ran (its first block begins
// at LateJoinThreshold or later), the recording starts with a join mark
// after its header, so that whoever reads it knows from when its figures
// hold (see JoinMark). A relay's cut mark ends the recording (see
// IsCutMark).
//
// A Recorder is an io.WriteCloser: give it the raw bytes in any chunks. Its
// ReadAt reads back what it has recorded, while it records: a reader can
// follow the stream through the recording without holding it in memory. If
// the file cannot be written, the Recorder keeps recording in memory (Err
// says why), so that neither the stream nor its readers stop.
type Recorder struct {
	mu      sync.Mutex
	f       *os.File
	path    string
	dir     string // where an automatically named recording lives; "" for a fixed path
	stamp   string // the time part of an automatic name
	named   bool   // the program's name is in the file name (or never will be)
	c       *cutter
	written int64  // bytes in the file
	spill   []byte // bytes recorded after the file failed
	err     error  // why the file failed
	// finished is set once the input is over (Finish), closed once the
	// file is closed too.
	finished, closed bool

	// first is set once the stream's first event has been seen; markAt is
	// the stream offset where a join mark goes (-1: none), joined the time
	// it gives; cutAt is the stream offset of a cut mark (-1: none).
	first  bool
	markAt int64
	joined uint64
	late   bool
	cutAt  int64
}

func newRecorder(f *os.File, path string) *Recorder {
	return &Recorder{f: f, path: path, c: newCutter(), markAt: -1, cutAt: -1}
}

// NewRecorder records to the file at path, replacing it.
func NewRecorder(path string) (*Recorder, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	r := newRecorder(f, path)
	r.named = true
	return r, nil
}

// NewMemoryRecorder records in memory only (for a stream that must be read
// back but cannot be written anywhere); Path is "".
func NewMemoryRecorder() *Recorder {
	r := newRecorder(nil, "")
	r.named = true
	return r
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
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	r := newRecorder(f, path)
	r.dir, r.stamp = dir, stamp
	return r, nil
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

// Write records p. It fails only if the recorder is closed; bytes that do
// not decode are not an error, they are just not recorded (Status says
// why), and neither are bytes after the stream's end.
func (r *Recorder) Write(p []byte) (int, error) {
	if _, err := r.Feed(p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Feed records p and returns how many of its bytes belong to the stream:
// all of them, unless the stream's end marker came among them; the bytes
// after it are the start of whatever follows on the connection (a relay
// sends the next stream there). It fails only if the recorder is closed.
func (r *Recorder) Feed(p []byte) (used int, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.finished {
		return 0, fmt.Errorf("recording %s: %w", r.path, os.ErrClosed)
	}
	whole := r.c.feed(p, r.watch)
	r.record(whole)
	return r.c.used, nil
}

// record writes whole, the next stream bytes that end on an event
// boundary: the join mark goes before the first event, and nothing from
// the cut mark on is written. With r.mu held.
func (r *Recorder) record(whole []byte) {
	start := r.c.done - int64(len(whole)) // stream offset of whole[0]
	if r.cutAt >= 0 {
		whole = whole[:max(0, min(int64(len(whole)), r.cutAt-start))]
	}
	if r.markAt >= start && r.markAt <= start+int64(len(whole)) {
		at := r.markAt - start
		r.put(whole[:at])
		r.put(appendJoinMark(nil, r.joined))
		r.markAt = -1
		whole = whole[at:]
	}
	r.put(whole)
}

// put appends b to the recording: to the file, or to memory once the file
// failed. With r.mu held.
func (r *Recorder) put(b []byte) {
	if len(b) == 0 {
		return
	}
	if r.err == nil && r.f != nil {
		n, err := r.f.Write(b)
		r.written += int64(n)
		if err == nil {
			return
		}
		r.err = fmt.Errorf("recording %s: %w", r.path, err)
		b = b[n:]
	}
	r.spill = append(r.spill, b...)
}

// watch looks at each event of the stream: the first one says whether the
// stream was joined late; a cut mark ends the recording; PROGRAM_ARGS
// names an automatic recording.
func (r *Recorder) watch(ev *Event) {
	if !r.first {
		r.first = true
		if at, ok := JoinMark(ev); ok {
			r.late, r.joined = true, at
		} else if ev.Time >= LateJoinThreshold && canMark(r.c.d.Header()) {
			r.late, r.joined, r.markAt = true, ev.Time, ev.Offset
		}
	}
	if r.cutAt < 0 && IsCutMark(ev) {
		r.cutAt = ev.Offset
	}
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

// Size returns how many bytes have been recorded, in the file and, after a
// write error, in memory: what ReadAt can read. It always ends on an event
// boundary (or at the end of the header).
func (r *Recorder) Size() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.written + int64(len(r.spill))
}

// ReadAt reads recorded bytes from offset off; it returns io.EOF at Size.
// It may be called while the recording goes on, until Close.
func (r *Recorder) ReadAt(p []byte, off int64) (int, error) {
	r.mu.Lock()
	written, spill, f, closed, path := r.written, r.spill, r.f, r.closed, r.path
	r.mu.Unlock()
	if closed {
		return 0, fmt.Errorf("reading the recording %s back: %w", path, os.ErrClosed)
	}
	n := 0
	if off < written {
		want := p[:min(int64(len(p)), written-off)]
		m, err := f.ReadAt(want, off)
		n += m
		if err != nil && m < len(want) {
			return n, fmt.Errorf("reading the recording %s back: %w", path, err)
		}
		off += int64(m)
		p = p[m:]
	}
	if len(p) > 0 && off >= written && off-written < int64(len(spill)) {
		n += copy(p, spill[off-written:])
	}
	if n == 0 && len(p) > 0 {
		return 0, io.EOF
	}
	return n, nil
}

// Err returns why the file could not be written (the recording then goes
// on in memory), or nil.
func (r *Recorder) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// Header returns the stream's header once it is whole, else nil.
func (r *Recorder) Header() *Header {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.c.d.Header()
}

// JoinedAt returns the time from which the recorded figures hold, if the
// stream was joined while the program ran.
func (r *Recorder) JoinedAt() (uint64, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.joined, r.late
}

// Ended reports whether the stream has ended: its end marker has come, or
// it broke off as corrupt.
func (r *Recorder) Ended() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.c.d.phase == phaseDone
}

// Status returns the state of the recorded stream as the recorder decoded
// it; a stream ended by a relay's cut mark is truncated there.
func (r *Recorder) Status() Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.status()
}

func (r *Recorder) status() Status {
	st := r.c.d.Status()
	if r.cutAt >= 0 && st.State == StateComplete {
		return Status{State: StateTruncated, Offset: r.cutAt, Reason: "the relay lost the program's stream here"}
	}
	return st
}

// Finish says the stream is over: it writes any event that the end of the
// input completes, after which the recording takes no more input. The file
// ends with an end marker only if the stream had one. ReadAt goes on
// working until Close.
func (r *Recorder) Finish() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.finish()
	return r.err
}

func (r *Recorder) finish() {
	if r.finished {
		return
	}
	r.finished = true
	r.record(r.c.end(r.watch))
	if r.written > 0 && r.err == nil && r.f != nil {
		if err := r.f.Sync(); err != nil {
			r.err = fmt.Errorf("recording %s: %w", r.path, err)
		}
	}
}

// Close finishes the recording (see Finish) and closes the file. A
// recording whose stream never brought a whole header (the connection
// closed, or sent no eventlog) is removed: it would be an empty file.
func (r *Recorder) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.finish()
	r.closed = true
	err := r.err
	if r.f == nil {
		r.spill = nil
		return err
	}
	if cerr := r.f.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("recording %s: %w", r.path, cerr)
	}
	if !r.c.data {
		if rerr := os.Remove(r.path); rerr != nil && !errors.Is(rerr, os.ErrNotExist) && err == nil {
			err = fmt.Errorf("recording: removing the empty %s: %w", r.path, rerr)
		}
	}
	return err
}
