package ingest

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// This file renders events as the text that `ghc-events show` prints: the
// per-event text (AppendEventText), whole lines (AppendEventLine), and the
// whole document, "Event Types:" list then the events stable-sorted by
// timestamp (WriteShow, or ShowBuffer for logs too big to keep as Events).
//
// The target is the printer of current ghc-events (HEAD of June 2026). Where
// that version no longer decodes something older GHCs wrote (the 6-byte
// STOP_THREAD of GHC ≤ 7.0, RUN_SPARK, STEAL_SPARK, SHUTDOWN), the text is
// the one older ghc-events printed for it instead of the bare description.
// Where ghc-events would reject the whole file (invalid UTF-8, a stop status
// or heap-profile breakdown it does not know, an Eden message tag out of
// range), the event is still printed: invalid UTF-8 becomes U+FFFD and
// unknown codes print as "unknown … N".

// AppendEventText appends to dst the text `ghc-events show` prints for ev
// after the "<timestamp>: " and "cap <n>: " prefixes, without a newline (a
// block marker's extra blank line is added by AppendEventLine). h supplies the
// descriptions of unknown events and the declared sizes that choose between
// layouts; it may be nil. For fixed-size events it does not allocate beyond
// growing dst.
func AppendEventText(dst []byte, h *Header, ev *Event) []byte {
	a := &ev.Args
	switch ev.Kind {
	case KindBlockMarker:
		dst = append(dst, "event block: cap "...)
		dst = appendUint(dst, a[2])
		dst = append(dst, ", end time: "...)
		return appendUint(dst, a[1])
	case KindStartup:
		dst = append(dst, "startup: "...)
		dst = appendUint(dst, a[0])
		return append(dst, " capabilities"...)
	case KindCreateThread:
		return appendUint(append(dst, "creating thread "...), a[0])
	case KindRunThread:
		return appendUint(append(dst, "running thread "...), a[0])
	case KindStopThread:
		dst = appendUint(append(dst, "stopping thread "...), a[0])
		dst = append(dst, " ("...)
		dst = appendStopStatus(dst, StopStatus(a[1]), a[2])
		return append(dst, ')')
	case KindThreadRunnable:
		dst = appendUint(append(dst, "thread "...), a[0])
		return append(dst, " is runnable"...)
	case KindMigrateThread:
		dst = appendUint(append(dst, "migrating thread "...), a[0])
		return appendUint(append(dst, " to cap "...), a[1])
	case KindRunSpark:
		return append(dst, "running a local spark"...)
	case KindStealSpark:
		return appendUint(append(dst, "stealing a spark from cap "...), a[1])
	case KindShutdown:
		return append(dst, "shutting down"...)
	case KindThreadWakeup:
		dst = appendUint(append(dst, "waking up thread "...), a[0])
		return appendUint(append(dst, " on cap "...), a[1])
	case KindCreateSparkThread:
		return appendUint(append(dst, "creating spark thread "...), a[0])
	case KindSparkCounters:
		dst = appendUint(append(dst, "spark stats: "...), a[0])
		dst = appendUint(append(dst, " created, "...), a[3])
		dst = appendUint(append(dst, " converted, "...), a[6])
		dst = appendUint(append(dst, " remaining ("...), a[2])
		dst = appendUint(append(dst, " overflowed, "...), a[1])
		dst = appendUint(append(dst, " dud, "...), a[4])
		dst = appendUint(append(dst, " GC'd, "...), a[5])
		return append(dst, " fizzled)"...)
	case KindSparkCreate:
		return append(dst, "spark created"...)
	case KindSparkDud:
		return append(dst, "dud spark discarded"...)
	case KindSparkOverflow:
		return append(dst, "overflowed spark discarded"...)
	case KindSparkRun:
		return append(dst, "running a local spark"...)
	case KindSparkSteal:
		return appendUint(append(dst, "stealing a spark from cap "...), a[0])
	case KindSparkFizzle:
		return append(dst, "spark fizzled"...)
	case KindSparkGC:
		return append(dst, "spark GCed"...)
	case KindTaskCreate:
		dst = appendHex(append(dst, "task 0x"...), a[0])
		dst = appendUint(append(dst, " created on cap "...), a[1])
		return appendUint(append(dst, " with OS kernel thread "...), a[2])
	case KindTaskMigrate:
		dst = appendHex(append(dst, "task 0x"...), a[0])
		dst = appendUint(append(dst, " migrated from cap "...), a[1])
		return appendUint(append(dst, " to cap "...), a[2])
	case KindTaskDelete:
		dst = appendHex(append(dst, "task 0x"...), a[0])
		return append(dst, " deleted"...)
	case KindThreadLabel:
		dst = appendUint(append(dst, "thread "...), a[0])
		dst = appendText(append(dst, " has label \""...), ev.Data)
		return append(dst, '"')
	case KindRequestSeqGC:
		return append(dst, "requesting sequential GC"...)
	case KindRequestParGC:
		return append(dst, "requesting parallel GC"...)
	case KindGCStart:
		return append(dst, "starting GC"...)
	case KindGCEnd:
		return append(dst, "finished GC"...)
	case KindGCWork:
		return append(dst, "GC working"...)
	case KindGCIdle:
		return append(dst, "GC idle"...)
	case KindGCDone:
		return append(dst, "GC done"...)
	case KindGCGlobalSync:
		return append(dst, "all caps stopped for GC"...)
	case KindGCStatsGHC:
		dst = appendUint(append(dst, "GC stats for heap capset "...), a[0])
		dst = appendUint(append(dst, ": generation "...), a[1])
		dst = appendUint(append(dst, ", "...), a[2])
		dst = appendUint(append(dst, " bytes copied, "...), a[3])
		dst = appendUint(append(dst, " bytes slop, "...), a[4])
		dst = appendUint(append(dst, " bytes fragmentation, "...), a[5])
		dst = appendUint(append(dst, " par threads, "...), a[6])
		dst = appendUint(append(dst, " bytes max par copied, "...), a[7])
		dst = append(dst, " bytes total par copied"...)
		if gcStatsBalanced(h, ev) {
			dst = appendUint(append(dst, ", "...), a[8])
			dst = append(dst, " bytes balanced par copied"...)
		}
		return dst
	case KindMemReturn:
		dst = appendUint(append(dst, "memory returned (mblocks): current("...), a[1])
		dst = appendUint(append(dst, ") needed("...), a[2])
		dst = appendUint(append(dst, ") returned("...), a[3])
		return append(dst, ')')
	case KindHeapAllocated:
		dst = appendUint(append(dst, "allocated on heap capset "...), a[0])
		dst = appendUint(append(dst, ": "...), a[1])
		return append(dst, " total bytes till now"...)
	case KindHeapSize:
		dst = appendUint(append(dst, "size of heap capset "...), a[0])
		dst = appendUint(append(dst, ": "...), a[1])
		return append(dst, " bytes"...)
	case KindBlocksSize:
		dst = appendUint(append(dst, "blocks size of heap capset "...), a[0])
		dst = appendUint(append(dst, ": "...), a[1])
		return append(dst, " bytes"...)
	case KindHeapLive:
		dst = appendUint(append(dst, "live data in heap capset "...), a[0])
		dst = appendUint(append(dst, ": "...), a[1])
		return append(dst, " bytes"...)
	case KindHeapInfoGHC:
		dst = appendUint(append(dst, "heap stats for heap capset "...), a[0])
		dst = appendUint(append(dst, ": generations "...), a[1])
		dst = appendUint(append(dst, ", "...), a[2])
		dst = appendUint(append(dst, " bytes max heap size, "...), a[3])
		dst = appendUint(append(dst, " bytes alloc area size, "...), a[4])
		dst = appendUint(append(dst, " bytes mblock size, "...), a[5])
		return append(dst, " bytes block size"...)
	case KindCapCreate:
		return appendUint(append(dst, "created cap "...), a[0])
	case KindCapDelete:
		return appendUint(append(dst, "deleted cap "...), a[0])
	case KindCapDisable:
		return appendUint(append(dst, "disabled cap "...), a[0])
	case KindCapEnable:
		return appendUint(append(dst, "enabled cap "...), a[0])
	case KindLogMsg, KindUserMsg:
		return appendText(dst, ev.Data)
	case KindUserMarker:
		return appendText(append(dst, "marker: "...), ev.Data)
	case KindCapsetCreate:
		dst = appendUint(append(dst, "created capset "...), a[0])
		dst = append(dst, " of type "...)
		switch CapsetType(a[1]) {
		case CapsetCustom:
			return append(dst, "CapsetCustom"...)
		case CapsetOSProcess:
			return append(dst, "CapsetOsProcess"...)
		case CapsetClockDomain:
			return append(dst, "CapsetClockDomain"...)
		}
		return append(dst, "CapsetUnknown"...)
	case KindCapsetDelete:
		return appendUint(append(dst, "deleted capset "...), a[0])
	case KindCapsetAssignCap:
		dst = appendUint(append(dst, "assigned cap "...), a[1])
		return appendUint(append(dst, " to capset "...), a[0])
	case KindCapsetRemoveCap:
		dst = appendUint(append(dst, "removed cap "...), a[1])
		return appendUint(append(dst, " from capset "...), a[0])
	case KindOSProcessPid:
		dst = appendUint(append(dst, "capset "...), a[0])
		return appendUint(append(dst, ": pid "...), a[1])
	case KindOSProcessPpid:
		dst = appendUint(append(dst, "capset "...), a[0])
		return appendUint(append(dst, ": parent pid "...), a[1])
	case KindWallClockTime:
		dst = appendUint(append(dst, "capset "...), a[0])
		dst = appendUint(append(dst, ": wall clock time "...), a[1])
		dst = appendUint(append(dst, "s "...), a[2])
		return append(dst, "ns (unix epoch)"...)
	case KindRTSIdentifier:
		dst = appendUint(append(dst, "capset "...), a[0])
		dst = appendText(append(dst, ": RTS version \""...), ev.Data)
		return append(dst, '"')
	case KindProgramArgs:
		dst = appendUint(append(dst, "capset "...), a[0])
		return appendShowList(append(dst, ": args: "...), ev.Data)
	case KindProgramEnv:
		dst = appendUint(append(dst, "capset "...), a[0])
		return appendShowList(append(dst, ": env: "...), ev.Data)
	case KindInternString:
		dst = appendLatin1(append(dst, "Interned string: \""...), ev.Data)
		return appendUint(append(dst, "\" with id "...), a[0])
	case KindEdenVersion:
		return appendLatin1(append(dst, "compiler version is "...), ev.Data)
	case KindEdenInvocation:
		return appendLatin1(append(dst, "program invocation: "...), ev.Data)
	case KindEdenStartReceive:
		return append(dst, "starting to receive"...)
	case KindEdenEndReceive:
		return append(dst, "stop receiving"...)
	case KindEdenCreateProcess:
		return appendUint(append(dst, "creating process "...), a[0])
	case KindEdenKillProcess:
		return appendUint(append(dst, "killing process "...), a[0])
	case KindEdenAssignThread:
		dst = appendUint(append(dst, "assigning thread "...), a[0])
		return appendUint(append(dst, " to process "...), a[1])
	case KindEdenCreateMachine:
		dst = appendUint(append(dst, "creating machine "...), a[0])
		return appendUint(append(dst, " at "...), a[1])
	case KindEdenKillMachine:
		return appendUint(append(dst, "killing machine "...), a[0])
	case KindEdenSendMessage:
		dst = appendEdenTag(append(dst, "sending message with tag "...), a[0])
		dst = appendUint(append(dst, " from process "...), a[1])
		dst = appendUint(append(dst, ", thread "...), a[2])
		dst = appendUint(append(dst, " to machine "...), a[3])
		dst = appendUint(append(dst, ", process "...), a[4])
		return appendUint(append(dst, " on inport "...), a[5])
	case KindEdenReceiveMessage:
		dst = appendEdenTag(append(dst, "receiving message with tag "...), a[0])
		dst = appendUint(append(dst, " at process "...), a[1])
		dst = appendUint(append(dst, ", inport "...), a[2])
		dst = appendUint(append(dst, " from machine "...), a[3])
		dst = appendUint(append(dst, ", process "...), a[4])
		dst = appendUint(append(dst, ", thread "...), a[5])
		return appendUint(append(dst, " with size "...), a[6])
	case KindEdenSendReceiveLocal:
		dst = appendEdenTag(append(dst, "sending/receiving message with tag "...), a[0])
		dst = appendUint(append(dst, " from process "...), a[1])
		dst = appendUint(append(dst, ", thread "...), a[2])
		dst = appendUint(append(dst, " to process "...), a[3])
		return appendUint(append(dst, " on inport "...), a[4])
	case KindMerStartParConjunction:
		dst = appendHex(append(dst, "Start a parallel conjunction 0x"...), a[0])
		return appendUint(append(dst, ", static_id: "...), a[1])
	case KindMerStopParConjunction:
		return appendHex(append(dst, "End par conjunction: 0x"...), a[0])
	case KindMerStopParConjunct:
		return appendHex(append(dst, "End par conjunct: 0x"...), a[0])
	case KindMerCreateSpark:
		dst = appendHex(append(dst, "Create spark for conjunction: 0x"...), a[0])
		return appendHex(append(dst, " spark: 0x"...), a[1])
	case KindMerFutureCreate:
		dst = appendHex(append(dst, "Create future 0x"...), a[0])
		return appendUint(append(dst, " named "...), a[1])
	case KindMerFutureWaitNoSuspend:
		return appendHex(append(dst, "Wait didn't suspend for future: 0x"...), a[0])
	case KindMerFutureWaitSuspended:
		return appendHex(append(dst, "Wait suspended on future: 0x"...), a[0])
	case KindMerFutureSignal:
		return appendHex(append(dst, "Signaled future 0x"...), a[0])
	case KindMerLookingForGlobal:
		return append(dst, "Looking for global thread to resume"...)
	case KindMerWorkStealing:
		return append(dst, "Trying to steal a spark"...)
	case KindMerLookingForLocal:
		return append(dst, "Looking for a local spark to execute"...)
	case KindMerReleaseContext:
		dst = appendUint(append(dst, "Releasing thread "...), a[0])
		return append(dst, " to the free pool"...)
	case KindMerEngineSleeping:
		return append(dst, "Capability going to sleep"...)
	case KindMerCallingMain:
		return append(dst, "About to call the program entry point"...)
	case KindPerfName:
		dst = appendUint(append(dst, "perf event "...), a[0])
		dst = appendText(append(dst, " named \""...), ev.Data)
		return append(dst, '"')
	case KindPerfCounter:
		dst = appendUint(append(dst, "perf event counter "...), a[0])
		dst = appendUint(append(dst, " incremented by "...), a[2]+1)
		return appendUint(append(dst, " in OS thread "...), a[1])
	case KindPerfTracepoint:
		dst = appendUint(append(dst, "perf event tracepoint "...), a[0])
		return appendUint(append(dst, " reached in OS thread "...), a[1])
	case KindHeapProfBegin:
		dst = appendUint(append(dst, "start heap profiling "...), a[0])
		dst = appendUint(append(dst, " at sampling period "...), a[1])
		dst = appendBreakdown(append(dst, " broken down by "...), Breakdown(a[2]))
		first := true
		for s, rest := nextCString(ev.Data); s != nil || len(rest) > 0; s, rest = nextCString(rest) {
			if len(s) == 0 {
				continue
			}
			if first {
				dst = append(dst, " filtered by "...)
				first = false
			}
			dst = append(appendText(dst, s), ", "...)
		}
		return dst
	case KindHeapProfCostCentre:
		label, rest := nextCString(ev.Data)
		module, rest := nextCString(rest)
		loc, _ := nextCString(rest)
		dst = appendUint(append(dst, "cost centre "...), a[0])
		dst = appendText(append(dst, ' '), label)
		dst = appendText(append(dst, " in "...), module)
		dst = appendText(append(dst, " at "...), loc)
		if ev.CAF() {
			dst = append(dst, " CAF"...)
		}
		return dst
	case KindIPE:
		table, rest := nextCString(ev.Data)
		closure, rest := nextCString(rest)
		_, rest = nextCString(rest) // type description
		_, rest = nextCString(rest) // label
		_, rest = nextCString(rest) // module
		loc, _ := nextCString(rest)
		dst = appendHex(append(dst, "Info Table: "...), a[0])
		dst = appendClosureType(append(dst, ':'), closure)
		dst = appendText(append(dst, ':'), table)
		return appendText(append(dst, " - "...), loc)
	case KindHeapProfSampleBegin:
		return appendUint(append(dst, "start heap prof sample "...), a[0])
	case KindHeapProfSampleEnd:
		return appendUint(append(dst, "end prof sample "...), a[0])
	case KindHeapBioProfSampleBegin:
		dst = appendUint(append(dst, "start heap prof sample "...), a[0])
		return appendUint(append(dst, " at time "...), a[1])
	case KindHeapProfSampleCostCentre:
		dst = appendUint(append(dst, "heap prof sample "...), a[0])
		dst = appendUint(append(dst, ", residency "...), a[1])
		return appendStack(append(dst, ", cost centre stack "...), ev)
	case KindHeapProfSampleString:
		dst = appendUint(append(dst, "heap prof sample "...), a[0])
		dst = appendUint(append(dst, ", residency "...), a[1])
		return appendText(append(dst, ", label "...), ev.Data)
	case KindProfSampleCostCentre:
		// ghc-events keeps only the low 16 bits of the capability number.
		dst = appendUint(append(dst, "cap no "...), uint64(uint16(a[0])))
		dst = appendUint(append(dst, ", prof sample "...), a[1])
		return appendStack(append(dst, ", cost centre stack "...), ev)
	case KindProfBegin:
		dst = appendUint(append(dst, "start time profiling, tick interval "...), a[0])
		return append(dst, " (ns)"...)
	case KindUserBinaryMsg:
		return appendPrintable(append(dst, "binary message "...), ev.Data)
	case KindConcMarkBegin:
		return append(dst, "concurrent mark began"...)
	case KindConcMarkEnd:
		dst = appendUint(append(dst, "concurrent mark ended: marked "...), a[0])
		return append(dst, " objects"...)
	case KindConcSyncBegin:
		return append(dst, "post-mark synchronization began"...)
	case KindConcSyncEnd:
		return append(dst, "post-mark synchronization ended"...)
	case KindConcSweepBegin:
		return append(dst, "concurrent sweep began"...)
	case KindConcSweepEnd:
		return append(dst, "concurrent sweep ended"...)
	case KindConcUpdRemSetFlush:
		return appendUint(append(dst, "update remembered set flushed by "...), a[0])
	case KindNonmovingHeapCensus:
		dst = appendUint(append(dst, "nonmoving heap census "...), a[0])
		dst = appendUint(append(dst, ": "...), a[1])
		dst = appendUint(append(dst, " active segments, "...), a[2])
		dst = appendUint(append(dst, " filled segments, "...), a[3])
		return append(dst, " live blocks"...)
	case KindNonmovingPrunedSegments:
		dst = appendUint(append(dst, "nonmoving segments pruned: "...), a[0])
		dst = appendUint(append(dst, " pruned segments, "...), a[1])
		return append(dst, " free segments retained"...)
	case KindTickyCounterDef:
		kinds, rest := nextCString(ev.Data)
		name, _ := nextCString(rest)
		dst = appendUint(append(dst, "ticky counter definition "...), a[0])
		dst = appendUint(append(dst, ", arity: "...), a[1])
		dst = appendText(append(dst, ", def kinds: "...), kinds)
		dst = appendText(append(dst, ", name: "...), name)
		return appendHex(append(dst, ", itbl: "...), a[2])
	case KindTickyCounterSample:
		dst = appendUint(append(dst, "ticky counter sample "...), a[0])
		dst = appendUint(append(dst, ": entry count: "...), a[1])
		dst = appendUint(append(dst, ", "...), a[2])
		dst = appendUint(append(dst, " allocs, "...), a[3])
		return append(dst, " allocd"...)
	case KindTickyBeginSample:
		return append(dst, "ticky begin counter sample"...)
	}
	// Unknown ids, undecodable payloads, ids a producer reused, and the
	// kinds ghc-events has no printer for (HackBugT9003): the description.
	if h != nil {
		if t, ok := h.Lookup(ev.Type); ok {
			return appendTextString(dst, t.Desc)
		}
	}
	return dst
}

// AppendEventLine appends the whole line `ghc-events show` prints for ev:
// "<timestamp>: ", "cap <n>: " when the event has a capability, the text and
// a newline; a block marker is followed by a blank line.
func AppendEventLine(dst []byte, h *Header, ev *Event) []byte {
	dst = append(appendUint(dst, ev.Time), ": "...)
	if ev.Cap != NoCap {
		dst = appendUint(append(dst, "cap "...), uint64(ev.Cap))
		dst = append(dst, ": "...)
	}
	dst = append(AppendEventText(dst, h, ev), '\n')
	if ev.Kind == KindBlockMarker {
		dst = append(dst, '\n')
	}
	return dst
}

// AppendEventTypes appends the head of the show document: "Event Types:", one
// "<id>: <description> (size <n>|variable)" line per declared type in header
// order, a blank line and "Events:".
func AppendEventTypes(dst []byte, h *Header) []byte {
	dst = append(dst, "Event Types:\n"...)
	if h != nil {
		for _, t := range h.Types {
			dst = appendUint(dst, uint64(t.ID))
			dst = appendTextString(append(dst, ": "...), t.Desc)
			if t.Size == VariableSize {
				dst = append(dst, " (size variable)\n"...)
			} else {
				dst = appendUint(append(dst, " (size "...), uint64(t.Size))
				dst = append(dst, ")\n"...)
			}
		}
	}
	return append(dst, "\nEvents:\n"...)
}

// ShowFile writes the show document of the eventlog in r (size bytes), as
// WriteShow would for all its events, in memory that does not grow with
// the log: the capabilities' streams are merged in time order (see
// Merge). It returns the log's status. If the log's events are too far out
// of time order for that, or its data section cannot be indexed, it reads
// the whole log into a ShowBuffer instead.
func ShowFile(w io.Writer, r io.ReaderAt, size int64) (Status, error) {
	ix, err := NewIndex(r, size)
	if err != nil {
		return Status{}, err
	}
	if ix.Status.State == StateCorrupt {
		return showBuffered(w, r, size)
	}
	// First make sure each stream sorts within the window: no event earlier
	// than one sortWindow events before it. This pass only decodes.
	var unsorted atomic.Bool
	m := NewMerge(r, ix, MergeOptions{Tap: func(int32) func(*Event) bool {
		var ring [sortWindow]uint64
		var n int
		var old uint64 // the latest time sortWindow or more events back
		return func(e *Event) bool {
			if n >= sortWindow {
				old = max(old, ring[n%sortWindow])
				if e.Time < old {
					unsorted.Store(true)
				}
			}
			ring[n%sortWindow] = e.Time
			n++
			return false
		}
	}})
	for m.Next() != nil {
	}
	// A corrupt stream ends the sequential reading for all: leave it to
	// the plain decoder too.
	if unsorted.Load() || m.Status().State == StateCorrupt {
		return showBuffered(w, r, size)
	}
	m = NewMerge(r, ix, MergeOptions{Sorted: true})
	sw := newShowWriter(w, ix.Header)
	for e := m.Next(); e != nil; e = m.Next() {
		sw.event(e)
	}
	if err := m.Err(); err != nil {
		return Status{}, err
	}
	if m.Unsorted() {
		// Cannot be, after the first pass: the window holds what it found.
		return Status{}, errors.New("eventlog events out of time order beyond the sorting window")
	}
	return m.Status(), sw.finish()
}

// showBuffered is ShowFile through a ShowBuffer holding every event.
func showBuffered(w io.Writer, r io.ReaderAt, size int64) (Status, error) {
	rd := NewReader(io.NewSectionReader(r, 0, size))
	var buf ShowBuffer
	var ev Event
	for rd.Next(&ev) {
		buf.Add(&ev)
	}
	if err := rd.Err(); err != nil {
		return rd.Status(), err
	}
	if h := rd.Header(); h != nil {
		if err := buf.WriteShow(w, h); err != nil {
			return rd.Status(), err
		}
	}
	return rd.Status(), nil
}

// showWriter writes a show document through a buffer.
type showWriter struct {
	bw  *bufio.Writer
	h   *Header
	buf []byte
	err error
}

func newShowWriter(w io.Writer, h *Header) *showWriter {
	sw := &showWriter{bw: bufio.NewWriterSize(w, 1<<16), h: h, buf: make([]byte, 0, 1024)}
	sw.write(AppendEventTypes(sw.buf[:0], h))
	return sw
}

func (sw *showWriter) write(b []byte) {
	if sw.err == nil {
		_, sw.err = sw.bw.Write(b)
	}
	sw.buf = b[:0]
}

func (sw *showWriter) event(ev *Event) { sw.write(AppendEventLine(sw.buf, sw.h, ev)) }

func (sw *showWriter) finish() error {
	sw.write(append(sw.buf, '\n'))
	if sw.err == nil {
		sw.err = sw.bw.Flush()
	}
	if sw.err != nil {
		return fmt.Errorf("writing event listing: %w", sw.err)
	}
	return nil
}

// ShowBuffer collects events compactly, in any number, and writes them as a
// show document (see WriteShow). Each event costs a 16-byte index record plus
// its varint-packed fields and Data in a chunked arena: about 25 bytes for a
// typical event instead of the ~150 of an Event, and no large reallocation
// as the log grows. Sorting is done per index chunk, in parallel, and the
// chunks are merged while writing.
type ShowBuffer struct {
	index [][]showRec // chunks of at most showIndexChunk records
	arena [][]byte    // chunks of at most showChunkSize bytes
	n     int
}

// showRec locates one collected event: its timestamp, and where its packed
// form starts (arena chunk << showChunkBits | position). Positions grow in
// the order events were added, which makes sorting by (time, at) stable.
type showRec struct {
	time uint64
	at   uint64
}

func (x showRec) cmp(y showRec) int {
	if c := cmpUint(x.time, y.time); c != 0 {
		return c
	}
	return cmpUint(x.at, y.at)
}

const (
	showChunkBits = 22
	showChunkSize = 1 << showChunkBits
	// showMaxPacked bounds one packed event: kind, type, cap, arg count, nine
	// args and the data length as varints, then the data (at most 64 KiB).
	showMaxPacked = 2 + 2 + 5 + 1 + MaxArgs*binary.MaxVarintLen64 + 3 + 1<<16
)

// showIndexChunk is how many index records one chunk holds (a variable so
// that tests can exercise the merge with few events).
var showIndexChunk = 1 << 20

// Add collects a copy of ev (its Data is copied; Raw and Offset are dropped).
func (b *ShowBuffer) Add(ev *Event) {
	need := showMaxPacked
	if len(ev.Data) < 1<<16 {
		need = showMaxPacked - 1<<16 + len(ev.Data)
	}
	n := len(b.arena)
	if n == 0 || cap(b.arena[n-1])-len(b.arena[n-1]) < need {
		size := 1 << 16
		if n > 0 {
			size = min(2*cap(b.arena[n-1]), showChunkSize)
		}
		b.arena = append(b.arena, make([]byte, 0, max(size, need)))
		n++
	}
	c := b.arena[n-1]
	rec := showRec{time: ev.Time, at: uint64(n-1)<<showChunkBits | uint64(len(c))}
	c = binary.BigEndian.AppendUint16(c, uint16(ev.Kind))
	c = binary.BigEndian.AppendUint16(c, ev.Type)
	c = binary.AppendUvarint(c, uint64(ev.Cap+1))
	nargs := MaxArgs
	for nargs > 0 && ev.Args[nargs-1] == 0 {
		nargs--
	}
	c = append(c, byte(nargs))
	for _, v := range ev.Args[:nargs] {
		c = binary.AppendUvarint(c, v)
	}
	c = binary.AppendUvarint(c, uint64(len(ev.Data)))
	b.arena[n-1] = append(c, ev.Data...)

	k := len(b.index) - 1
	if k < 0 || (len(b.index[k]) == cap(b.index[k]) && cap(b.index[k]) >= showIndexChunk) {
		// The first chunk grows like any slice; later ones are made whole.
		size := 0
		if k >= 0 {
			size = showIndexChunk
		}
		b.index = append(b.index, make([]showRec, 0, size))
		k++
	}
	b.index[k] = append(b.index[k], rec)
	b.n++
}

// event unpacks the collected event r into ev; ev.Data aliases the buffer.
func (b *ShowBuffer) event(r showRec, ev *Event) {
	c := b.arena[r.at>>showChunkBits][r.at&(showChunkSize-1):]
	*ev = Event{Time: r.time, Offset: -1}
	ev.Kind = Kind(binary.BigEndian.Uint16(c))
	ev.Type = binary.BigEndian.Uint16(c[2:])
	c = c[4:]
	v, k := binary.Uvarint(c)
	ev.Cap = int32(v) - 1
	c = c[k:]
	nargs := int(c[0])
	c = c[1:]
	for i := 0; i < nargs; i++ {
		ev.Args[i], k = binary.Uvarint(c)
		c = c[k:]
	}
	v, k = binary.Uvarint(c)
	if v > 0 {
		ev.Data = c[k : k+int(v)]
	}
}

// sort sorts every index chunk by (time, at), several at once.
func (b *ShowBuffer) sort() {
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for _, chunk := range b.index {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			slices.SortFunc(chunk, showRec.cmp)
			<-sem
		}()
	}
	wg.Wait()
}

// WriteShow sorts the collected events by timestamp (stably) and writes the
// show document for them; see the function WriteShow. The buffer stays
// usable: more events may be added and the document written again.
func (b *ShowBuffer) WriteShow(w io.Writer, h *Header) error {
	b.sort()
	sw := newShowWriter(w, h)
	var ev Event
	// Merge the sorted chunks: heads is a min-heap of the chunks' unread
	// remainders, ordered by their first record.
	heads := make([][]showRec, 0, len(b.index))
	for _, chunk := range b.index {
		if len(chunk) > 0 {
			heads = append(heads, chunk)
		}
	}
	less := func(i, j int) bool { return heads[i][0].cmp(heads[j][0]) < 0 }
	down := func(i int) {
		for {
			l := 2*i + 1
			if l >= len(heads) {
				return
			}
			if r := l + 1; r < len(heads) && less(r, l) {
				l = r
			}
			if !less(l, i) {
				return
			}
			heads[i], heads[l] = heads[l], heads[i]
			i = l
		}
	}
	for i := len(heads)/2 - 1; i >= 0; i-- {
		down(i)
	}
	for len(heads) > 0 {
		b.event(heads[0][0], &ev)
		sw.event(&ev)
		if heads[0] = heads[0][1:]; len(heads[0]) == 0 {
			heads[0] = heads[len(heads)-1]
			heads = heads[:len(heads)-1]
		}
		down(0)
	}
	return sw.finish()
}

func cmpUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func appendUint(dst []byte, v uint64) []byte { return strconv.AppendUint(dst, v, 10) }

func appendHex(dst []byte, v uint64) []byte { return strconv.AppendUint(dst, v, 16) }

// gcStatsBalanced reports whether a GC_STATS_GHC event has the 58-byte layout
// with the balanced-copied field: the header's declared size decides, as it
// decides the layout; without a header, the size of the encoded event does.
func gcStatsBalanced(h *Header, ev *Event) bool {
	const balancedSize = 58
	if h != nil {
		if t, ok := h.Lookup(ev.Type); ok {
			return t.Size >= balancedSize
		}
	}
	return len(ev.Raw) >= 10+balancedSize
}

// appendStopStatus appends the text for a thread stop status. info is the
// owner of the black hole (status 8) or the stack size (status 2).
func appendStopStatus(dst []byte, s StopStatus, info uint64) []byte {
	switch s {
	case StopNoStatus, StopMigrating:
		return append(dst, "No stop thread status"...)
	case StopHeapOverflow:
		return append(dst, "heap overflow"...)
	case StopStackOverflow:
		return appendUint(append(dst, "stack overflow, size "...), info)
	case StopYielding:
		return append(dst, "thread yielding"...)
	case StopBlocked:
		return append(dst, "thread blocked"...)
	case StopFinished:
		return append(dst, "thread finished"...)
	case StopForeignCall:
		return append(dst, "making a foreign call"...)
	case StopBlockedMVar:
		return append(dst, "blocked on an MVar"...)
	case StopBlockedBlackHole:
		return appendUint(append(dst, "blocked on black hole owned by thread "...), info)
	case StopBlockedRead:
		return append(dst, "blocked on I/O read"...)
	case StopBlockedWrite:
		return append(dst, "blocked on I/O write"...)
	case StopBlockedDelay:
		return append(dst, "blocked on threadDelay"...)
	case StopBlockedSTM:
		return append(dst, "blocked in STM retry"...)
	case StopBlockedDoProc:
		return append(dst, "blocked on asyncDoProc"...)
	case StopBlockedCCall, StopBlockedCCallIntr:
		return append(dst, "blocked in a foreign call"...)
	case StopBlockedThrowTo:
		return append(dst, "blocked in throwTo"...)
	case StopBlockedMVarRead:
		return append(dst, "blocked reading an MVar"...)
	}
	return appendUint(append(dst, "unknown status "...), uint64(s))
}

// breakdownNames are the texts of the heap profile breakdowns, by code.
var breakdownNames = [...]string{
	BreakdownCostCentreStack: "cost centre",
	BreakdownModule:          "module",
	BreakdownClosureDescr:    "closure description",
	BreakdownTypeDescr:       "type description",
	BreakdownRetainer:        "retainer",
	BreakdownBiography:       "biography",
	BreakdownClosureType:     "closure type",
	BreakdownInfoTable:       "info table",
	BreakdownEra:             "era",
}

func appendBreakdown(dst []byte, b Breakdown) []byte {
	if int(b) < len(breakdownNames) && breakdownNames[b] != "" {
		return append(dst, breakdownNames[b]...)
	}
	return appendUint(append(dst, "unknown breakdown "...), uint64(b))
}

// edenTags are the names of Eden message tags, from 0x50 on.
var edenTags = [...]string{"Ready", "NewPE", "PETIDS", "Finish", "FailPE", "RFork",
	"Connect", "DataMes", "Head", "Constr", "Part", "Terminate", "Packet"}

func appendEdenTag(dst []byte, tag uint64) []byte {
	if tag >= 0x50 && tag-0x50 < uint64(len(edenTags)) {
		return append(dst, edenTags[tag-0x50]...)
	}
	return appendUint(append(dst, "unknown tag "...), tag)
}

// appendClosureType appends an IPE closure type the way ghc-events reads it:
// the decimal number at the start of the text. Text without one is appended
// as it is.
func appendClosureType(dst []byte, s []byte) []byte {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n == 0 {
		return appendText(dst, s)
	}
	for n > 1 && s[0] == '0' {
		s, n = s[1:], n-1
	}
	return append(dst, s[:n]...)
}

// appendStack appends a sample's cost-centre stack as "c1, c2, …".
func appendStack(dst []byte, ev *Event) []byte {
	for i, n := 0, ev.StackLen(); i < n; i++ {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = appendUint(dst, uint64(ev.Stack(i)))
	}
	return dst
}

// nextCString splits b at its first NUL: s is the string before it, rest
// what follows. Without a NUL, s is all of b. s is nil only when b is empty.
func nextCString(b []byte) (s, rest []byte) {
	if len(b) == 0 {
		return nil, nil
	}
	for i, c := range b {
		if c == 0 {
			return b[:i:i], b[i+1:]
		}
	}
	return b, nil
}

// appendText appends UTF-8 text, replacing each invalid byte with U+FFFD.
func appendText(dst []byte, s []byte) []byte {
	if utf8.Valid(s) {
		return append(dst, s...)
	}
	for len(s) > 0 {
		r, n := utf8.DecodeRune(s)
		dst = utf8.AppendRune(dst, r)
		s = s[n:]
	}
	return dst
}

// appendTextString is appendText for a string.
func appendTextString(dst []byte, s string) []byte {
	if utf8.ValidString(s) {
		return append(dst, s...)
	}
	for _, r := range s {
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}

// appendLatin1 appends bytes read as Latin-1 (each byte one code point), as
// ghc-events reads Eden and interned strings.
func appendLatin1(dst []byte, s []byte) []byte {
	for _, c := range s {
		dst = utf8.AppendRune(dst, rune(c))
	}
	return dst
}

// appendPrintable appends a binary message as ghc-events shows it: decoded as
// UTF-8, with each invalid byte and each character Haskell's isPrint rejects
// (categories Cc, Cf, Cs, Co, Cn, Zl, Zp) replaced by '.'.
func appendPrintable(dst []byte, s []byte) []byte {
	for len(s) > 0 {
		r, n := utf8.DecodeRune(s)
		switch {
		case r == utf8.RuneError && n == 1:
			dst = append(dst, '.')
		case r < utf8.RuneSelf:
			if r < 0x20 || r == 0x7f {
				dst = append(dst, '.')
			} else {
				dst = append(dst, byte(r))
			}
		case isPrint(r):
			dst = append(dst, s[:n]...)
		default:
			dst = append(dst, '.')
		}
		s = s[n:]
	}
	return dst
}

// isPrint is Haskell's Data.Char.isPrint for non-ASCII characters: letters,
// marks, numbers, punctuation, symbols and the space separator.
func isPrint(r rune) bool {
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs)
}

// appendShowList appends the NUL-separated strings of a PROGRAM_ARGS or
// PROGRAM_ENV event as Haskell's show prints a list of strings, after
// dropping all trailing NULs as ghc-events does (so no strings at all print
// as [""]).
func appendShowList(dst []byte, data []byte) []byte {
	for len(data) > 0 && data[len(data)-1] == 0 {
		data = data[:len(data)-1]
	}
	dst = append(dst, '[')
	for {
		i := bytes.IndexByte(data, 0)
		if i < 0 {
			break
		}
		dst = append(appendShowString(dst, data[:i]), ',')
		data = data[i+1:]
	}
	return append(appendShowString(dst, data), ']')
}

// asciiNames are Haskell's names for control characters, as escapes use them.
var asciiNames = [32]string{"NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "a",
	"b", "t", "n", "v", "f", "r", "SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4",
	"NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US"}

// appendShowString appends s (UTF-8, invalid bytes read as U+FFFD) as a
// Haskell string literal the way show writes it: \" and \\, named escapes for
// control characters, \DEL, decimal escapes above it, and "\&" after a decimal
// escape followed by a digit or after \SO followed by 'H'.
func appendShowString(dst []byte, s []byte) []byte {
	dst = append(dst, '"')
	for len(s) > 0 {
		r, n := utf8.DecodeRune(s)
		s = s[n:]
		switch {
		case r == '"':
			dst = append(dst, '\\', '"')
		case r == '\\':
			dst = append(dst, '\\', '\\')
		case r < 0x20:
			dst = append(append(dst, '\\'), asciiNames[r]...)
			if r == 0x0e && len(s) > 0 && s[0] == 'H' {
				dst = append(dst, '\\', '&')
			}
		case r < 0x7f:
			dst = append(dst, byte(r))
		case r == 0x7f:
			dst = append(dst, "\\DEL"...)
		default:
			dst = appendUint(append(dst, '\\'), uint64(r))
			if len(s) > 0 && s[0] >= '0' && s[0] <= '9' {
				dst = append(dst, '\\', '&')
			}
		}
	}
	return append(dst, '"')
}
