package timeline

// msgList keeps a HEC's messages and markers (user messages, user markers,
// log messages) in 8 bytes each rather than an Instant's 16: their times as
// 4-byte offsets (timeList), and their string and kind in one word. A log
// of user events holds tens of millions: with a grid, the user messages of
// a bucket holding collapseAt of them or more become one summary, at the
// time of the first, as a HEC's other instants do (instantList, which puts
// it at the bucket's start). Markers and log messages stay whole (a run
// has few, and the markers' readers want each), so that a summary is of
// user messages alone. It keeps where its messages end and the longest
// stretch between two of them: a pixel column of an overview, at least
// half a bucket wide, holds one of them exactly when it meets the summary's
// stretch and does not fall within that gap (within a bucket, no other gap
// can hold it).
type msgList struct {
	times timeList
	args  chunkList[uint32]
	sums  chunkList[msgSum] // the summaries, which args index
	last  uint64
	// The bucket being filled (with a grid): b, how many user messages
	// it holds, the time of the first and of the last, and the longest
	// gap between two; pend, its entries in order while its user messages
	// are fewer than collapseAt, its markers and log messages alone once
	// collapsed.
	open           bool
	collapsed      bool
	b              uint64
	n              uint32
	firstT, lastT  uint64
	gapFrom, gapTo uint64
	pend           []msgEntry
}

// msgEntry is one message as a msgList keeps it: its time and word.
type msgEntry struct {
	t uint64
	w uint32
}

// msgSum is a summary of n user messages of a bucket, from its time (the
// first's) to last ns later, with none between gapFrom and gapTo ns after
// it (the longest such stretch).
type msgSum struct {
	n, last, gapFrom, gapTo uint32
}

// Messages' kinds in the top bits of their word, the string below; a
// summary's word has the code msgSumCode and its index in sums below.
const (
	msgKindShift = 30
	msgStringMax = 1<<msgKindShift - 1
	msgSumCode   = 3
)

// msgKinds are the instant kinds a msgList holds, by their code.
var msgKinds = [...]InstantKind{InstantUserMessage, InstantUserMarker, InstantLogMessage}

// msgCode returns the code of kind k (0 for a kind a msgList does not
// hold, which it keeps as a user message).
func msgCode(k InstantKind) uint32 {
	for c, mk := range msgKinds {
		if mk == k {
			return uint32(c)
		}
	}
	return 0
}

// add appends in (a message, marker or log message), moved up to the last
// time if it is earlier; with a grid (g.On), the user messages of busy
// buckets are summarised.
func (l *msgList) add(g Grid, in Instant) {
	t := max(in.Time, l.last)
	l.last = t
	e := msgEntry{t: t, w: msgCode(in.Kind)<<msgKindShift | min(in.Arg, msgStringMax)}
	if !g.On() {
		l.put(e)
		return
	}
	b := g.bucket(t)
	if l.open && b != l.b {
		l.commit()
	}
	if !l.open {
		l.open, l.collapsed, l.b, l.n, l.gapFrom, l.gapTo = true, false, b, 0, 0, 0
		l.pend = l.pend[:0]
	}
	if e.w>>msgKindShift != msgCode(InstantUserMessage) {
		l.pend = append(l.pend, e)
		return
	}
	if l.n == 0 {
		l.firstT = t
	} else if t-l.lastT > l.gapTo-l.gapFrom {
		l.gapFrom, l.gapTo = l.lastT, t
	}
	l.lastT = t
	l.n++
	switch {
	case l.collapsed:
	case l.n < collapseAt:
		l.pend = append(l.pend, e)
	default:
		// Collapsed: only the bucket's markers and log messages are
		// kept whole.
		l.collapsed = true
		keep := l.pend[:0]
		for _, p := range l.pend {
			if p.w>>msgKindShift != msgCode(InstantUserMessage) {
				keep = append(keep, p)
			}
		}
		l.pend = keep
	}
}

// put appends one entry to the committed list.
func (l *msgList) put(e msgEntry) {
	l.times.add(e.t)
	l.args.add(e.w)
}

// commit makes the open bucket part of the list: its entries, or its
// summary (at the time of its first user message) among its markers and
// log messages.
func (l *msgList) commit() {
	if !l.open {
		return
	}
	l.open = false
	summary := l.collapsed
	for _, e := range l.pend {
		if summary && e.t >= l.firstT {
			l.putSummary()
			summary = false
		}
		l.put(e)
	}
	if summary {
		l.putSummary()
	}
	l.pend = l.pend[:0]
}

// putSummary appends the summary of the open bucket's user messages.
func (l *msgList) putSummary() {
	l.put(msgEntry{t: l.firstT, w: msgSumCode<<msgKindShift | uint32(l.sums.len())})
	s := msgSum{n: l.n, last: uint32(l.lastT - l.firstT)}
	if l.gapTo > l.gapFrom {
		s.gapFrom, s.gapTo = uint32(l.gapFrom-l.firstT), uint32(l.gapTo-l.firstT)
	}
	l.sums.add(s)
}

// settle commits the open bucket if it ended by t (final: in any case).
func (l *msgList) settle(g Grid, t uint64, final bool) {
	if l.open && (final || g.start(l.b)+g.Width() <= t) {
		l.commit()
	}
}

// view returns an immutable view of the messages committed so far.
func (l *msgList) view() msgView {
	return msgView{times: l.times.view(), args: l.args.view(), sums: l.sums.view()}
}

// msgView is an immutable list of a HEC's messages in time order, the
// user messages of busy buckets of an overview as one summary each.
type msgView struct {
	times timeView
	args  chunkView[uint32]
	sums  chunkView[msgSum]
}

// Len returns the number of messages (a summary counting once).
func (v msgView) Len() int { return v.times.Len() }

// At returns the i-th message as an Instant (a summary as one that stands
// for the bucket's user messages, see Instant.Summary).
func (v msgView) At(i int) Instant {
	w := v.args.At(i)
	if w>>msgKindShift == msgSumCode {
		s := v.sums.ptr(int(w & msgStringMax))
		return Instant{Time: v.times.At(i), Arg: s.n, Arg2: 1 << InstantUserMessage, Kind: InstantUserMessage, summary: true}
	}
	return Instant{Time: v.times.At(i), Arg: w & msgStringMax, Kind: msgKinds[w>>msgKindShift]}
}

// summarised reports whether the list holds any summary.
func (v msgView) summarised() bool { return v.sums.Len() > 0 }

// kind returns the kind of the i-th entry (a summary's: user messages),
// and its summary if it is one.
func (v msgView) kind(i int) (InstantKind, *msgSum) {
	w := v.args.At(i)
	if w>>msgKindShift == msgSumCode {
		return InstantUserMessage, v.sums.ptr(int(w & msgStringMax))
	}
	return msgKinds[w>>msgKindShift], nil
}

// reaches reports whether a summary of user messages from t on holds one
// in [from, to): the column meets its stretch, and is not within its gap.
func (s *msgSum) reaches(t, from, to uint64) bool {
	if to <= t || from > t+uint64(s.last) {
		return false
	}
	return s.gapTo <= s.gapFrom || !(from > t+uint64(s.gapFrom) && to <= t+uint64(s.gapTo))
}
