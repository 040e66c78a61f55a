package export

import (
	"bufio"
	"strconv"

	"github.com/hecscope/hecscope/ingest"
)

// speedscopeWriter writes the cost-centre samples as a speedscope profile
// (https://www.speedscope.app/file-format-schema.json): one sampled profile,
// a sample per profiling tick with its stack outermost first, each weighing
// the tick interval in nanoseconds. The samples are written as they come;
// the frames (the cost centres met) follow them.
type speedscopeWriter struct {
	w        *bufio.Writer
	opt      Options
	buf      []byte
	defs     map[uint32][3]string // cost centre id → label, module, src
	frame    map[uint32]int       // cost centre id → frame index
	frames   []uint32             // frame index → cost centre id
	samples  uint64
	first    uint64
	last     uint64
	interval uint64
}

// maxFrames bounds the distinct cost centres written as frames (a program
// defines thousands at most).
const maxFrames = 1 << 20

func newSpeedscopeWriter(w *bufio.Writer, opt Options) *speedscopeWriter {
	s := &speedscopeWriter{w: w, opt: opt, defs: make(map[uint32][3]string), frame: make(map[uint32]int)}
	w.WriteString(`{"$schema":"https://www.speedscope.app/file-format-schema.json","exporter":"hecscope",` +
		`"activeProfileIndex":0,"profiles":[{"type":"sampled","name":"cost-centre samples","unit":"nanoseconds","samples":[`)
	return s
}

func (s *speedscopeWriter) event(ev *ingest.Event) {
	switch ev.Kind {
	case ingest.KindHeapProfCostCentre:
		if len(s.defs) < maxFrames {
			f := append(ev.Strings(), "", "", "")
			s.defs[uint32(ev.Args[0])] = [3]string{f[0], f[1], f[2]}
		}
	case ingest.KindProfBegin:
		s.interval = ev.Args[0]
	case ingest.KindProfSampleCostCentre:
		if !s.opt.in(ev.Time) {
			return
		}
		if s.samples == 0 {
			s.first = ev.Time
		}
		s.last = ev.Time
		b := s.buf[:0]
		if s.samples > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		k := 0
		for i := ev.StackLen() - 1; i >= 0; i-- {
			id := ev.Stack(i)
			f, ok := s.frame[id]
			if !ok {
				if len(s.frames) >= maxFrames {
					continue
				}
				f = len(s.frames)
				s.frame[id] = f
				s.frames = append(s.frames, id)
			}
			if k > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(f), 10)
			k++
		}
		b = append(b, ']')
		s.buf = b
		s.w.Write(b)
		s.samples++
	}
}

func (s *speedscopeWriter) finish(end uint64) error {
	weight := max(s.interval, 1)
	s.w.WriteString(`],"weights":[`)
	for i := uint64(0); i < s.samples; i++ {
		if i > 0 {
			s.w.WriteByte(',')
		}
		s.w.WriteString(strconv.FormatUint(weight, 10))
	}
	b := append(s.buf[:0], `],"startValue":0,"endValue":`...)
	b = strconv.AppendUint(b, s.samples*weight, 10)
	b = append(b, `}],"shared":{"frames":[`...)
	for i, id := range s.frames {
		if i > 0 {
			b = append(b, ',')
		}
		d, ok := s.defs[id]
		if !ok {
			d = [3]string{"cost centre " + strconv.FormatUint(uint64(id), 10), "?", ""}
		}
		b = append(b, `{"name":`...)
		b = appendJSONString(b, d[0]+" ("+d[1]+")")
		b = append(b, `,"file":`...)
		b = appendJSONString(b, d[2])
		b = append(b, '}')
	}
	b = append(b, "]}}\n"...)
	_, err := s.w.Write(b)
	return err
}
