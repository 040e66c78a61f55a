package ingest

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// GHC numbers its capabilities densely from 0, and since 8.0 logs the
// creation of each (CapCreate, in the global block at startup; older RTSs
// declare their number with Startup). A block marker whose capability the
// log never created is corrupt (a flipped byte): its events are kept where
// the marker puts them, but the block is reported (CapFault), so that a
// picture with a capability missing and a strange one added does not pass
// for the run.

// CapFault is a block whose marker names a capability the log never
// created, or one far beyond those it has.
type CapFault struct {
	// Offset is the byte where the block's marker begins.
	Offset int64
	// Cap is the capability the marker claims.
	Cap int32
	// Events counts the block's events, its marker aside (-1 if they could
	// not be counted).
	Events int64
}

// String describes the fault: "the block at byte 2688 (4,099 events)
// claims capability 4095".
func (f CapFault) String() string {
	n := "events not counted"
	if f.Events >= 0 {
		n = thousands(f.Events) + " events"
	}
	return fmt.Sprintf("the block at byte %d (%s) claims capability %d", f.Offset, n, f.Cap)
}

// thousands formats n with commas between groups of three digits.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// CapFaults is what the blocks of a log claim that it never created: the
// first MaxTimeFaults such blocks in file order, how many there were and
// the events they hold.
type CapFaults struct {
	// First holds the earliest faulty blocks in the file.
	First []CapFault
	// Count is the number of faulty blocks, including those not in First.
	Count int64
	// Events counts the events of all of them (those that could be
	// counted).
	Events int64
	// Created says whether the log records the creation of its
	// capabilities (CapCreate, or Startup's count); if not, a block is
	// faulty only when its capability lies far beyond the others.
	Created bool
}

// String says how many blocks claim impossible capabilities and where the
// first is; "" if none.
func (t CapFaults) String() string {
	if t.Count == 0 {
		return ""
	}
	why := "which the log never created"
	if !t.Created {
		why = "far beyond the capabilities the log has"
	}
	if t.Count == 1 && len(t.First) == 1 {
		return t.First[0].String() + ", " + why
	}
	s := fmt.Sprintf("%d blocks (%s events) claim capabilities %s", t.Count, thousands(t.Events), why)
	if len(t.First) > 0 {
		s += " (first: " + t.First[0].String() + ")"
	}
	return s
}

// FarCaps is how far beyond the capabilities a log has (when it does not
// record their creation) a block's capability may lie before it is taken
// for a corrupt marker.
const FarCaps = 64

// FindCapFaults returns the blocks of ix whose capability is not among
// created, the capabilities the log created (CapCreate or CapsetAssignCap
// events, Startup's count). If created is empty (a log that does not record
// them), it returns the blocks whose capability lies FarCaps or more beyond
// the number of distinct capabilities the blocks have. The events of a
// faulty block not yet decoded (Piece.Known) are counted by decoding it
// from r.
func FindCapFaults(r io.ReaderAt, ix *Index, created []int32) CapFaults {
	out := CapFaults{Created: len(created) > 0}
	faulty := func(c int32) bool { return !slices.Contains(created, c) }
	if len(created) == 0 {
		var caps []int32
		for _, p := range ix.Pieces {
			if p.Block && p.Cap != NoCap && !slices.Contains(caps, p.Cap) {
				caps = append(caps, p.Cap)
			}
		}
		faulty = func(c int32) bool { return int(c) >= len(caps)+FarCaps }
	}
	var pr *pieceReader
	for _, p := range ix.Pieces {
		if !p.Block || p.Cap == NoCap || !faulty(p.Cap) {
			continue
		}
		n := p.Events - 1 // Piece.Events counts the marker
		if !p.Known {
			if pr == nil {
				pr = newPieceReader(r, ix)
			}
			n = countPiece(pr, p)
		}
		out.Count++
		if n > 0 {
			out.Events += n
		}
		if len(out.First) < MaxTimeFaults {
			out.First = append(out.First, CapFault{Offset: p.Offset, Cap: p.Cap, Events: n})
		}
	}
	return out
}

// countPiece decodes block p to count its events, its marker aside; -1 if r
// cannot be read.
func countPiece(pr *pieceReader, p Piece) int64 {
	pr.reset(p)
	var ev Event
	var n int64
	for pr.next(&ev) {
		n++
	}
	if pr.err != nil {
		pr.err = nil
		return -1
	}
	return max(n-1, 0)
}
