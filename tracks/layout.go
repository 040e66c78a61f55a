package tracks

import (
	"sort"
	"strconv"

	"github.com/hecscope/hecscope/timeline"
)

// Group is a collapsible group of tracks.
type Group uint8

// The groups, in the order they are shown: the groups of a few tracks
// first, the threads (thousands of tracks in a big run) last, so that
// opening them never pushes the others out of reach.
const (
	GroupActivity Group = iota // the run's utilisation, then each HEC's
	GroupHECs                  // one track per HEC: its states, thread ids, instant events
	GroupGC                    // GC pauses
	GroupHeap                  // heap size, live data, allocation, profile bands
	GroupSparks                // per HEC spark rates and pool size
	GroupUser                  // markers, START/STOP spans by thread or by label
	GroupThreads               // one track per thread
	NumGroups
)

var groupNames = [NumGroups]string{"Activity", "HECs", "GC", "Heap", "Sparks", "User events", "Threads"}

// String returns the group's title, such as "Threads".
func (g Group) String() string {
	if g < NumGroups {
		return groupNames[g]
	}
	return "invalid"
}

// Kind is what a track shows.
type Kind uint8

// Track kinds. A TrackID's ID says which HEC, thread or label.
const (
	KindActivity    Kind = iota + 1 // the whole run's utilisation graph (ID 0)
	KindHECActivity                 // a HEC's utilisation graph (ID: HEC)
	KindHEC                         // a HEC's states (ID: HEC)
	KindThread                      // a thread's states (ID: thread id)
	KindSparks                      // a HEC's spark rates and pool (ID: HEC)
	KindMarkers                     // user markers and bookmarks (ID 0)
	KindUserLabel                   // START/STOP spans of one label (ID: label's index in the overview's strings)
	KindUserThread                  // START/STOP spans begun by one thread, a row per nesting depth (ID: thread id, 0 for none)
	KindHeap                        // heap size, live data and blocks (ID 0)
	KindAlloc                       // allocation rate (ID 0)
	KindBands                       // heap-profile bands (ID 0)
	KindGC                          // GC pauses (ID 0)
)

// TrackID identifies a track across models and frames: threads by id,
// never by index.
type TrackID struct {
	Kind Kind
	ID   uint32
}

// group returns the group of a track kind.
func (k Kind) group() Group { return k.info().group }

// defaultHeight returns a track kind's height in points.
func (k Kind) defaultHeight() float64 { return k.info().height }

// Group returns the group whose tracks the track is among.
func (id TrackID) Group() Group { return id.Kind.group() }

// Sizes in points.
const (
	titleHeight  = 22   // a group's title row
	minTrack     = 8    // the least height a track can be resized to
	maxTrack     = 2000 // the most (a picture of one track fills it)
	headerWidth  = 200  // the track headers' column
	axisHeight   = 30   // the sticky time axis
	scrollbarW   = 10   // the scroll bar's gutter on the right
	resizeHandle = 4    // the bottom band of a header that resizes its track
	pinWidth     = 16   // the pin toggle at a header's right end
	textPt       = 11   // text size
	smallPt      = 9.5  // text size on small tracks and in the legend's counts
	userRowPt    = 16   // a label's track, and each nesting depth of a thread's spans
)

// row is one row of the layout: a group's title or a track, at content y
// (device pixels from the top of its area) with height h.
type row struct {
	y, h  int
	group Group
	title bool
	id    TrackID
}

// layout is where the rows go: pinned tracks in their area, the others in
// the scrolled area. It is rebuilt when the tracks or their states change.
type layout struct {
	pinned, rows []row
	pinnedH      int // height of the pinned area's content
	contentH     int // height of the scrolled area's content
	scale        float64
	ov           *timeline.Model
	nThreads     int
	version      int
	// counts is how many tracks each group has (trackSet's lengths),
	// hidden how many of them are hidden.
	counts, hidden [NumGroups]int
}

// trackSet is the tracks each group has for a model and heap: what exists,
// before collapsing and pinning; each kind of the group lists its own, in
// the kinds' order.
func (v *View) trackSet(g Group) []TrackID {
	var ids []TrackID
	for k := Kind(1); k < numKinds; k++ {
		if kinds[k].group == g {
			ids = append(ids, kinds[k].list(v)...)
		}
	}
	return ids
}

// height returns a track's height in device pixels: as set, else its
// kind's default, which for a thread's spans is a row per nesting depth.
func (v *View) height(id TrackID) int {
	pt, ok := v.heights[id]
	if !ok {
		k := id.Kind.info()
		pt = k.height
		if k.rows != nil {
			pt = min(float64(k.rows(v, id.ID))*userRowPt, maxTrack)
		}
	}
	return max(int(pt*v.scale+0.5), 1)
}

// ensureLayout rebuilds the layout if the model, the heap or a setting
// changed since it was built.
func (v *View) ensureLayout() *layout {
	ov := v.overview()
	nth := 0
	if ov != nil {
		nth = ov.NumThreads()
	}
	l := &v.lay
	if l.version == v.version && l.ov == ov && l.nThreads == nth && l.scale == v.scale {
		return l
	}
	l.ov, l.nThreads, l.scale, l.version = ov, nth, v.scale, v.version
	l.pinned, l.rows = l.pinned[:0], l.rows[:0]
	y := 0
	exists := map[TrackID]bool{}
	for _, id := range v.pins {
		exists[id] = false
	}
	th := int(titleHeight*v.scale + 0.5)
	for g := Group(0); g < NumGroups; g++ {
		var ids []TrackID
		if g == GroupThreads && v.collapsed[g] {
			// Collapsed, the threads (millions in some runs) are only
			// counted: the hidden and the pinned ones are looked up.
			l.counts[g], l.hidden[g] = nth, 0
			if nth == 0 {
				continue
			}
			if !v.noTitles {
				l.rows = append(l.rows, row{y: y, h: th, group: g, title: true})
				y += th
			}
			for id, h := range v.hidden {
				if h && id.Kind == KindThread && ov.ThreadIndex(id.ID) >= 0 {
					l.hidden[g]++
				}
			}
			for id := range exists {
				if id.Kind == KindThread && !v.hidden[id] && ov.ThreadIndex(id.ID) >= 0 {
					exists[id] = true
				}
			}
			continue
		}
		ids = v.trackSet(g)
		l.counts[g] = len(ids)
		l.hidden[g] = 0
		if len(ids) == 0 {
			continue
		}
		if !v.noTitles {
			l.rows = append(l.rows, row{y: y, h: th, group: g, title: true})
			y += th
		}
		for _, id := range ids {
			if v.hidden[id] {
				l.hidden[g]++
				continue
			}
			if _, pinned := exists[id]; pinned {
				exists[id] = true
				continue
			}
			if v.collapsed[g] {
				continue
			}
			h := v.height(id)
			l.rows = append(l.rows, row{y: y, h: h, group: g, id: id})
			y += h
		}
	}
	l.contentH = y
	y = 0
	for _, id := range v.pins {
		if !exists[id] {
			continue // its thread or HEC is gone from the model
		}
		h := v.height(id)
		l.pinned = append(l.pinned, row{y: y, h: h, group: id.Kind.group(), id: id})
		y += h
	}
	l.pinnedH = y
	return l
}

// GroupSize returns how many tracks group g has, shown or collapsed
// (pinned ones included).
func (v *View) GroupSize(g Group) int {
	if g >= NumGroups {
		return 0
	}
	return v.ensureLayout().counts[g]
}

// visible returns the rows of rs that overlap content [y0, y1).
func visible(rs []row, y0, y1 int) []row {
	i := sort.Search(len(rs), func(i int) bool { return rs[i].y+rs[i].h > y0 })
	j := i
	for j < len(rs) && rs[j].y < y1 {
		j++
	}
	return rs[i:j]
}

// shown returns the pinned rows and the scrolled rows that a frame over
// geometry g scrolled by scrollY shows.
func (l *layout) shown(g geometry, scrollY int) (pinned, rows []row) {
	return visible(l.pinned, 0, g.pinned.Dy()), visible(l.rows, scrollY, scrollY+g.tracks.Dy())
}

// find returns the row of the track id in rs and whether there is one.
func find(rs []row, id TrackID) (row, bool) {
	for _, r := range rs {
		if !r.title && r.id == id {
			return r, true
		}
	}
	return row{}, false
}

// Name returns a track's full name, as its header shows it (cut to fit).
func (v *View) Name(id TrackID) string {
	if k := id.Kind.info(); k.name != nil {
		return k.name(v, id.ID)
	}
	return ""
}

// threadName names a thread by id and label: "thread 5", "5 worker".
func threadName(m *timeline.Model, id uint32) string {
	if m != nil {
		if th := m.ThreadByID(id); th != nil && th.Label >= 0 {
			return itoa(id) + " " + m.String(th.Label)
		}
	}
	return "thread " + itoa(id)
}

func itoa(v uint32) string { return strconv.FormatUint(uint64(v), 10) }
