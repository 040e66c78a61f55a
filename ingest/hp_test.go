package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

const hpTestDir = "testdata/hp"

// hpRealFiles are the GHC 9.0.2 profiles copied from
// shared/corpus/generated/ghc-9.0.2.
var hpRealFiles = []string{"hT.hp", "hb.hp", "hc.hp", "hd.hp", "hr.hp", "hy.hp"}

func readHPTestFile(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(hpTestDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func mustParseHP(t testing.TB, data []byte) *HeapProfile {
	t.Helper()
	p, err := ParseHeapProfile(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("ParseHeapProfile: %v", err)
	}
	checkHPInvariants(t, p)
	return p
}

func hpEntryOf(s HeapSample, label string) (uint64, bool) {
	for _, e := range s.Entries {
		if e.Label == label {
			return e.Bytes, true
		}
	}
	return 0, false
}

func TestParseHeapProfileRealFiles(t *testing.T) {
	tests := []struct {
		file       string
		job        string
		entryCount []int // entries per sample
		lastTime   float64
		labels     []string // must occur somewhere
		check      func(t *testing.T, p *HeapProfile)
	}{
		{
			file:       "hT.hp",
			job:        "main_el",
			entryCount: []int{0, 38, 38, 0},
			lastTime:   0.163599,
			labels:     []string{"base:GHC.Maybe.Just", "ghc-prim:GHC.Tuple.(,)", "MUT_ARR_PTRS_FROZEN_CLEAN", "THUNK", "STACK", "containers-0.6.4.1:Data.Map.Internal.Bin"},
			check: func(t *testing.T, p *HeapProfile) {
				if got, _ := hpEntryOf(p.Samples[1], "THUNK"); got != 96729200 {
					t.Errorf("THUNK at 0.073440 = %d, want 96729200", got)
				}
			},
		},
		{
			file:       "hb.hp",
			job:        "main_prof +RTS -hb -i0.05 -l -p",
			entryCount: []int{0, 5, 5, 5, 5, 5, 5, 0},
			lastTime:   0.685328,
			labels:     []string{"VOID", "LAG", "USE", "INHERENT_USE", "DRAG"},
			check: func(t *testing.T, p *HeapProfile) {
				want := []HeapEntry{{"VOID", 26320264}, {"LAG", 46600968}, {"USE", 3196016}, {"INHERENT_USE", 688}, {"DRAG", 0}}
				if !reflect.DeepEqual(p.Samples[1].Entries, want) {
					t.Errorf("first census = %v, want %v", p.Samples[1].Entries, want)
				}
				bands := []string{"VOID", "LAG", "USE", "INHERENT_USE", "DRAG"}
				for i, s := range p.Samples[1:7] {
					for j, e := range s.Entries {
						if e.Label != bands[j] {
							t.Errorf("sample %d entry %d = %q, want %q", i+1, j, e.Label, bands[j])
						}
					}
				}
				if got := p.Samples[6].Entries[4]; got != (HeapEntry{"DRAG", 2850016}) {
					t.Errorf("last DRAG = %v", got)
				}
			},
		},
		{
			file:       "hc.hp",
			job:        "main_prof +RTS -hc -i0.05 -l -p",
			entryCount: []int{0, 6, 6, 6, 6, 9, 0},
			lastTime:   0.633373,
			labels:     []string{"(297)main", "MAIN", "(298)main.m/main/Main.CAF", `(300)main.\/main`, "(150)PINNED"},
			check: func(t *testing.T, p *HeapProfile) {
				want := []HeapEntry{
					{"(154)SYSTEM", 24},
					{"(267)GHC.Conc.Signal.CAF", 640},
					{"MAIN", 160},
					{"(298)main.m/main/Main.CAF", 17595920},
					{"(297)main", 51457152},
					{"(299)main.xs/main", 20582888},
				}
				if !reflect.DeepEqual(p.Samples[1].Entries, want) {
					t.Errorf("census at 0.054763 = %v, want %v (file order)", p.Samples[1].Entries, want)
				}
				if p.Samples[1].Time != 0.054763 {
					t.Errorf("time = %v", p.Samples[1].Time)
				}
				if got := p.Samples[1].TotalBytes(); got != 24+640+160+17595920+51457152+20582888 {
					t.Errorf("TotalBytes = %d", got)
				}
			},
		},
		{
			file:       "hd.hp",
			job:        "main_prof +RTS -hd -i0.05 -l -p",
			entryCount: []int{0, 24, 24, 22, 19, 31, 0},
			lastTime:   0.643852,
			labels:     []string{"<GHC.IO.Encoding.sat_s36Z>", "<Main.sat_s2f2>", "(,)", ":", "I#", "Bin"},
			check: func(t *testing.T, p *HeapProfile) {
				if got, _ := hpEntryOf(p.Samples[5], "<GHC.IO.Encoding.sat_s36Z>"); got != 16 {
					t.Errorf("<GHC.IO.Encoding.sat_s36Z> = %d, want 16", got)
				}
			},
		},
		{
			file:       "hr.hp",
			job:        "main_prof +RTS -hr -i0.05 -l -p",
			entryCount: []int{0, 9, 7, 7, 7, 11, 0},
			lastTime:   1.398768,
			labels:     []string{"(5)main", "(125)SYSTEM,main", "(125)CAF,CAF,SYSTEM", `(87)main.\`},
			check: func(t *testing.T, p *HeapProfile) {
				if got, _ := hpEntryOf(p.Samples[1], "(5)main"); got != 96661544 {
					t.Errorf("(5)main = %d", got)
				}
			},
		},
		{
			file:       "hy.hp",
			job:        "main_prof +RTS -hy -i0.05 -l -p",
			entryCount: []int{0, 21, 21, 20, 18, 25, 0},
			lastTime:   0.659165,
			labels:     []string{"->IO", "*", "->(#,#)", "->>*", "[]", "Integer"},
			check: func(t *testing.T, p *HeapProfile) {
				if got, _ := hpEntryOf(p.Samples[1], "*"); got != 54283264 {
					t.Errorf("* = %d", got)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			p := mustParseHP(t, readHPTestFile(t, tc.file))
			if p.Job != tc.job {
				t.Errorf("Job = %q, want %q", p.Job, tc.job)
			}
			if p.Date != "Sun Nov 22 02:56 2026" || p.SampleUnit != "seconds" || p.ValueUnit != "bytes" {
				t.Errorf("header = %q %q %q", p.Date, p.SampleUnit, p.ValueUnit)
			}
			if p.Truncated || len(p.Marks) != 0 {
				t.Errorf("Truncated = %v, Marks = %v", p.Truncated, p.Marks)
			}
			if len(p.Samples) != len(tc.entryCount) {
				t.Fatalf("%d samples, want %d", len(p.Samples), len(tc.entryCount))
			}
			for i, s := range p.Samples {
				if len(s.Entries) != tc.entryCount[i] {
					t.Errorf("sample %d: %d entries, want %d", i, len(s.Entries), tc.entryCount[i])
				}
				if !s.Complete {
					t.Errorf("sample %d incomplete", i)
				}
			}
			if first := p.Samples[0].Time; first != 0 {
				t.Errorf("first time = %v, want 0", first)
			}
			if last := p.Samples[len(p.Samples)-1].Time; last != tc.lastTime {
				t.Errorf("last time = %v, want %v", last, tc.lastTime)
			}
			have := make(map[string]bool)
			for _, l := range p.Labels() {
				have[l] = true
			}
			for _, l := range tc.labels {
				if !have[l] {
					t.Errorf("label %q missing", l)
				}
			}
			tc.check(t, p)
		})
	}
}

func TestParseHeapProfileInternsLabels(t *testing.T) {
	p := mustParseHP(t, readHPTestFile(t, "hc.hp"))
	a := p.Samples[1].Entries[4]
	b := p.Samples[2].Entries[4]
	if a.Label != "(297)main" || b.Label != "(297)main" {
		t.Fatalf("labels %q %q", a.Label, b.Label)
	}
	if unsafe.StringData(a.Label) != unsafe.StringData(b.Label) {
		t.Error("identical labels do not share one string")
	}
	labels := p.Labels()
	if len(labels) != 11 || labels[0] != "(154)SYSTEM" || labels[5] != "(299)main.xs/main" {
		t.Errorf("Labels() = %q", labels)
	}
}

func TestParseHeapProfileCRLF(t *testing.T) {
	for _, name := range hpRealFiles {
		lf := readHPTestFile(t, name)
		crlf := bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n"))
		want := mustParseHP(t, lf)
		got := mustParseHP(t, crlf)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: CRLF parse differs from LF parse", name)
		}
	}
}

func TestParseHeapProfileEdgeFiles(t *testing.T) {
	t.Run("edge-crlf.hp", func(t *testing.T) {
		p := mustParseHP(t, readHPTestFile(t, "edge-crlf.hp"))
		want := &HeapProfile{
			Job:        `prog "quoted" arg +RTS -hc -RTS`,
			Date:       "Sun Nov 22 02:56 2026",
			SampleUnit: "seconds",
			ValueUnit:  "bytes",
			Marks:      []float64{0, 0.5},
			Samples: []HeapSample{
				{Time: 0, Complete: true},
				{Time: 0.5, Complete: true, Entries: []HeapEntry{
					{"0x4a7b28", 16},
					{"42", 8},
					{"(125)SYSTEM,main", 32},
					{"label with spaces", 24},
					{"spaces only", 40},
					{"leading and trailing", 48},
					{"tab\tinside", 56},
					{"MARKER", 64},
					{"0x4a7b28", 72},
				}},
				{Time: 0.5, Complete: true},
				{Time: 1.25, Complete: true, Entries: []HeapEntry{{"*", 7}}},
			},
		}
		if !reflect.DeepEqual(p, want) {
			t.Errorf("got  %+v\nwant %+v", p, want)
		}
	})
	t.Run("killed.hp", func(t *testing.T) {
		p := mustParseHP(t, readHPTestFile(t, "killed.hp"))
		if !p.Truncated || len(p.Samples) != 3 {
			t.Fatalf("Truncated = %v, %d samples", p.Truncated, len(p.Samples))
		}
		last := p.Samples[2]
		if last.Complete || last.Time != 0.119527 || len(last.Entries) != 4 {
			t.Errorf("last sample = %+v; want incomplete at 0.119527 with 4 entries (cut line dropped)", last)
		}
		if !p.Samples[1].Complete || len(p.Samples[1].Entries) != 6 {
			t.Errorf("earlier sample = %+v", p.Samples[1])
		}
	})
}

const hpHeader = "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n"

func TestParseHeapProfileAccepts(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  *HeapProfile
	}{
		{
			name:  "doubled quotes",
			input: `JOB "a ""b"" """` + "\n" + `DATE """"` + "\n",
			want:  &HeapProfile{Job: `a "b" "`, Date: `"`},
		},
		{
			name:  "empty strings and odd header order",
			input: "VALUE_UNIT \"\"\nJOB \"\"\n",
			want:  &HeapProfile{},
		},
		{
			name:  "no header, empty samples",
			input: "BEGIN_SAMPLE 0\nEND_SAMPLE 0\nBEGIN_SAMPLE 0\nEND_SAMPLE 0.000000\n",
			want:  &HeapProfile{Samples: []HeapSample{{Time: 0, Complete: true}, {Time: 0, Complete: true}}},
		},
		{
			name:  "no final newline",
			input: hpHeader + "BEGIN_SAMPLE 1\nx\t2\nEND_SAMPLE 1",
			want: &HeapProfile{Job: "j", Date: "d", SampleUnit: "seconds", ValueUnit: "bytes",
				Samples: []HeapSample{{Time: 1, Complete: true, Entries: []HeapEntry{{"x", 2}}}}},
		},
		{
			name:  "no final newline after header",
			input: `JOB "j"`,
			want:  &HeapProfile{Job: "j"},
		},
		{
			name:  "marks between samples",
			input: "MARK 1.5\nBEGIN_SAMPLE 2\nEND_SAMPLE 2\nMARK 0.25\n",
			want:  &HeapProfile{Marks: []float64{1.5, 0.25}, Samples: []HeapSample{{Time: 2, Complete: true}}},
		},
		{
			name:  "whitespace tolerance",
			input: "\n  JOB   \"j\"  \r\n\t\nBEGIN_SAMPLE\t 3e-1 \nEND_SAMPLE   0.3\r\n\n",
			want:  &HeapProfile{Job: "j", Samples: []HeapSample{{Time: 0.3, Complete: true}}},
		},
		{
			name: "identifiers that look like anything",
			input: "BEGIN_SAMPLE 1\n0x4a7b28\t1\n17\t2\n-5\t3\n\"q\"\t4\nBEGIN_SAMPLEX\t5\nend_sample\t6\n" +
				"a b c 7\nx\t\t8\nbig\t18446744073709551615\nzero\t0\nlead\t007\nEND_SAMPLE 1\n",
			want: &HeapProfile{Samples: []HeapSample{{Time: 1, Complete: true, Entries: []HeapEntry{
				{"0x4a7b28", 1}, {"17", 2}, {"-5", 3}, {`"q"`, 4}, {"BEGIN_SAMPLEX", 5}, {"end_sample", 6},
				{"a b c", 7}, {"x", 8}, {"big", math.MaxUint64}, {"zero", 0}, {"lead", 7},
			}}}},
		},
		{
			name:  "ends inside a sample",
			input: "BEGIN_SAMPLE 1\nEND_SAMPLE 1\nBEGIN_SAMPLE 2\na\t1\nb\t2\n",
			want: &HeapProfile{Truncated: true, Samples: []HeapSample{
				{Time: 1, Complete: true},
				{Time: 2, Entries: []HeapEntry{{"a", 1}, {"b", 2}}},
			}},
		},
		{
			name:  "cut entry line is dropped",
			input: "BEGIN_SAMPLE 1\na\t1\nb\t2",
			want: &HeapProfile{Truncated: true, Samples: []HeapSample{
				{Time: 1, Entries: []HeapEntry{{"a", 1}}},
			}},
		},
		{
			name:  "cut END_SAMPLE leaves the sample incomplete",
			input: "BEGIN_SAMPLE 0.123456\na\t1\nEND_SAMPLE 0.12",
			want: &HeapProfile{Truncated: true, Samples: []HeapSample{
				{Time: 0.123456, Entries: []HeapEntry{{"a", 1}}},
			}},
		},
		{
			name:  "cut BEGIN_SAMPLE is dropped",
			input: "BEGIN_SAMPLE 0.5\nEND_SAMPLE 0.5\nBEGIN_SAMPLE 0.",
			want:  &HeapProfile{Truncated: true, Samples: []HeapSample{{Time: 0.5, Complete: true}}},
		},
		{
			name:  "cut header line is dropped",
			input: "JOB \"j\"\nDATE \"Sun No",
			want:  &HeapProfile{Job: "j", Truncated: true},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := mustParseHP(t, []byte(tc.input))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestParseHeapProfileErrors(t *testing.T) {
	tests := []struct {
		name  string
		input string
		line  int
		msg   string
	}{
		{"empty input", "", 0, "empty input"},
		{"blank lines only", "\n \r\n\t\n", 3, "no heap profile records"},
		{"garbage first line", "hello world\n", 1, "not a heap profile"},
		{"binary", "hdrb\x00\x00\x00\x01\n", 1, "not a heap profile"},
		{"lower-case keyword", "job \"x\"\n", 1, "not a heap profile"},
		{"garbage between samples", hpHeader + "BEGIN_SAMPLE 1\nEND_SAMPLE 1\nfoo\t3\n", 7, "unexpected line outside a sample"},
		{"entry outside sample", "JOB \"j\"\nx\t1\n", 2, "unexpected line"},
		{"decreasing times", hpHeader + "BEGIN_SAMPLE 2\nEND_SAMPLE 2\nBEGIN_SAMPLE 1.5\nEND_SAMPLE 1.5\n", 7, "before the previous sample"},
		{"END mismatch", "BEGIN_SAMPLE 2\nEND_SAMPLE 3\n", 2, "does not match BEGIN_SAMPLE 2 on line 1"},
		{"END without BEGIN", "JOB \"j\"\nEND_SAMPLE 1\n", 2, "END_SAMPLE without BEGIN_SAMPLE"},
		{"nested BEGIN", "BEGIN_SAMPLE 1\nBEGIN_SAMPLE 2\n", 2, "BEGIN_SAMPLE inside the sample that begins on line 1"},
		{"MARK inside sample", "BEGIN_SAMPLE 1\nMARK 1\n", 2, "MARK inside"},
		{"keyword as identifier", "BEGIN_SAMPLE 1\nMARK\t5\n", 2, "MARK inside"},
		{"header inside sample", "BEGIN_SAMPLE 1\nJOB \"x\"\n", 2, "JOB inside"},
		{"header after samples", "BEGIN_SAMPLE 1\nEND_SAMPLE 1\nDATE \"x\"\n", 3, "DATE after the first sample"},
		{"duplicate header", "JOB \"a\"\nJOB \"b\"\n", 2, "second JOB line"},
		{"unquoted string", "JOB main\n", 1, "expected a quoted string"},
		{"missing string", "JOB\n", 1, "expected a quoted string"},
		{"unterminated string", "JOB \"j\"\nDATE \"x\n", 2, "unterminated quoted string"},
		{"text after string", "JOB \"a\" b\n", 1, "after closing quote"},
		{"lone quote after string", "JOB \"a\"\"\n", 1, "unterminated"},
		{"BEGIN without time", "BEGIN_SAMPLE\n", 1, "BEGIN_SAMPLE needs a time"},
		{"BEGIN bad time", "BEGIN_SAMPLE 1.0.0\n", 1, "needs a time"},
		{"BEGIN two times", "BEGIN_SAMPLE 1 2\n", 1, "needs a time"},
		{"BEGIN NaN", "BEGIN_SAMPLE NaN\n", 1, "needs a time"},
		{"BEGIN Inf", "BEGIN_SAMPLE 1e999\n", 1, "needs a time"},
		{"BEGIN hex", "BEGIN_SAMPLE 0x1p3\n", 1, "needs a time"},
		{"END bad time", "BEGIN_SAMPLE 1\nEND_SAMPLE x\n", 2, "END_SAMPLE needs a time"},
		{"MARK bad time", "MARK\n", 1, "MARK needs a time"},
		{"entry without count", "BEGIN_SAMPLE 1\nlonely\n", 2, "has no byte count"},
		{"entry with empty label", "BEGIN_SAMPLE 1\n\t5\n", 2, "has no byte count"},
		{"entry with blank label", "BEGIN_SAMPLE 1\n \t 5\n", 2, "has no byte count"},
		{"negative count", "BEGIN_SAMPLE 1\nx\t-5\n", 2, "not a decimal integer"},
		{"float count", "BEGIN_SAMPLE 1\nx\t5.0\n", 2, "not a decimal integer"},
		{"signed count", "BEGIN_SAMPLE 1\nx\t+5\n", 2, "not a decimal integer"},
		{"overflow", "BEGIN_SAMPLE 1\nx\t18446744073709551616\n", 2, "not a decimal integer"},
		{"words after tab", "BEGIN_SAMPLE 1\nx\t5 6\n", 2, "not a decimal integer"},
		{"empty count after tab", "BEGIN_SAMPLE 1\nx\t\n", 2, "has no byte count"},
		{"error in CRLF file", "JOB \"j\"\r\nBEGIN_SAMPLE 1\r\nEND_SAMPLE 2\r\n", 3, "does not match"},
		{"garbage unterminated first line", "hello", 1, "not a heap profile"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseHeapProfile(strings.NewReader(tc.input))
			if err == nil {
				t.Fatalf("no error; got %+v", p)
			}
			if p != nil {
				t.Errorf("profile returned with error")
			}
			if !errors.Is(err, ErrHeapProfileMalformed) {
				t.Errorf("error %q does not wrap ErrHeapProfileMalformed", err)
			}
			if tc.line > 0 && !strings.HasPrefix(err.Error(), fmt.Sprintf("hp: line %d: ", tc.line)) {
				t.Errorf("error %q does not start with line %d", err, tc.line)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q does not mention %q", err, tc.msg)
			}
		})
	}
}

func TestParseHeapProfileLongLines(t *testing.T) {
	// A line of exactly the maximum length is fine.
	label := strings.Repeat("L", MaxHeapProfileLineLength-2)
	input := "BEGIN_SAMPLE 1\n" + label + "\t5\nEND_SAMPLE 1\n"
	for _, r := range []io.Reader{strings.NewReader(input), hpOneByteReader{strings.NewReader(input)}} {
		p, err := ParseHeapProfile(r)
		if err != nil {
			t.Fatal(err)
		}
		if e := p.Samples[0].Entries[0]; e.Label != label || e.Bytes != 5 {
			t.Errorf("long entry = %d bytes of label, %d", len(e.Label), e.Bytes)
		}
	}
	// One byte more is an error, terminated or not, on any line.
	for _, input := range []string{
		"BEGIN_SAMPLE 1\n" + label + "\t55\nEND_SAMPLE 1\n",
		"BEGIN_SAMPLE 1\n" + label + "\t55",
		"BEGIN_SAMPLE 1\n" + strings.Repeat("x", 10*MaxHeapProfileLineLength),
	} {
		_, err := ParseHeapProfile(hpOneByteReader{strings.NewReader(input)})
		if !errors.Is(err, ErrHeapProfileLineTooLong) || !strings.HasPrefix(err.Error(), "hp: line 2: ") {
			t.Errorf("error = %v, want line 2 too long", err)
		}
	}
}

// hpOneByteReader hides the Len method of the reader it wraps and returns
// at most one byte per Read, so the parser uses its default buffer and sees
// short reads.
type hpOneByteReader struct{ r io.Reader }

func (o hpOneByteReader) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:1]
	}
	return o.r.Read(p)
}

// hpFailingReader returns its data, then err.
type hpFailingReader struct {
	data []byte
	err  error
}

func (f *hpFailingReader) Read(p []byte) (int, error) {
	if len(f.data) == 0 {
		return 0, f.err
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

func TestParseHeapProfileReadError(t *testing.T) {
	boom := errors.New("boom")
	_, err := ParseHeapProfile(&hpFailingReader{data: []byte("JOB \"j\"\nBEGIN_SAMPLE 1\nx\t1"), err: boom})
	if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "hp: line 3: read: ") {
		t.Errorf("error = %v", err)
	}
}

func TestReadHeapProfileFile(t *testing.T) {
	p, err := ReadHeapProfileFile(filepath.Join(hpTestDir, "hc.hp"))
	if err != nil {
		t.Fatal(err)
	}
	if want := mustParseHP(t, readHPTestFile(t, "hc.hp")); !reflect.DeepEqual(p, want) {
		t.Error("ReadHeapProfileFile and ParseHeapProfile disagree")
	}
	if _, err := ReadHeapProfileFile(filepath.Join(hpTestDir, "missing.hp")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: error = %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.hp")
	if err := os.WriteFile(bad, []byte("JOB \"j\"\nnonsense\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ReadHeapProfileFile(bad)
	if err == nil || !strings.HasPrefix(err.Error(), bad+": hp: line 2: ") || !errors.Is(err, ErrHeapProfileMalformed) {
		t.Errorf("bad file: error = %v", err)
	}
}

// TestParseHeapProfileTruncatedRealFiles cuts every real file at every
// offset: the parse must not fail once the first line is complete, every
// sample whose END_SAMPLE line survived must equal the full parse, and a
// sample cut short must hold a prefix of the full sample's entries.
func TestParseHeapProfileTruncatedRealFiles(t *testing.T) {
	for _, name := range append(hpRealFiles, "edge-crlf.hp") {
		data := readHPTestFile(t, name)
		full := mustParseHP(t, data)
		firstNL := bytes.IndexByte(data, '\n')
		// End offsets (without line end) of the END_SAMPLE lines.
		// Start and end offsets (without line end) of the END_SAMPLE lines.
		var starts, ends []int
		for off := 0; off < len(data); {
			nl := bytes.IndexByte(data[off:], '\n') + off
			if bytes.HasPrefix(data[off:], []byte("END_SAMPLE")) {
				starts = append(starts, off)
				ends = append(ends, len(bytes.TrimRight(data[:nl], "\r")))
			}
			off = nl + 1
		}
		for cut := 0; cut <= len(data); cut++ {
			p, err := ParseHeapProfile(bytes.NewReader(data[:cut]))
			if err != nil {
				if cut > firstNL {
					t.Fatalf("%s cut at %d: %v", name, cut, err)
				}
				continue
			}
			checkHPInvariants(t, p)
			complete := 0
			for _, e := range ends {
				if e <= cut {
					complete++
				}
			}
			n := len(p.Samples)
			if n > 0 && !p.Samples[n-1].Complete {
				n--
				last := p.Samples[n]
				ref := full.Samples[n]
				if last.Time != ref.Time || len(last.Entries) > len(ref.Entries) ||
					!reflect.DeepEqual(last.Entries, ref.Entries[:len(last.Entries)]) && len(last.Entries) > 0 {
					t.Fatalf("%s cut at %d: partial sample %+v is not a prefix of %+v", name, cut, last, ref)
				}
			}
			// A cut END_SAMPLE line whose time already reads the same
			// (cut after "0.5" of "0.500000") closes its sample.
			if n == complete+1 && complete < len(ends) && cut > starts[complete] && cut < ends[complete] {
				complete++
			}
			if n != complete {
				t.Fatalf("%s cut at %d: %d complete samples, want %d", name, cut, n, complete)
			}
			for i := range n {
				if !reflect.DeepEqual(p.Samples[i], full.Samples[i]) {
					t.Fatalf("%s cut at %d: sample %d differs", name, cut, i)
				}
			}
			atLineStart := cut == 0 || data[cut-1] == '\n'
			open := len(p.Samples) > n
			if atLineStart && p.Truncated != open {
				t.Fatalf("%s cut at %d (line start): Truncated = %v, open sample = %v", name, cut, p.Truncated, open)
			}
		}
	}
}

// TestParseHeapProfileAllocations checks that entry lines cost no
// allocations beyond the interned label strings.
func TestParseHeapProfileAllocations(t *testing.T) {
	// Labels starting with the letters keywords start with take the
	// keyword check's slow path.
	labels := []string{"BLACKHOLE", "STACK", "MAIN", "(5)main", "Data.Map.Bin", "<Main.sat_s2f2>",
		"->IO", "VOID", "END_SAMPLEX", "JOBS x", "0x4a7b28 spaced label"}
	var b strings.Builder
	b.WriteString(hpHeader)
	for s := range 20 {
		fmt.Fprintf(&b, "BEGIN_SAMPLE %d.000000\n", s)
		for i := range 5000 {
			fmt.Fprintf(&b, "%s\t%d\n", labels[i%len(labels)], i*8)
		}
		fmt.Fprintf(&b, "END_SAMPLE %d.000000\n", s)
	}
	input := b.String()
	allocs := testing.AllocsPerRun(3, func() {
		if _, err := ParseHeapProfile(strings.NewReader(input)); err != nil {
			t.Fatal(err)
		}
	})
	// 100,000 entry lines; per-sample slices, scratch growth, the interned
	// labels and a few fixed costs stay far below that.
	if allocs > 150 {
		t.Errorf("%v allocations for 100,000 entry lines", allocs)
	}
}

// TestParseHeapProfileMemoryBound checks that hostile inputs allocate no
// more than a small multiple of their size.
func TestParseHeapProfileMemoryBound(t *testing.T) {
	tests := []struct {
		name   string
		input  []byte
		factor uint64
	}{
		{"no newline", bytes.Repeat([]byte("x"), 3<<20), 2},
		{"long lines", append([]byte("BEGIN_SAMPLE 0\n"), bytes.Repeat([]byte(strings.Repeat("y", 900<<10)+"\t1\n"), 4)...), 2},
		{"many empty samples", bytes.Repeat([]byte("BEGIN_SAMPLE 0\nEND_SAMPLE 0\n"), 100000), 6},
		{"many marks", bytes.Repeat([]byte("MARK 0\n"), 500000), 6},
		// 4-byte lines become 24-byte entries: 6x is inherent, plus the
		// scratch slice's growth (2x) and the exact-size copy (1x): 18x.
		{"minimal entries", append([]byte("BEGIN_SAMPLE 0\n"), bytes.Repeat([]byte("a\t1\n"), 1<<20)...), 24},
		// As above plus a label string and an intern map slot per line:
		// about 21x for 9-byte lines.
		{"distinct labels", hpDistinctLabels(200000), 32},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, _ = ParseHeapProfile(bytes.NewReader(tc.input))
			runtime.ReadMemStats(&after)
			used := after.TotalAlloc - before.TotalAlloc
			if limit := tc.factor*uint64(len(tc.input)) + 256<<10; used > limit {
				t.Errorf("allocated %d bytes for %d input bytes (limit %d)", used, len(tc.input), limit)
			}
			t.Logf("allocated %.1fx the input", float64(used)/float64(len(tc.input)))
		})
	}
}

func hpDistinctLabels(n int) []byte {
	var b bytes.Buffer
	b.WriteString("BEGIN_SAMPLE 0\n")
	for i := range n {
		fmt.Fprintf(&b, "l%d\t1\n", i)
	}
	return b.Bytes()
}

// checkHPInvariants checks properties every successful parse must have.
func checkHPInvariants(t testing.TB, p *HeapProfile) {
	t.Helper()
	ptrs := make(map[string]*byte)
	for i, s := range p.Samples {
		if math.IsNaN(s.Time) || math.IsInf(s.Time, 0) {
			t.Fatalf("sample %d: time %v", i, s.Time)
		}
		if i > 0 && s.Time < p.Samples[i-1].Time {
			t.Fatalf("sample %d: time %v before %v", i, s.Time, p.Samples[i-1].Time)
		}
		if !s.Complete && (i != len(p.Samples)-1 || !p.Truncated) {
			t.Fatalf("sample %d incomplete (of %d), Truncated = %v", i, len(p.Samples), p.Truncated)
		}
		for _, e := range s.Entries {
			l := e.Label
			if l == "" || hpIsSpace(l[0]) || hpIsSpace(l[len(l)-1]) || strings.ContainsRune(l, '\n') {
				t.Fatalf("bad label %q", l)
			}
			if kw, _ := hpSplitKeyword([]byte(l)); kw != hpNoKeyword {
				t.Fatalf("label %q starts with a keyword", l)
			}
			if old, ok := ptrs[l]; ok && old != unsafe.StringData(l) {
				t.Fatalf("label %q not interned", l)
			}
			ptrs[l] = unsafe.StringData(l)
		}
	}
	for _, m := range p.Marks {
		if math.IsNaN(m) || math.IsInf(m, 0) {
			t.Fatalf("mark %v", m)
		}
	}
}

// formatHP writes p back in .hp syntax (marks first, an incomplete last
// sample without END_SAMPLE) for round-trip checks.
func formatHP(p *HeapProfile) []byte {
	var b bytes.Buffer
	q := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	fmt.Fprintf(&b, "JOB %s\nDATE %s\nSAMPLE_UNIT %s\nVALUE_UNIT %s\n", q(p.Job), q(p.Date), q(p.SampleUnit), q(p.ValueUnit))
	for _, m := range p.Marks {
		fmt.Fprintf(&b, "MARK %s\n", f(m))
	}
	for _, s := range p.Samples {
		fmt.Fprintf(&b, "BEGIN_SAMPLE %s\n", f(s.Time))
		for _, e := range s.Entries {
			fmt.Fprintf(&b, "%s\t%d\n", e.Label, e.Bytes)
		}
		if s.Complete {
			fmt.Fprintf(&b, "END_SAMPLE %s\n", f(s.Time))
		}
	}
	return b.Bytes()
}

func FuzzParseHeapProfile(f *testing.F) {
	entries, err := os.ReadDir(hpTestDir)
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(hpTestDir, e.Name()))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(""))
	f.Add([]byte("BEGIN_SAMPLE 1\na b\t\t3\r\nEND_SAMPLE 1"))
	f.Add([]byte("JOB \"a \"\"b\"\"\"\nMARK 2\nBEGIN_SAMPLE 3\n0x1\t4\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParseHeapProfile(bytes.NewReader(data))
		if err != nil {
			if p != nil {
				t.Fatal("profile and error")
			}
			if !strings.HasPrefix(err.Error(), "hp: ") {
				t.Fatalf("error without context: %v", err)
			}
			return
		}
		checkHPInvariants(t, p)
		lines := bytes.Count(data, []byte("\n")) + 1
		n := len(p.Marks)
		for _, s := range p.Samples {
			n += 1 + len(s.Entries)
		}
		if n > lines {
			t.Fatalf("%d records from %d lines", n, lines)
		}
		// Writing the profile back and parsing it again gives the same
		// profile (Truncated then only reflects an open last sample).
		again, err := ParseHeapProfile(bytes.NewReader(formatHP(p)))
		if err != nil {
			t.Fatalf("reparse: %v\n%s", err, formatHP(p))
		}
		want := *p
		want.Truncated = len(p.Samples) > 0 && !p.Samples[len(p.Samples)-1].Complete
		if !reflect.DeepEqual(again, &want) {
			t.Fatalf("round trip differs:\n got %+v\nwant %+v", again, &want)
		}
	})
}

// hpSynthetic builds a profile of at least size bytes resembling -hc output
// of a larger program: 800 cost-centre stacks, 400 entries per sample.
func hpSynthetic(size int) []byte {
	labels := make([]string, 800)
	for i := range labels {
		labels[i] = fmt.Sprintf("(%d)Data.Module%d.function%d/caller/Main.CAF", i+100, i%37, i)
	}
	var b bytes.Buffer
	b.Grow(size + 64<<10)
	b.WriteString("JOB \"bench +RTS -hc -i0.01 -RTS\"\nDATE \"Sun Nov 22 02:56 2026\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n")
	for s := 0; b.Len() < size; s++ {
		ts := strconv.FormatFloat(float64(s)*0.01, 'f', 6, 64)
		b.WriteString("BEGIN_SAMPLE " + ts + "\n")
		for i := range 400 {
			b.WriteString(labels[(s*7+i*13)%len(labels)])
			b.WriteByte('\t')
			b.WriteString(strconv.Itoa((s + 1) * (i + 1) * 8))
			b.WriteByte('\n')
		}
		b.WriteString("END_SAMPLE " + ts + "\n")
	}
	return b.Bytes()
}

func BenchmarkParseHeapProfile(b *testing.B) {
	data := hpSynthetic(64 << 20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseHeapProfile(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}
