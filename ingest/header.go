package ingest

import "fmt"

// VariableSize is the EventType.Size of variable-size event types.
const VariableSize = -1

// EventType is one event type declared in an eventlog's header.
type EventType struct {
	// ID is the event type id.
	ID uint16
	// Size is the payload size the header declares (excluding the 10-byte id
	// and timestamp), or VariableSize.
	Size int
	// Desc is the producer's human-readable description.
	Desc string
}

// Header is an eventlog's header: the event types the producer declared.
type Header struct {
	// Types are the declared event types, in header order.
	Types []EventType
	// GHC612 is set when the header is GHC 6.12's, which declares wrong
	// sizes; the decoder uses the sizes GHC 6.12 really wrote.
	GHC612 bool
	// GHC782 is set when the header is GHC 7.8.2's, which numbered thread
	// stop statuses differently; the decoder translates them.
	GHC782 bool
	// Mercury is set when the header declares Mercury's events; Mercury
	// reuses some GHC ids with other meanings, which are then left unknown.
	Mercury bool

	byID map[uint16]int
}

// Lookup returns the declared event type with the given id.
func (h *Header) Lookup(id uint16) (EventType, bool) {
	if i, ok := h.byID[id]; ok {
		return h.Types[i], true
	}
	return EventType{}, false
}

// eventlogMagic is how every eventlog begins: "hdrb" then "hetb".
const eventlogMagic = "hdrbhetb"

// Header format markers.
const (
	markETBegin   = 0x65746200 // "etb\0"
	markETEnd     = 0x65746500 // "ete\0"
	markHETEnd    = 0x68657465 // "hete"
	markHeaderEnd = 0x68647265 // "hdre"
	markDataBegin = 0x64617462 // "datb"
	idDataEnd     = 0xFFFF
)

// MaxHeader bounds an eventlog's header (its event type records): GHC's
// are a few KiB (two hundred types of a few dozen bytes). A longer one is
// not a GHC header; reading on would cost memory for every record (a
// header that never ends would take it all), so the stream is corrupt.
const MaxHeader = 1 << 20

// checkHeader reports why the header read so far, up to byte at, cannot be
// an eventlog's: too long, or declaring an event type twice ("" if
// neither).
func (h *Header) checkHeader(at int64, id uint16) string {
	if at > MaxHeader {
		return fmt.Sprintf("header longer than %d bytes: not an eventlog header (GHC's are a few KiB)", MaxHeader)
	}
	for i := len(h.Types) - 2; i >= 0 && len(h.Types) <= maxTypesScanned; i-- {
		if h.Types[i].ID == id {
			return fmt.Sprintf("event type %d declared twice in the header", id)
		}
	}
	return ""
}

// maxTypesScanned is how many declared types checkHeader looks through for
// a repeated id (beyond it, MaxHeader bounds the header alone).
const maxTypesScanned = 1024

// maxDescLen bounds a declared description or extension length; real
// descriptions are a few dozen bytes, so a larger one means a corrupt header.
const maxDescLen = 1 << 16

// ghc612Sizes are the payload sizes GHC 6.12 really wrote for the ids whose
// sizes its header got wrong.
var ghc612Sizes = map[uint16]int{0: 4, 1: 4, 3: 4, 5: 4, 15: 4, 2: 6, 4: 6, 6: 6, 8: 6, 17: 2}

// mercuryReused are GHC ids that Mercury's runtime declares with other
// meanings.
var mercuryReused = map[uint16]bool{5: true, 6: true, 39: true, 40: true}

// plan is how the decoder handles one event type id.
type plan struct {
	declared bool
	size     int // payload size for fixed types, VariableSize otherwise
	kind     Kind
	lay      *layout // nil: undecodable, becomes KindUnknown
	// fixedOnly says that the type's events are the layout's fixed fields,
	// all there, and nothing else to decode or mend (see readEvent).
	fixedOnly bool
}

// finish detects producer quirks and builds the per-id decoding plans.
func (h *Header) finish() []plan {
	h.byID = make(map[uint16]int, len(h.Types))
	maxID := -1
	for i, t := range h.Types {
		h.byID[t.ID] = i
		if int(t.ID) > maxID {
			maxID = int(t.ID)
		}
	}
	if t, ok := h.Lookup(uint16(KindCreateThread)); ok && t.Size == 8 {
		h.GHC612 = true
	}
	_, has58 := h.byID[58]
	_, has59 := h.byID[59]
	h.GHC782 = has58 && !has59
	for id := uint16(100); id <= 113; id++ {
		if _, ok := h.byID[id]; ok {
			h.Mercury = true
		}
	}

	plans := make([]plan, maxID+1)
	for _, t := range h.Types {
		p := plan{declared: true, size: t.Size, kind: KindUnknown}
		if s, ok := ghc612Sizes[t.ID]; ok && h.GHC612 {
			p.size = s
		}
		spec, known := specs[Kind(t.ID)]
		if h.Mercury && mercuryReused[t.ID] {
			known = false
		}
		if known {
			p.lay = chooseLayout(spec, p.size)
			if p.lay != nil {
				p.kind = Kind(t.ID)
				p.fixedOnly = p.lay.tail == tailNone && p.size != VariableSize && p.size >= p.lay.size &&
					p.kind != KindNonmovingHeapCensus && !(p.kind == KindStopThread && h.GHC782)
			}
		}
		plans[t.ID] = p
	}
	return plans
}

// chooseLayout picks the layout for a declared size the way the reference
// parser does: the largest fixed layout not larger than the declared size.
func chooseLayout(spec kindSpec, size int) *layout {
	if spec.variable != (size == VariableSize) {
		return nil
	}
	for i := range spec.layouts {
		if spec.variable || spec.layouts[i].size <= size {
			return &spec.layouts[i]
		}
	}
	return nil
}
