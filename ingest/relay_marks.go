package ingest

import (
	"encoding/binary"
	"strconv"
	"strings"
)

// hecscope marks two things in a stream it passes on or records, with Log
// message events (type 16, which every GHC header declares) whose text
// starts with "hecscope: ":
//
//   - a join mark, right after the header, when the stream was joined while
//     the program ran: the events up to the first block are state replayed
//     from earlier (see Replay), and the figures of the run hold only from
//     the time the mark gives;
//   - a cut mark, followed by the end marker, when a relayed stream stopped
//     without its end marker: the relay ends the stream on the wire so that
//     its viewers can take the next stream on the same connection, and the
//     cut mark says the stream is not complete (a Recorder records neither
//     the mark nor that end marker, so the recording reads as truncated).
const (
	joinPrefix = "hecscope: joined at "
	joinSuffix = " ns (earlier state replayed; figures hold from here)"
	cutText    = "hecscope: the stream was cut here (no end marker)"
)

// LateJoinThreshold is how late the first block of a stream may begin for
// the stream to count as following the program from its start. A stream's
// first block begins when the RTS starts logging (a few milliseconds after
// it starts) unless the stream was joined while the program ran, as a
// client of GHC's eventlog-socket that connects late is: the RTS then
// starts logging at the join.
const LateJoinThreshold = uint64(1e9)

// JoinMark reports whether ev is a join mark and, if so, the time (ns since
// the RTS started) from which the stream's figures hold.
func JoinMark(ev *Event) (at uint64, ok bool) {
	if ev.Kind != KindLogMsg {
		return 0, false
	}
	s, ok := strings.CutPrefix(string(ev.Data), joinPrefix)
	if !ok {
		return 0, false
	}
	s, ok = strings.CutSuffix(s, joinSuffix)
	if !ok {
		return 0, false
	}
	at, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, false
	}
	return at, true
}

// IsCutMark reports whether ev is a relay's cut mark.
func IsCutMark(ev *Event) bool {
	return ev.Kind == KindLogMsg && string(ev.Data) == cutText
}

// canMark reports whether a stream with header h can carry marks: it
// declares Log message events of variable size.
func canMark(h *Header) bool {
	if h == nil {
		return false
	}
	t, ok := h.Lookup(uint16(KindLogMsg))
	return ok && t.Size == VariableSize
}

// appendLogMsg appends a Log message event with text at time t.
func appendLogMsg(b []byte, t uint64, text string) []byte {
	b = binary.BigEndian.AppendUint16(b, uint16(KindLogMsg))
	b = binary.BigEndian.AppendUint64(b, t)
	b = binary.BigEndian.AppendUint16(b, uint16(len(text)))
	return append(b, text...)
}

// appendJoinMark appends a join mark for time at.
func appendJoinMark(b []byte, at uint64) []byte {
	return appendLogMsg(b, at, joinPrefix+strconv.FormatUint(at, 10)+joinSuffix)
}

// appendCutEnd appends a cut mark at time t and the end marker.
func appendCutEnd(b []byte, t uint64) []byte {
	b = appendLogMsg(b, t, cutText)
	return binary.BigEndian.AppendUint16(b, idDataEnd)
}
