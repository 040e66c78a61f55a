package timeline

// msgList keeps a HEC's messages and markers (user messages, user markers,
// log messages) in 8 bytes each rather than an Instant's 16: their times as
// 4-byte offsets (timeList), and their string and kind in one word. A log
// of user events holds tens of millions: with a grid, a bucket with
// collapseAt messages or more (markers aside) becomes one summary, at the
// time of its first message, as a HEC's other instants do (instantList,
// which puts it at the bucket's start), and only its markers stay whole
// (a run's markers are few, and the markers' readers want each).
type msgList struct {
	times timeList
	args  chunkList[uint32]
	sums  chunkList[msgSum] // the summaries, which args index
	last  uint64
	// The bucket being filled (with a grid): b, how many messages it
	// holds (markers aside), their kinds and the first's; pend, its
	// entries in order while they are fewer than collapseAt, its markers
	// alone once collapsed.
	open      bool
	collapsed bool
	b         uint64
	n         uint32
	kinds     uint16
	first     InstantKind
	firstTime uint64
	pend      []msgEntry
}

// msgEntry is one message as a msgList keeps it: its time and word.
type msgEntry struct {
	t uint64
	w uint32
}

// msgSum is a summarised bucket: n messages of the kinds whose bits kinds
// sets, the first of kind first.
type msgSum struct {
	n     uint32
	kinds uint16
	first InstantKind
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
// time if it is earlier; with a grid (g.On), the busy buckets are
// summarised.
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
		l.open, l.collapsed, l.b, l.n, l.kinds = true, false, b, 0, 0
		l.pend = l.pend[:0]
	}
	if in.Kind == InstantUserMarker {
		l.pend = append(l.pend, e)
		return
	}
	if l.n == 0 {
		l.first, l.firstTime = msgKinds[e.w>>msgKindShift], t
	}
	l.n++
	l.kinds |= 1 << msgKinds[e.w>>msgKindShift]
	switch {
	case l.collapsed:
	case l.n < collapseAt:
		l.pend = append(l.pend, e)
	default:
		// Collapsed: only the bucket's markers are kept whole.
		l.collapsed = true
		keep := l.pend[:0]
		for _, p := range l.pend {
			if p.w>>msgKindShift == msgCode(InstantUserMarker) {
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
// summary (at the time of its first message) among its markers.
func (l *msgList) commit() {
	if !l.open {
		return
	}
	l.open = false
	summary := l.collapsed
	for _, e := range l.pend {
		if summary && e.t >= l.firstTime {
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

// putSummary appends the summary of the open bucket's messages.
func (l *msgList) putSummary() {
	l.put(msgEntry{t: l.firstTime, w: msgSumCode<<msgKindShift | uint32(l.sums.len())})
	l.sums.add(msgSum{n: l.n, kinds: l.kinds, first: l.first})
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

// msgView is an immutable list of a HEC's messages in time order, busy
// buckets of an overview as one summary each.
type msgView struct {
	times timeView
	args  chunkView[uint32]
	sums  chunkView[msgSum]
}

// Len returns the number of messages (a summary counting once).
func (v msgView) Len() int { return v.times.Len() }

// At returns the i-th message as an Instant (a summary as one that stands
// for the bucket's messages, see Instant.Summary).
func (v msgView) At(i int) Instant {
	w := v.args.At(i)
	if w>>msgKindShift == msgSumCode {
		s := v.sums.At(int(w & msgStringMax))
		return Instant{Time: v.times.At(i), Arg: s.n, Arg2: s.kinds, Kind: s.first, summary: true}
	}
	return Instant{Time: v.times.At(i), Arg: w & msgStringMax, Kind: msgKinds[w>>msgKindShift]}
}

// summarised reports whether the list holds any summary.
func (v msgView) summarised() bool { return v.sums.Len() > 0 }

// kinds returns a bit per kind of the messages the i-th entry stands
// for, and how many they are.
func (v msgView) kinds(i int) (uint16, int) {
	w := v.args.At(i)
	if w>>msgKindShift == msgSumCode {
		s := v.sums.ptr(int(w & msgStringMax))
		return s.kinds, int(s.n)
	}
	return 1 << msgKinds[w>>msgKindShift], 1
}
