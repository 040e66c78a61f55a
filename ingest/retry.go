package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sync/atomic"
	"time"
)

// The reconnection policy (see Retry).
const (
	// RetryFirst is the pause before a reconnection after a connection
	// that delivered a stream, and after the first failed attempt; each
	// further failure in a row doubles it, up to RetryMax.
	RetryFirst = 100 * time.Millisecond
	// RetryMax is the longest pause between two attempts.
	RetryMax = 5 * time.Second
	// RetrySlow is the shortest pause once RetrySlowAfter attempts in a
	// row have failed: at most one connection a second from then on.
	RetrySlow      = time.Second
	RetrySlowAfter = 3
	// RetrySameLimit is how many attempts in a row may fail the same way
	// before Retry says to stop.
	RetrySameLimit = 5
)

// Retry is the reconnection policy of a live source, which the live
// session and the relay both follow, so that a viewer never hammers the
// program it watches: a program serving its eventlog on a socket (GHC's
// eventlog-socket library) pays for each connection, and that library
// does not even close the descriptors of the clients that left.
//
// Each failed attempt makes the pause before the next one longer: 0.1 s
// after the first, doubling up to 5 s, and at least 1 s from the third
// failure in a row on. An attempt fails if its connection could not be
// opened, or if it ended without delivering an eventlog header and some
// data (see Attempt): a socket that accepts and then closes, or sends
// something that is not an eventlog, is not a connection that went well.
// A connection that delivered a stream starts the pauses again from 0.1 s.
// Once RetrySameLimit attempts in a row have failed the same way, Failed
// and Ended return a *StoppedError: retrying would only hammer the
// program for nothing.
//
// Finding nobody listening (see NobodyListens) is waiting for the program,
// not a way of failing: it lengthens the pause like a failure, but never
// stops the retrying.
//
// A Retry is used by one goroutine at a time; its zero value is ready.
type Retry struct {
	// After makes the timers of the pauses (nil: time.After); a test may
	// give a fake clock.
	After func(time.Duration) <-chan time.Time

	failures int    // attempts in a row that failed or found nobody listening
	same     int    // failed attempts in a row that failed as last says
	last     string // how the last failed attempt failed
}

// StoppedError says that a source failed the same way RetrySameLimit times
// in a row (or more), and the policy says to stop trying.
type StoppedError struct {
	// Attempts is how many attempts in a row failed the same way; Why says
	// how each failed.
	Attempts int
	Why      string
}

// Error says why the retrying stopped, in a sentence for the user.
func (e *StoppedError) Error() string {
	return fmt.Sprintf("stopped after %d attempts that each ended the same way: %s; the program is not serving an eventlog there, or serves it to another client", e.Attempts, e.Why)
}

// Pause returns how long to wait before the next attempt.
func (r *Retry) Pause() time.Duration {
	if r.failures == 0 {
		return RetryFirst
	}
	p := min(RetryFirst<<min(r.failures-1, 16), RetryMax)
	if r.failures >= RetrySlowAfter {
		p = max(p, RetrySlow)
	}
	return p
}

// Wait waits for Pause, or until ctx ends (it then returns ctx's error).
func (r *Retry) Wait(ctx context.Context) error {
	after := r.After
	if after == nil {
		after = time.After
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-after(r.Pause()):
		return nil
	}
}

// Reset starts the policy again, as after a connection that delivered a
// stream: the user asked to reconnect.
func (r *Retry) Reset() { r.failures, r.same, r.last = 0, 0, "" }

// NobodyListens notes an attempt that found nobody listening (a socket
// refused the connection or does not exist yet, a followed file was not
// written again yet): the pause grows, but such attempts neither count
// towards stopping nor break a run of failures of the same way.
func (r *Retry) NobodyListens() { r.failures++ }

// Failed notes a failed attempt; why says how it failed, in words that are
// the same each time an attempt fails the same way. It returns a
// *StoppedError once RetrySameLimit attempts in a row have failed that way.
func (r *Retry) Failed(why string) error {
	r.failures++
	if why == r.last {
		r.same++
	} else {
		r.last, r.same = why, 1
	}
	if r.same >= RetrySameLimit {
		return &StoppedError{Attempts: r.same, Why: why}
	}
	return nil
}

// Stopped reports whether the last attempts failed the same way often
// enough to stop (see Failed); Reset or a different failure clears it.
func (r *Retry) Stopped() bool { return r.same >= RetrySameLimit }

// Ended notes a connection that was open and has ended: one that
// delivered a stream resets the policy, any other failed (see Failed).
func (r *Retry) Ended(a Attempt) error {
	why := a.Failure()
	if why == "" {
		r.Reset()
		return nil
	}
	return r.Failed(why)
}

// Attempt is what one connection to a live source brought, which decides
// whether it counts as failed (see Failure). A Watcher makes it.
type Attempt struct {
	// Bytes is how many bytes arrived.
	Bytes int64
	// Header is set once a whole eventlog header arrived (its data begin
	// marker included); Events once an event or the end marker followed.
	Header, Events bool
	// Status is where decoding stood when the watcher stopped looking: the
	// end of a connection that delivered no event, else StateDecoding.
	Status Status
	// Err is why reading stopped, if not at the end of the input.
	Err error
}

// Failure returns "" if the connection delivered a stream (a header and
// events), else how it failed, in words that are the same for connections
// that failed the same way (no byte counts that vary between attempts).
func (a Attempt) Failure() string {
	switch {
	case a.Header && a.Events:
		return ""
	case a.Status.State == StateCorrupt:
		return a.Status.String()
	case a.Bytes == 0 && a.Err != nil:
		return fmt.Sprintf("reading failed before anything arrived: %v", a.Err)
	case a.Bytes == 0:
		return "the connection closed before anything arrived"
	case !a.Header && a.Err != nil:
		return fmt.Sprintf("reading failed inside the eventlog header: %v", a.Err)
	case !a.Header:
		return "the connection closed inside the eventlog header"
	case a.Err != nil:
		return fmt.Sprintf("reading failed after the eventlog header, before any event: %v", a.Err)
	}
	return "the connection closed after the eventlog header, before any event"
}

// Watcher reads a live source for its reader and judges the connection as
// it goes (see Attempt): it decodes the bytes only until the first event
// after the header (or the stream's end), then just counts them.
type Watcher struct {
	r     io.Reader
	d     *Decoder // nil once the judgement is made
	bytes atomic.Int64
	a     Attempt
}

// NewWatcher watches the connection r reads.
func NewWatcher(r io.Reader) *Watcher { return &Watcher{r: r, d: NewDecoder()} }

// Read reads from the watched reader.
func (w *Watcher) Read(p []byte) (int, error) {
	n, err := w.r.Read(p)
	if n > 0 {
		w.bytes.Add(int64(n))
		if w.d != nil {
			w.look(p[:n])
		}
	}
	if err != nil && !errors.Is(err, io.EOF) && w.a.Err == nil {
		w.a.Err = err
	}
	return n, err
}

// look decodes the next bytes until the judgement is made.
func (w *Watcher) look(p []byte) {
	w.d.Feed(p)
	var ev Event
	if w.d.Next(&ev) {
		w.a.Header, w.a.Events = true, true
	}
	w.settle()
}

// settle notes what the decoder saw; once an event or the stream's end has
// come, the decoder is dropped.
func (w *Watcher) settle() {
	if w.d.phase == phaseData {
		w.a.Header = true
	}
	if w.d.status.State == StateComplete {
		w.a.Header, w.a.Events = true, true
	}
	if w.a.Events || w.d.phase == phaseDone {
		w.a.Status = w.d.Status()
		w.d = nil
	}
}

// Bytes returns how many bytes have arrived; it may be called from any
// goroutine.
func (w *Watcher) Bytes() int64 { return w.bytes.Load() }

// Attempt returns what the connection brought; call it once reading has
// stopped.
func (w *Watcher) Attempt() Attempt {
	if w.d != nil {
		w.d.End()
		var ev Event
		if w.d.Next(&ev) {
			w.a.Header, w.a.Events = true, true
		}
		w.settle()
	}
	a := w.a
	a.Bytes = w.Bytes()
	return a
}

// SilentAfter is how long a socket that is connected may send nothing at
// all before the live session and the relay say why (see SilentReason).
const SilentAfter = 1500 * time.Millisecond

// SilentReason says what it usually means when a socket source is
// connected but has sent nothing for SilentAfter, "" for a FIFO or a
// followed file. GHC's eventlog-socket library serves one client at a
// time: a second client's connection is accepted by the system, but the
// library sends it nothing until the first client leaves.
func (s *Source) SilentReason() string {
	u, err := url.Parse(s.URL)
	if err != nil {
		return ""
	}
	const oneClient = "the program's eventlog-socket library serves one client at a time, so another client probably holds its connection (this one gets the stream once that one leaves), or a GHC 9.0 RTS is still filling its first 2 MiB block"
	switch u.Scheme {
	case "unix":
		return fmt.Sprintf("%s is connected but sends nothing: %s", s.Desc, oneClient)
	case "tcp":
		return fmt.Sprintf("%s is connected but sends nothing: if it is a hecscope relay, its program has not started yet; if it is the program's socket, %s", s.Desc, oneClient)
	}
	return ""
}
