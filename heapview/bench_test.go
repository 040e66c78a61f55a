package heapview

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"testing"

	"github.com/hecscope/hecscope/ingest"
)

// The size the issue sets: 1,000 censuses of 5,000 distinct closure types,
// every type in every census (5 million entries).
const (
	benchSamples = 1000
	benchTypes   = 5000
)

// benchBytes is the residency of type k at census s: a few big types and a
// long tail, each growing or shrinking over the run.
func benchBytes(k, s int) uint64 {
	return uint64(1_000_000/(k+1)) * uint64(1+(s*(k%7+1))%50)
}

// feedBenchProfile gives c a -hT profile of benchSamples censuses 10 ms
// apart, as the decoder would hand it over: one event at a time, reused.
func feedBenchProfile(c *Collector, labels [][]byte) {
	var e ingest.Event
	e.Cap = ingest.NoCap
	e.Kind = ingest.KindHeapProfBegin
	e.Args[1], e.Args[2] = 10_000_000, uint64(ingest.BreakdownClosureType)
	c.Add(&e)
	e.Args = [ingest.MaxArgs]uint64{}
	for s := 0; s < benchSamples; s++ {
		t := uint64(s+1) * 10_000_000
		e.Kind, e.Time, e.Data = ingest.KindHeapProfSampleBegin, t, nil
		c.Add(&e)
		e.Kind = ingest.KindHeapProfSampleString
		for k, l := range labels {
			e.Data = l
			e.Args[1] = benchBytes(k, s)
			c.Add(&e)
		}
		e.Kind, e.Data, e.Args[1] = ingest.KindHeapProfSampleEnd, nil, 0
		c.Add(&e)
	}
}

func benchLabels() [][]byte {
	labels := make([][]byte, benchTypes)
	for k := range labels {
		labels[k] = []byte("pkg-1.0:Data.Module" + strconv.Itoa(k%97) + ".Con" + strconv.Itoa(k))
	}
	return labels
}

// BenchmarkBandsFromEvents builds the bands of the 1,000 × 5,000 profile
// from its events: collecting the censuses (names interned, entries
// stored), then choosing the top 15 and OTHER. Decoding the bytes is the
// ingest package's part and is benchmarked there.
func BenchmarkBandsFromEvents(b *testing.B) {
	labels := benchLabels()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		c := NewCollector()
		feedBenchProfile(c, labels)
		_, p := c.Result()
		bd := NewBands(p, BandOptions{})
		if bd.Len() != DefaultBands+1 || p.Len() != benchSamples || p.NumNames() != benchTypes {
			b.Fatalf("%d bands, %d samples, %d names", bd.Len(), p.Len(), p.NumNames())
		}
	}
}

// BenchmarkBands times NewBands alone on the 1,000 × 5,000 profile.
func BenchmarkBands(b *testing.B) {
	c := NewCollector()
	feedBenchProfile(c, benchLabels())
	_, p := c.Result()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		NewBands(p, BandOptions{})
	}
}

// encodeBenchLog writes the 1,000 × 5,000 profile as an eventlog: a header
// declaring the four heap-profile event types it uses, then HEAP_PROF_BEGIN
// and the censuses, outside any block, ending with the end-of-data marker.
func encodeBenchLog(labels [][]byte) []byte {
	be := binary.BigEndian
	var b []byte
	b = append(b, "hdrbhetb"...)
	for _, et := range []struct {
		id   uint16
		size uint16
	}{{160, 0xffff}, {162, 8}, {164, 0xffff}, {165, 8}} {
		b = append(b, "etb\x00"...)
		b = be.AppendUint16(b, et.id)
		b = be.AppendUint16(b, et.size)
		b = be.AppendUint32(b, 1)
		b = append(b, 'x')
		b = be.AppendUint32(b, 0)
		b = append(b, "ete\x00"...)
	}
	b = append(b, "hetehdredatb"...)
	b = be.AppendUint16(b, 160)
	b = be.AppendUint64(b, 1)
	b = be.AppendUint16(b, 1+8+4+7)
	b = append(b, 0)
	b = be.AppendUint64(b, 10_000_000)
	b = be.AppendUint32(b, uint32(ingest.BreakdownClosureType))
	b = append(b, make([]byte, 7)...)
	for s := 0; s < benchSamples; s++ {
		t := uint64(s+1) * 10_000_000
		b = be.AppendUint16(b, 162)
		b = be.AppendUint64(b, t)
		b = be.AppendUint64(b, 0)
		for k, l := range labels {
			b = be.AppendUint16(b, 164)
			b = be.AppendUint64(b, t)
			b = be.AppendUint16(b, uint16(1+8+len(l)+1))
			b = append(b, 0)
			b = be.AppendUint64(b, benchBytes(k, s))
			b = append(b, l...)
			b = append(b, 0)
		}
		b = be.AppendUint16(b, 165)
		b = be.AppendUint64(b, t)
		b = be.AppendUint64(b, 0)
	}
	return be.AppendUint16(b, 0xffff)
}

// BenchmarkBandsFromEventlog reads the 1,000 × 5,000 profile from the bytes
// of an eventlog held in memory (decoding included) and builds its bands.
func BenchmarkBandsFromEventlog(b *testing.B) {
	log := encodeBenchLog(benchLabels())
	b.SetBytes(int64(len(log)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d, err := collect(bytes.NewReader(log))
		if err != nil {
			b.Fatal(err)
		}
		if d.Status.State != ingest.StateComplete || d.Profile == nil || d.Profile.Len() != benchSamples || d.Profile.NumNames() != benchTypes {
			b.Fatalf("status %v, profile %v", d.Status, d.Profile)
		}
		NewBands(d.Profile, BandOptions{})
	}
}
