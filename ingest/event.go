package ingest

import "encoding/binary"

// NoCap is the capability of an event that belongs to no capability: one in
// the RTS's global block, or outside any block.
const NoCap = -1

// MaxArgs is the largest number of fixed fields any event kind has.
const MaxArgs = 9

// Event is one decoded event. It is a plain value with no pointers of its own
// except Data and Raw, which alias the decoder's buffer: they stay valid only
// until the next call to the decoder (Next, Feed or End). Copy them, or call
// Clone, to keep them longer.
type Event struct {
	// Time is the timestamp in nanoseconds since the RTS started.
	Time uint64
	// Offset is the byte offset of the event's first byte in the stream.
	Offset int64
	// Kind is what the event means (see the Kind constants for its Args).
	Kind Kind
	// Type is the event type id as written in the file.
	Type uint16
	// Cap is the capability the event belongs to, from the block markers, as
	// the reference parser assigns it; NoCap if none.
	Cap int32
	// Args holds the fixed fields in file order, widened to uint64.
	Args [MaxArgs]uint64
	// Data is the variable part of the payload (a message, label, strings or
	// a cost-centre stack); for KindUnknown the whole raw payload.
	Data []byte
	// Raw is the whole encoded event: id, timestamp, length field, payload.
	Raw []byte
}

// Clone returns a copy of e whose Data and Raw do not alias the decoder.
func (e *Event) Clone() Event {
	c := *e
	if e.Raw != nil {
		c.Raw = append([]byte(nil), e.Raw...)
	}
	if e.Data != nil {
		c.Data = append([]byte(nil), e.Data...)
	}
	return c
}

// Thread returns the thread id of thread events (create, run, stop,
// runnable, migrate, wakeup, create spark thread, label).
func (e *Event) Thread() uint32 { return uint32(e.Args[0]) }

// StopStatus returns the stop status of a KindStopThread event.
func (e *Event) StopStatus() StopStatus { return StopStatus(e.Args[1]) }

// Text returns Data as a string: the message of a log, user message or
// marker, a thread label, an RTS identifier, a sample label.
func (e *Event) Text() string { return string(e.Data) }

// Strings splits Data into its NUL-terminated strings (program arguments and
// environment, heap profile filters, cost centre names, IPE fields, ticky
// definitions). A final string without its NUL is kept.
func (e *Event) Strings() []string {
	var out []string
	b := e.Data
	if e.Kind == KindHeapProfCostCentre && len(b) > 0 {
		b = b[:len(b)-1] // the trailing flags byte
	}
	for len(b) > 0 {
		i := 0
		for i < len(b) && b[i] != 0 {
			i++
		}
		out = append(out, string(b[:i]))
		if i == len(b) {
			break
		}
		b = b[i+1:]
	}
	return out
}

// StackLen returns the depth of the cost-centre stack of a heap or time
// profile sample (KindHeapProfSampleCostCentre, KindProfSampleCostCentre).
func (e *Event) StackLen() int { return len(e.Data) / 4 }

// Stack returns the i-th cost centre id of a sample's stack, innermost first.
func (e *Event) Stack(i int) uint32 { return binary.BigEndian.Uint32(e.Data[4*i:]) }

// CAF reports whether a KindHeapProfCostCentre event defines a CAF.
func (e *Event) CAF() bool { return e.Args[1]&1 != 0 }

// SparkCounts is a capability's cumulative spark counts, as a
// KindSparkCounters event gives them.
type SparkCounts struct {
	Created, Dud, Overflowed, Converted, GCd, Fizzled uint64
	// Remaining is the number of sparks in the pool.
	Remaining uint64
}

// SparkCounters returns the counts of a KindSparkCounters event (its fields
// in file order: created, dud, overflowed, converted, GC'd, fizzled,
// remaining).
func (e *Event) SparkCounters() SparkCounts {
	a := &e.Args
	return SparkCounts{Created: a[0], Dud: a[1], Overflowed: a[2], Converted: a[3], GCd: a[4], Fizzled: a[5], Remaining: a[6]}
}
