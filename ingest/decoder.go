package ingest

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// State is where a decoder stands in its stream.
type State uint8

// Decoder states. Only StateDecoding can change; the others are final.
const (
	// StateDecoding: more input may come.
	StateDecoding State = iota
	// StateComplete: the end-of-data marker was read.
	StateComplete
	// StateTruncated: the input ended inside an event, or before the end marker.
	StateTruncated
	// StateCorrupt: the input cannot be decoded past Status.Offset.
	StateCorrupt
)

// String returns "decoding", "complete", "truncated" or "corrupt".
func (s State) String() string {
	switch s {
	case StateComplete:
		return "complete"
	case StateTruncated:
		return "truncated"
	case StateCorrupt:
		return "corrupt"
	}
	return "decoding"
}

// Status is how a stream ended, or that it has not yet.
type Status struct {
	State State
	// Offset is the byte where decoding stopped: the start of the partial
	// event (truncated), the offending bytes (corrupt), or the end of the
	// end marker (complete).
	Offset int64
	// Reason says what is wrong with a corrupt stream.
	Reason string
	// Trailing counts bytes seen after the end marker, which are ignored.
	Trailing int64
}

// String returns "complete", "truncated at byte N" or "corrupt at byte N: reason".
func (s Status) String() string {
	switch s.State {
	case StateTruncated:
		return fmt.Sprintf("truncated at byte %d", s.Offset)
	case StateCorrupt:
		return fmt.Sprintf("corrupt at byte %d: %s", s.Offset, s.Reason)
	case StateComplete:
		if s.Trailing > 0 {
			return fmt.Sprintf("complete (%d bytes after the end marker ignored)", s.Trailing)
		}
		return "complete"
	}
	return "decoding"
}

// Err returns nil unless the stream is corrupt.
func (s Status) Err() error {
	if s.State == StateCorrupt {
		return fmt.Errorf("eventlog %s", s)
	}
	return nil
}

type phase uint8

const (
	phaseHeaderBegin phase = iota
	phaseTypes
	phaseDataBegin
	phaseData
	phaseDone
)

// Decoder decodes an eventlog incrementally: give it bytes with Feed as they
// arrive, in chunks of any size, take events with Next, and call End when no
// more input will come. Feeding a stream one byte at a time gives the same
// events as feeding it whole. A Decoder never panics on bad input and buffers
// at most one event (or header record) beyond what it has handed out.
type Decoder struct {
	buf  []byte
	pos  int   // next unread byte in buf
	base int64 // stream offset of buf[0]

	phase  phase
	ended  bool
	status Status
	header Header
	plans  []plan

	// stray is how many bytes of block markers came before the header
	// (see strayPrefix).
	stray int64

	blockCap  int32 // capability of the block being read
	remaining int64 // bytes left in that block
	// times checks events against their block's declared time range (see
	// blocktime.go).
	times blockTimes
}

// NewDecoder returns a decoder at the start of a stream.
func NewDecoder() *Decoder {
	return &Decoder{blockCap: NoCap}
}

// Feed appends input. It invalidates the Data and Raw of events returned so far.
func (d *Decoder) Feed(p []byte) {
	if d.phase == phaseDone {
		if d.status.State == StateComplete {
			d.status.Trailing += int64(len(p))
		}
		return
	}
	d.compact()
	d.buf = append(d.buf, p...)
}

// compact drops consumed bytes from the front of the buffer.
func (d *Decoder) compact() {
	if d.pos == 0 {
		return
	}
	n := copy(d.buf, d.buf[d.pos:])
	d.buf = d.buf[:n]
	d.base += int64(d.pos)
	d.pos = 0
}

// spare returns free buffer space of at least min bytes for a reader to fill;
// commit(n) then adds the n bytes written there.
func (d *Decoder) spare(min int) []byte {
	d.compact()
	if cap(d.buf)-len(d.buf) < min {
		nb := make([]byte, len(d.buf), 2*cap(d.buf)+min)
		copy(nb, d.buf)
		d.buf = nb
	}
	return d.buf[len(d.buf):cap(d.buf)]
}

func (d *Decoder) commit(n int) { d.buf = d.buf[:len(d.buf)+n] }

// End says that no more input will come. Next then returns the remaining
// complete events, and Status becomes final.
func (d *Decoder) End() { d.ended = true }

// Status returns how the stream ended; StateDecoding until it has.
func (d *Decoder) Status() Status { return d.status }

// Header returns the stream's header, or nil before it has been read.
func (d *Decoder) Header() *Header {
	// plans are built when the header end marker is read; phase alone cannot
	// tell, since a stream cut inside its header also ends in phaseDone.
	if d.phase < phaseDataBegin || d.plans == nil {
		return nil
	}
	return &d.header
}

// Stray returns how many bytes of block markers came before the header
// and were skipped: a GHC 9.0 RTS that starts logging again writes one
// (see strayPrefix).
func (d *Decoder) Stray() int64 { return d.stray }

// Offset returns the number of bytes consumed so far.
func (d *Decoder) Offset() int64 { return d.base + int64(d.pos) }

// Buffered returns the number of bytes fed but not yet consumed.
func (d *Decoder) Buffered() int { return len(d.buf) - d.pos }

func (d *Decoder) corrupt(off int64, format string, args ...any) bool {
	d.phase = phaseDone
	d.status = Status{State: StateCorrupt, Offset: off, Reason: fmt.Sprintf(format, args...)}
	return false
}

// starve is called when the buffered bytes do not hold what comes next: it
// reports truncation if the input has ended, and returns false either way.
func (d *Decoder) starve() bool {
	if d.ended {
		d.phase = phaseDone
		d.status = Status{State: StateTruncated, Offset: d.Offset()}
	}
	return false
}

func (d *Decoder) u16(at int) uint16 { return binary.BigEndian.Uint16(d.buf[d.pos+at:]) }
func (d *Decoder) u32(at int) uint32 { return binary.BigEndian.Uint32(d.buf[d.pos+at:]) }

// Next decodes the next event into ev. It returns false when it needs more
// input, or when the stream has ended (see Status).
func (d *Decoder) Next(ev *Event) bool {
	for {
		switch d.phase {
		case phaseHeaderBegin, phaseTypes, phaseDataBegin:
			if !d.readHeader() {
				return false
			}
		case phaseData:
			return d.readEvent(ev)
		default:
			return false
		}
	}
}

// readHeader advances through the header by whole records; it returns true
// once the data section begins.
func (d *Decoder) readHeader() bool {
	for {
		avail := len(d.buf) - d.pos
		switch d.phase {
		case phaseHeaderBegin:
			if d.stray == 0 {
				n, more := strayPrefix(d.buf[d.pos:])
				if more {
					return d.starve()
				}
				d.pos += n
				d.stray = int64(n)
				avail -= n
			}
			// Reject a stream as soon as its first bytes differ from the
			// magic, so even a tiny non-eventlog is called corrupt.
			if !bytes.HasPrefix([]byte(eventlogMagic), d.buf[d.pos:d.pos+min(avail, 8)]) {
				if d.stray > 0 {
					return d.corrupt(d.Offset(), "header begin marker not found after %d block markers", d.stray/strayMarkerLen)
				}
				return d.corrupt(d.Offset(), "header begin marker not found (not an eventlog)")
			}
			if avail < 8 {
				return d.starve()
			}
			d.pos += 8
			d.phase = phaseTypes
		case phaseTypes:
			if avail < 4 {
				return d.starve()
			}
			switch d.u32(0) {
			case markHETEnd:
				if avail < 8 {
					return d.starve()
				}
				if d.u32(4) != markHeaderEnd {
					return d.corrupt(d.Offset()+4, "header end marker not found")
				}
				d.pos += 8
				d.plans = d.header.finish()
				d.phase = phaseDataBegin
			case markETBegin:
				if !d.readEventType(avail) {
					return false
				}
			default:
				return d.corrupt(d.Offset(), "event type record expected in header, found %#08x", d.u32(0))
			}
		case phaseDataBegin:
			if avail < 4 {
				return d.starve()
			}
			if d.u32(0) != markDataBegin {
				return d.corrupt(d.Offset(), "data begin marker not found")
			}
			d.pos += 4
			d.phase = phaseData
			return true
		default:
			return true
		}
	}
}

// readEventType reads one whole event-type record from the header.
func (d *Decoder) readEventType(avail int) bool {
	const fixedPart = 4 + 2 + 2 + 4 // marker, id, size, description length
	if avail < fixedPart {
		return d.starve()
	}
	id := d.u16(4)
	size := int(d.u16(6))
	if size == 0xFFFF {
		size = VariableSize
	}
	descLen := int64(d.u32(8))
	if descLen > maxDescLen {
		return d.corrupt(d.Offset()+8, "event type %d: description length %d is implausible", id, descLen)
	}
	n := fixedPart + int(descLen)
	if avail < n+4 {
		return d.starve()
	}
	desc := string(d.buf[d.pos+fixedPart : d.pos+n])
	extraLen := int64(d.u32(n))
	if extraLen > maxDescLen {
		return d.corrupt(d.Offset()+int64(n), "event type %d: extension length %d is implausible", id, extraLen)
	}
	n += 4 + int(extraLen)
	if avail < n+4 {
		return d.starve()
	}
	if d.u32(n) != markETEnd {
		return d.corrupt(d.Offset()+int64(n), "event type %d: record end marker not found", id)
	}
	d.pos += n + 4
	d.header.Types = append(d.header.Types, EventType{ID: id, Size: size, Desc: desc})
	if why := d.header.checkHeader(d.Offset(), id); why != "" {
		return d.corrupt(d.Offset()-int64(n+4), "%s", why)
	}
	return true
}

// readEvent decodes one event of the data section.
func (d *Decoder) readEvent(ev *Event) bool {
	// buf is the unread input; one slice of it, so that each read below
	// is checked against its length once.
	buf := d.buf[d.pos:]
	if len(buf) < 2 {
		return d.starve()
	}
	id := binary.BigEndian.Uint16(buf)
	if id == idDataEnd {
		d.pos += 2
		d.phase = phaseDone
		d.status = Status{State: StateComplete, Offset: d.Offset(), Trailing: int64(len(d.buf) - d.pos)}
		return false
	}
	if int(id) >= len(d.plans) || !d.plans[id].declared {
		return d.corrupt(d.Offset(), "undeclared event type %d", id)
	}
	p := &d.plans[id]
	hdr, size := 10, p.size
	if size == VariableSize {
		if len(buf) < 12 {
			return d.starve()
		}
		hdr, size = 12, int(binary.BigEndian.Uint16(buf[10:]))
	}
	total := hdr + size
	if len(buf) < total {
		return d.starve()
	}
	buf = buf[:total]
	ev.Offset = d.base + int64(d.pos)
	ev.Type = id
	ev.Time = binary.BigEndian.Uint64(buf[2:])
	if p.fixedOnly {
		// decodePayload, in short, for fixed fields and nothing else.
		ev.Args = [MaxArgs]uint64{}
		ev.Data = nil
		ev.Kind = p.kind
		b := buf[hdr:]
		for i, w := range p.lay.fields {
			switch w {
			case 1:
				ev.Args[i] = uint64(b[0])
			case 2:
				ev.Args[i] = uint64(binary.BigEndian.Uint16(b))
			case 4:
				ev.Args[i] = uint64(binary.BigEndian.Uint32(b))
			case 8:
				ev.Args[i] = binary.BigEndian.Uint64(b)
			}
			b = b[w:]
		}
	} else {
		total -= d.decodePayload(ev, p, buf[hdr:])
	}
	ev.Raw = buf[:total]
	d.pos += total

	if ev.Kind == KindBlockMarker {
		d.blockCap = NoCap
		if ev.Args[2] != 0xFFFF {
			d.blockCap = int32(ev.Args[2])
		}
		ev.Cap = d.blockCap
		d.remaining = int64(ev.Args[0]) - int64(total)
		d.times.enter(d.blockCap, ev.Time, ev.Args[1])
		return true
	}
	ev.Cap = d.blockCap
	if d.remaining > 0 {
		if t := &d.times; t.in && ev.Time-t.lo <= t.hi-t.lo {
			// Within its block's range: the common case of check.
			t.faulty = false
			t.last = max(t.last, ev.Time)
		} else {
			t.check(ev)
		}
	}
	d.remaining -= int64(total)
	if d.remaining <= 0 {
		d.blockCap = NoCap
		d.times.leave()
	}
	return true
}

// decodePayload fills ev's Kind, Args and Data from the payload. It returns
// how many bytes at the end of the payload the event did not really occupy
// (only the IPE length quirk makes this non-zero).
func (d *Decoder) decodePayload(ev *Event, p *plan, b []byte) int {
	ev.Args = [MaxArgs]uint64{}
	ev.Data = nil
	ev.Kind = p.kind
	l := p.lay
	if l == nil || len(b) < l.size {
		ev.Kind = KindUnknown
		ev.Data = b
		return 0
	}
	at := 0
	for i, w := range l.fields {
		switch w {
		case 1:
			ev.Args[i] = uint64(b[at])
		case 2:
			ev.Args[i] = uint64(binary.BigEndian.Uint16(b[at:]))
		case 4:
			ev.Args[i] = uint64(binary.BigEndian.Uint32(b[at:]))
		case 8:
			ev.Args[i] = binary.BigEndian.Uint64(b[at:])
		}
		at += int(w)
	}
	switch ev.Kind {
	case KindStopThread:
		if d.header.GHC782 {
			ev.Args[1] = uint64(remap782(StopStatus(ev.Args[1])))
		}
	case KindNonmovingHeapCensus:
		if l.fields[0] == 1 {
			if ev.Args[0] >= 64 {
				return d.unknown(ev, b)
			}
			ev.Args[0] = 1 << ev.Args[0]
		}
	}
	rest := b[at:]
	switch l.tail {
	case tailRest:
		ev.Data = rest
	case tailStrs:
		n, ok := cstrings(rest, l.nstr)
		if !ok {
			return d.unknown(ev, b)
		}
		if l.nstr == 1 {
			ev.Data = rest[:n-1]
		} else {
			ev.Data = rest[:n]
		}
		if ev.Kind == KindIPE && n == len(rest)-1 {
			return 1 // GHC ≥ 9.10 declares one byte more than it writes
		}
	case tailStack:
		depth := int(ev.Args[len(l.fields)-1])
		if len(rest) < 4*depth {
			return d.unknown(ev, b)
		}
		ev.Data = rest[:4*depth]
	case tailCC:
		n, ok := cstrings(rest, 3)
		if !ok || n >= len(rest) {
			return d.unknown(ev, b)
		}
		ev.Args[1] = uint64(rest[n])
		ev.Data = rest[:n+1]
	case tailIntern:
		ev.Args[0] = uint64(binary.BigEndian.Uint32(b[len(b)-4:]))
		ev.Data = b[:len(b)-4]
	case tailTicky:
		n, ok := cstrings(rest, 2)
		if !ok {
			return d.unknown(ev, b)
		}
		ev.Data = rest[:n]
		if len(rest)-n >= 8 {
			ev.Args[2] = binary.BigEndian.Uint64(rest[n:])
		}
	}
	return 0
}

// unknown turns ev into a KindUnknown event carrying the raw payload.
func (d *Decoder) unknown(ev *Event, b []byte) int {
	ev.Kind = KindUnknown
	ev.Args = [MaxArgs]uint64{}
	ev.Data = b
	return 0
}

// cstrings measures count NUL-terminated strings at the start of b and
// returns their total length including the NULs; ok is false if b holds
// fewer. count 0 means: all of b, which must end in a NUL or be empty.
func cstrings(b []byte, count int) (n int, ok bool) {
	if count == 0 {
		return len(b), len(b) == 0 || b[len(b)-1] == 0
	}
	for i := 0; i < count; i++ {
		j := n
		for j < len(b) && b[j] != 0 {
			j++
		}
		if j == len(b) {
			return 0, false
		}
		n = j + 1
	}
	return n, true
}

// remap782 translates a GHC 7.8.2 stop status to the standard numbering:
// 7.8.2 inserted BlockedOnMVarRead at 8 and shifted the rest up by one.
func remap782(s StopStatus) StopStatus {
	switch {
	case s == 8:
		return StopBlockedMVarRead
	case s > 8 && s <= 20:
		return s - 1
	}
	return s
}
