package live

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// quietNote is how long a receiving stream may bring nothing before the
// status line explains why (for a block-buffered RTS).
const quietNote = 3 * time.Second

// behindNote is how far the model may be behind the recording before the
// status line says so.
const behindNote = 1 << 20

// Phase is where a session stands, as the first words of its status line
// name it.
type Phase int

// The phases of a session.
const (
	// PhaseConnecting: opening the source or waiting for the program (a
	// writer on the FIFO, a socket that accepts, the next run).
	PhaseConnecting Phase = iota
	// PhaseHeader: connected, waiting for the eventlog header.
	PhaseHeader
	// PhaseWaitingData: the header arrived; no event yet.
	PhaseWaitingData
	// PhaseReceiving: events are arriving.
	PhaseReceiving
	// PhaseEnded: the stream shown has ended and nothing is under way.
	PhaseEnded
	// PhaseFailed: no stream to show, and the last attempt failed.
	PhaseFailed
)

// String names the phase.
func (p Phase) String() string {
	switch p {
	case PhaseConnecting:
		return "connecting"
	case PhaseHeader:
		return "waiting for the header"
	case PhaseWaitingData:
		return "waiting for the first block"
	case PhaseReceiving:
		return "receiving"
	case PhaseEnded:
		return "ended"
	}
	return "failed"
}

// Status is where a session stands, in words (Text) and as fields.
type Status struct {
	Phase Phase
	// Text is the status line: what the stream shown does, and what the
	// connection does if that is something else (a reconnection).
	Text string
	// Stream is the stream shown (nil before the first header), and Stats
	// its statistics.
	Stream *Stream
	Stats  StreamStats
	// Connection says what the connection does now, "" when nothing is
	// under way.
	Connection string
	// Err is why the last attempt or connection failed, if it did.
	Err error
	// Auto is set when the session reconnects by itself.
	Auto bool
}

// Status returns where the session stands now.
func (s *Session) Status() Status {
	s.mu.Lock()
	cur, conn, connText, err, retryAt, desc, auto := s.current, s.conn, s.connText, s.connErr, s.retryAt, s.desc, s.auto
	watch, openedAt, silent := s.watch, s.openedAt, s.silent
	pending := len(s.all) > 0 && s.all[len(s.all)-1] != cur && s.all[len(s.all)-1].Header() == nil
	s.mu.Unlock()
	now := time.Now()
	st := Status{Stream: cur, Err: err, Auto: auto}

	var connWords string
	switch conn {
	case connConnecting:
		connWords = connText
	case connOpen:
		nothing := watch != nil && watch.Bytes() == 0
		switch {
		case nothing && silent != "" && now.Sub(openedAt) >= ingest.SilentAfter:
			connWords = silent
		case nothing || pending || cur == nil:
			connWords = "connected to " + desc + "; waiting for the eventlog header"
		}
	case connRetrying:
		if err != nil {
			connWords = fmt.Sprintf("failed: %v; trying again in %s", err, roundDuration(max(0, retryAt.Sub(now))))
		} else {
			connWords = "connecting again"
		}
	}
	st.Connection = connWords

	if cur == nil {
		switch {
		case conn == connOpen:
			st.Phase = PhaseHeader
		case conn == connConnecting || conn == connRetrying:
			st.Phase = PhaseConnecting
		case err != nil:
			st.Phase, connWords = PhaseFailed, errWords(err)
		default:
			st.Phase, connWords = PhaseEnded, "the connection closed before any eventlog arrived"
		}
		st.Text = connWords
		return st
	}

	st.Stats = cur.Stats()
	live := !st.Stats.InputOver
	switch {
	case live && cur.dataEvents.Load() == 0:
		st.Phase = PhaseWaitingData
	case live:
		st.Phase = PhaseReceiving
	case conn == connOpen && pending:
		st.Phase = PhaseHeader
	case conn == connConnecting || conn == connRetrying:
		st.Phase = PhaseConnecting
	default:
		st.Phase = PhaseEnded
	}
	parts := []string{streamWords(cur, st.Stats, now, cur.dataEvents.Load() > 0)}
	if !live {
		switch {
		case connWords != "":
			parts = append(parts, "reconnecting: "+connWords)
		case err != nil:
			parts = append(parts, "connection "+errWords(err))
		}
	}
	st.Text = strings.Join(parts, " · ")
	return st
}

// errWords says that the last attempt failed and why ("failed: …"), or
// that the retry policy has stopped, why, and how to start again.
func errWords(err error) string {
	var stopped *ingest.StoppedError
	if errors.As(err, &stopped) {
		return err.Error() + " — press Reconnect to try again"
	}
	return "failed: " + err.Error()
}

// silentWords says what it means when src is connected but sends nothing,
// and how several viewers can share one program; "" if src is not a
// socket (see ingest.Source.SilentReason).
func silentWords(src *ingest.Source) string {
	why := src.SilentReason()
	if why == "" {
		return ""
	}
	return why + ". Several viewers can share one program through a relay that is its one client: hecscope relay --from " + src.URL + ", then hecscope --attach tcp://127.0.0.1:4242 in each viewer"
}

// streamWords says what a stream does or did.
func streamWords(s *Stream, st StreamStats, now time.Time, data bool) string {
	var b strings.Builder
	switch {
	case !st.InputOver && !data:
		fmt.Fprintf(&b, "header received from %s; waiting for the first block of events: ", s.Source)
		if st.BlockBuffered {
			b.WriteString("a GHC 9.0 RTS writes its events in 2 MiB blocks per capability, so nothing arrives until a block fills or the program exits")
		} else {
			b.WriteString("the RTS writes its events in blocks, so nothing arrives until a block fills, the program exits, or --eventlog-flush-interval passes")
		}
	case !st.InputOver:
		fmt.Fprintf(&b, "receiving from %s: %s events/s · %s events · %s", s.Source, paint.CountShort(st.Rate), paint.CountShort(float64(st.Events)), paint.Bytes(uint64(st.Bytes)))
		if !st.LastData.IsZero() {
			quiet := now.Sub(st.LastData)
			fmt.Fprintf(&b, " · newest data %s old (program time %s)", roundDuration(quiet), timeline.FormatDuration(st.Newest))
			if quiet >= quietNote && st.BlockBuffered {
				b.WriteString(" — a GHC 9.0 RTS sends the next block when a capability's 2 MiB buffer fills or the program exits")
			}
		}
		if st.Behind >= behindNote {
			fmt.Fprintf(&b, " · model %s behind", paint.Bytes(uint64(st.Behind)))
		}
	default:
		fmt.Fprintf(&b, "ended: %s · %s events · %s", endWords(st.Status), paint.CountShort(float64(st.Events)), paint.Bytes(uint64(st.Bytes)))
		if st.ReadError != nil && st.Status.State != ingest.StateComplete {
			fmt.Fprintf(&b, " (%v)", st.ReadError)
		}
		if !st.Done {
			fmt.Fprintf(&b, " · model %s behind", paint.Bytes(uint64(st.Behind)))
		}
	}
	if st.Joined {
		fmt.Fprintf(&b, " · joined at %s: figures hold from then on", timeline.FormatDuration(st.JoinedAt))
	}
	if err := s.RecordingError(); err != nil {
		fmt.Fprintf(&b, " · %v", err)
	} else if p := s.RecordingPath(); p != "" {
		if st.InputOver {
			fmt.Fprintf(&b, " · recorded to %s", p)
		} else {
			fmt.Fprintf(&b, " · recording to %s", p)
		}
	}
	return b.String()
}

// endWords says how a stream ended.
func endWords(st ingest.Status) string {
	switch st.State {
	case ingest.StateComplete:
		return "complete"
	case ingest.StateTruncated:
		s := fmt.Sprintf("cut at byte %d, the events before the cut are kept", st.Offset)
		if st.Reason != "" {
			s += " (" + st.Reason + ")"
		}
		return s
	case ingest.StateCorrupt:
		return fmt.Sprintf("corrupt at byte %d (%s), the events before are kept", st.Offset, st.Reason)
	}
	return st.String()
}

// roundDuration rounds d for the status line.
func roundDuration(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Millisecond)
}
