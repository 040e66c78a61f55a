package timeline

// msgList keeps a HEC's messages and markers (user messages, user markers,
// log messages), every one of them, in 8 bytes each rather than an
// Instant's 16: their times as 4-byte offsets (timeList), and their string
// and kind in one word. A log of user events holds tens of millions.
type msgList struct {
	times timeList
	args  chunkList[uint32]
}

// Messages' kinds in the top bits of their word, the string below.
const (
	msgKindShift = 30
	msgStringMax = 1<<msgKindShift - 1
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
// time if it is earlier.
func (l *msgList) add(in Instant) {
	t := max(in.Time, l.times.last)
	l.times.add(t)
	l.args.add(msgCode(in.Kind)<<msgKindShift | min(in.Arg, msgStringMax))
}

// view returns an immutable view of the messages added so far.
func (l *msgList) view() msgView {
	return msgView{times: l.times.view(), args: l.args.view()}
}

// msgView is an immutable list of a HEC's messages in time order.
type msgView struct {
	times timeView
	args  chunkView[uint32]
}

// Len returns the number of messages.
func (v msgView) Len() int { return v.times.Len() }

// At returns the i-th message as an Instant.
func (v msgView) At(i int) Instant {
	w := v.args.At(i)
	return Instant{Time: v.times.At(i), Arg: w & msgStringMax, Kind: msgKinds[w>>msgKindShift]}
}

// kind returns the kind of the i-th message.
func (v msgView) kind(i int) InstantKind { return msgKinds[v.args.At(i)>>msgKindShift] }
