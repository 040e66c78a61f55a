package ingest

// cutter decodes a byte stream as it arrives and tells which of its bytes end
// on an event boundary: the header once it is whole, then whole events. What
// it hands on is always a prefix of the stream that decodes cleanly, which is
// what a recording or a relayed stream must be.
type cutter struct {
	d     *Decoder
	ev    Event
	buf   []byte // bytes received; buf[start:] not yet handed on
	start int
	done  int64 // stream bytes handed on
	fed   int64 // stream bytes fed before the stream ended
	// used is how many bytes of the last feed belong to the stream: all of
	// them unless the stream's end marker came among them (or before
	// them), when the bytes after it are whatever follows the stream.
	used int
	data bool // the data section has begun
	// headerLen is the stream offset where the data section begins (the
	// header's end, "datb" included); 0 until known. The header handed on
	// is its bytes from c.d.Stray() on.
	headerLen int64
}

func newCutter() *cutter { return &cutter{d: NewDecoder()} }

// feed adds p, calls each (if not nil) for every event it completes, and
// returns the stream bytes that now end on a boundary. The result is valid
// until the next call; events passed to each are valid during the call.
func (c *cutter) feed(p []byte, each func(*Event)) []byte {
	if c.start > 0 {
		n := copy(c.buf, c.buf[c.start:])
		c.buf = c.buf[:n]
		c.start = 0
	}
	if c.d.phase == phaseDone {
		c.used = len(p)
		if c.d.status.State == StateComplete {
			c.used = 0
		}
		return nil // bytes after the end marker or the error are ignored
	}
	c.fed += int64(len(p))
	c.buf = append(c.buf, p...)
	c.d.Feed(p)
	out := c.drain(each)
	c.used = len(p)
	if c.d.phase == phaseDone && c.d.status.State == StateComplete {
		before := c.fed - int64(len(p))
		c.used = int(min(max(c.d.status.Offset-before, 0), int64(len(p))))
	}
	return out
}

// end says the stream is over and returns what that completes (nothing new
// unless a final event was waiting for it).
func (c *cutter) end(each func(*Event)) []byte {
	c.d.End()
	return c.drain(each)
}

func (c *cutter) drain(each func(*Event)) []byte {
	for c.d.Next(&c.ev) {
		if !c.data {
			c.data, c.headerLen = true, c.ev.Offset
		}
		if each != nil {
			each(&c.ev)
		}
	}
	if !c.data && c.d.phase == phaseData {
		c.data, c.headerLen = true, c.d.Offset()
	}
	if !c.data {
		return nil
	}
	if c.done == 0 && c.d.stray > 0 {
		// Block markers before the header are not handed on: what the
		// cutter hands on is a well-formed eventlog (see strayPrefix).
		c.start += int(c.d.stray)
		c.done = c.d.stray
	}
	upTo := c.d.Offset()
	if c.d.phase == phaseDone && c.d.status.State != StateComplete {
		upTo = c.d.status.Offset
	}
	n := int(upTo - c.done)
	if n <= 0 {
		return nil
	}
	out := c.buf[c.start : c.start+n]
	c.start += n
	c.done = upTo
	return out
}
