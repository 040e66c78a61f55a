package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// This file parses the textual heap profile (".hp" file) that the GHC RTS
// writes next to the eventlog when a heap profile is requested. The grammar
// is line oriented:
//
//	JOB "<program and arguments>"
//	DATE "<date>"
//	SAMPLE_UNIT "seconds"
//	VALUE_UNIT "bytes"
//	BEGIN_SAMPLE <float>
//	<identifier>\t<integer>     (zero or more)
//	END_SAMPLE <float>
//	...
//	MARK <float>                (between samples; only very old GHCs)
//
// The parser is strict about structure (nesting of samples, order of sample
// times, well-formed numbers and strings) and tolerant about whitespace
// (blank lines, CRLF line ends, runs of spaces or tabs between fields,
// leading and trailing blanks).

// MaxHeapProfileLineLength is the longest line, in bytes without its line
// end, that ParseHeapProfile accepts. A longer line makes the parse fail with
// ErrHeapProfileLineTooLong before more than about this many bytes of it are
// buffered.
const MaxHeapProfileLineLength = 1 << 20

// ErrHeapProfileMalformed is wrapped by every error that ParseHeapProfile
// returns for input that is not a well-formed heap profile.
var ErrHeapProfileMalformed = errors.New("malformed heap profile")

// ErrHeapProfileLineTooLong is wrapped by the error that ParseHeapProfile
// returns when a line exceeds MaxHeapProfileLineLength.
var ErrHeapProfileLineTooLong = errors.New("heap profile line too long")

// HeapProfile is a parsed textual GHC heap profile.
type HeapProfile struct {
	// Job is the JOB string: the program name, followed for the profiling
	// RTS by its arguments and RTS options. Empty if the file has no JOB line.
	Job string
	// Date is the DATE string, as written by the RTS (ctime without seconds).
	Date string
	// SampleUnit is the SAMPLE_UNIT string, "seconds" in GHC output.
	SampleUnit string
	// ValueUnit is the VALUE_UNIT string, "bytes" in GHC output.
	ValueUnit string
	// Samples holds the samples in file order, which is also non-decreasing
	// time order.
	Samples []HeapSample
	// Marks holds the times of the MARK lines, in file order.
	Marks []float64
	// Truncated reports that the input was cut off: it ended inside a
	// sample (that sample is kept as the last one, with Complete false) or
	// with a partial line that was dropped (see ParseHeapProfile).
	Truncated bool
}

// HeapSample is one census of a heap profile: the BEGIN_SAMPLE time and
// the entry lines up to the matching END_SAMPLE.
type HeapSample struct {
	// Time is the sample time in SampleUnit (mutator CPU seconds for GHC).
	Time float64
	// Entries holds the entry lines of the sample in file order. Identical
	// labels within one profile share a single string.
	Entries []HeapEntry
	// Complete is false only for a final sample whose END_SAMPLE line is
	// missing because the input was cut off.
	Complete bool
}

// HeapEntry is one entry line of a sample: a band label (cost-centre stack,
// closure description, type, retainer set, biography band, ...) and the
// number of bytes attributed to it.
type HeapEntry struct {
	// Label is the identifier as written in the file.
	Label string
	// Bytes is the amount of live heap attributed to Label, in ValueUnit.
	Bytes uint64
}

// TotalBytes returns the sum of the entries' byte counts, saturating at
// the largest uint64 instead of wrapping around.
func (s HeapSample) TotalBytes() uint64 {
	var total uint64
	for _, e := range s.Entries {
		if total+e.Bytes < total {
			return math.MaxUint64
		}
		total += e.Bytes
	}
	return total
}

// ParseHeapProfile reads a textual GHC heap profile from r.
//
// Structure is checked strictly: the header lines (JOB, DATE, SAMPLE_UNIT,
// VALUE_UNIT; each optional, at most once, any order) come before the first
// BEGIN_SAMPLE; BEGIN_SAMPLE times never decrease; each END_SAMPLE repeats its
// BEGIN_SAMPLE time; MARK lines appear only between samples; a line inside a
// sample whose first word is a keyword other than END_SAMPLE is an error
// (hp2ps would misread it). Keywords are upper case. Whitespace is treated
// leniently: blank lines, CRLF line ends, leading and trailing blanks and
// runs of spaces or tabs between fields are accepted.
//
// An entry line is split at its last tab, or at its last run of blanks if it
// has no tab; the trimmed text before it is the label, which may contain
// blanks and look like anything (digits, punctuation), and the text after it
// must be an unsigned decimal integer.
//
// Input that ends inside a sample yields that sample with Complete false and
// sets Truncated. A last line without a line end is kept only if it is
// complete by construction (a header line with its closing quote, or an
// END_SAMPLE whose time matches); an entry, BEGIN_SAMPLE or MARK line there
// may have lost digits, so it is dropped and Truncated is set, as for an
// unparsable last line.
//
// Any other malformed line is an error of the form "hp: line N: ..." that
// wraps ErrHeapProfileMalformed; a line longer than MaxHeapProfileLineLength
// is an error wrapping ErrHeapProfileLineTooLong; read errors from r are
// returned wrapped. On error the profile is nil.
func ParseHeapProfile(r io.Reader) (*HeapProfile, error) {
	size := 64 << 10
	if l, ok := r.(interface{ Len() int }); ok {
		size = hpBufferSize(int64(l.Len()))
	}
	return parseHeapProfile(r, size)
}

// hpBufferSize picks a bufio buffer size for an input of n bytes: big enough
// to hold the whole input when it is small, so that tiny inputs do not cost a
// large buffer, and capped for large inputs.
func hpBufferSize(n int64) int {
	const maxSize = 64 << 10
	if n < 0 || n >= maxSize {
		return maxSize
	}
	if n < 15 {
		return 16
	}
	return int(n) + 1
}

// hpKeyword identifies the first word of a line.
type hpKeyword int

const (
	hpNoKeyword hpKeyword = iota
	hpJob
	hpDate
	hpSampleUnit
	hpValueUnit
	hpBeginSample
	hpEndSample
	hpMark
)

// hpParser holds the state of one ParseHeapProfile call.
type hpParser struct {
	br   *bufio.Reader
	long []byte // assembles lines longer than the bufio buffer
	line int    // number of the line being processed, 1-based

	prof   *HeapProfile
	intern map[string]string

	seenHeader [hpValueUnit + 1]bool
	parsedAny  bool // a non-blank line has been accepted

	inSample    bool
	sampleLine  int     // line of the current BEGIN_SAMPLE
	sampleTime  float64 // time of the current (or last) BEGIN_SAMPLE
	haveSamples bool    // a BEGIN_SAMPLE has been seen
	entries     []HeapEntry
}

func parseHeapProfile(r io.Reader, bufSize int) (*HeapProfile, error) {
	p := &hpParser{
		br:     bufio.NewReaderSize(r, bufSize),
		prof:   &HeapProfile{},
		intern: make(map[string]string),
	}
	for {
		line, terminated, err := p.readLine()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if terminated {
			if err := p.handle(line); err != nil {
				return nil, err
			}
			continue
		}
		if err := p.handleLast(line); err != nil {
			return nil, err
		}
		break
	}
	if p.inSample {
		p.closeSample(false)
		p.prof.Truncated = true
	}
	if p.line == 0 {
		return nil, fmt.Errorf("hp: empty input: %w", ErrHeapProfileMalformed)
	}
	if !p.parsedAny {
		return nil, fmt.Errorf("hp: line %d: no heap profile records: %w", p.line, ErrHeapProfileMalformed)
	}
	return p.prof, nil
}

// readLine returns the next line without its '\n' and whether it had one.
// It returns io.EOF once the input is exhausted. The returned slice is only
// valid until the next call.
func (p *hpParser) readLine() ([]byte, bool, error) {
	b, err := p.br.ReadSlice('\n')
	if err != io.EOF || len(b) > 0 {
		p.line++
	}
	switch err {
	case nil:
		b = b[:len(b)-1]
		if len(b) > MaxHeapProfileLineLength {
			return nil, false, p.tooLong()
		}
		return b, true, nil
	case io.EOF:
		if len(b) == 0 {
			return nil, false, io.EOF
		}
		if len(b) > MaxHeapProfileLineLength {
			return nil, false, p.tooLong()
		}
		return b, false, nil
	case bufio.ErrBufferFull:
		// The line does not fit in the buffer: assemble it in p.long,
		// giving up as soon as it is known to be too long.
		p.long = append(p.long[:0], b...)
		for {
			if len(p.long) > MaxHeapProfileLineLength {
				return nil, false, p.tooLong()
			}
			b, err = p.br.ReadSlice('\n')
			p.long = append(p.long, b...)
			switch err {
			case nil:
				line := p.long[:len(p.long)-1]
				if len(line) > MaxHeapProfileLineLength {
					return nil, false, p.tooLong()
				}
				return line, true, nil
			case bufio.ErrBufferFull:
				continue
			case io.EOF:
				if len(p.long) > MaxHeapProfileLineLength {
					return nil, false, p.tooLong()
				}
				return p.long, false, nil
			default:
				return nil, false, fmt.Errorf("hp: line %d: read: %w", p.line, err)
			}
		}
	default:
		return nil, false, fmt.Errorf("hp: line %d: read: %w", p.line, err)
	}
}

func (p *hpParser) tooLong() error {
	return fmt.Errorf("hp: line %d: longer than %d bytes: %w", p.line, MaxHeapProfileLineLength, ErrHeapProfileLineTooLong)
}

// errorf builds a malformed-input error for the current line.
func (p *hpParser) errorf(format string, args ...any) error {
	return fmt.Errorf("hp: line %d: %s: %w", p.line, fmt.Sprintf(format, args...), ErrHeapProfileMalformed)
}

// handleLast processes a final line that has no line end, which is either
// the normal last line of a file written without a final newline or a line
// cut short by a killed program. Only lines that are complete by
// construction are kept: a header line with its closing quote, or an
// END_SAMPLE whose time matches its BEGIN_SAMPLE. A line ending in a number
// (an entry, BEGIN_SAMPLE or MARK) may have lost digits, so it is dropped and
// Truncated is set, as for a line that does not parse.
func (p *hpParser) handleLast(line []byte) error {
	trimmed := hpTrim(line)
	if len(trimmed) == 0 {
		return nil
	}
	if !p.parsedAny {
		// Nothing to keep yet: report garbage as garbage.
		return p.handle(trimmed)
	}
	kw, _ := hpSplitKeyword(trimmed)
	trusted := kw == hpEndSample && p.inSample ||
		!p.inSample && (kw == hpJob || kw == hpDate || kw == hpSampleUnit || kw == hpValueUnit)
	if trusted {
		err := p.handle(trimmed)
		if err == nil || !errors.Is(err, ErrHeapProfileMalformed) {
			return err
		}
		// handle changes no state when it fails, so dropping the line
		// leaves the profile as it was before it.
	}
	p.prof.Truncated = true
	return nil
}

// handle processes one complete line. It changes no parser state when it
// returns an error.
func (p *hpParser) handle(line []byte) error {
	line = hpTrim(line)
	if len(line) == 0 {
		return nil
	}
	kw, rest := hpSplitKeyword(line)
	if p.inSample {
		switch kw {
		case hpNoKeyword:
			return p.entry(line)
		case hpEndSample:
			t, ok := hpParseTime(rest)
			if !ok {
				return p.errorf("END_SAMPLE needs a time, got %s", hpSnippet(rest))
			}
			if t != p.sampleTime {
				return p.errorf("END_SAMPLE %s does not match BEGIN_SAMPLE %s on line %d",
					hpSnippet(rest), hpFormatTime(p.sampleTime), p.sampleLine)
			}
			p.closeSample(true)
			p.parsedAny = true
			return nil
		default:
			return p.errorf("%s inside the sample that begins on line %d", hpKeywordName(kw), p.sampleLine)
		}
	}
	switch kw {
	case hpJob, hpDate, hpSampleUnit, hpValueUnit:
		if p.haveSamples {
			return p.errorf("%s after the first sample", hpKeywordName(kw))
		}
		if p.seenHeader[kw] {
			return p.errorf("second %s line", hpKeywordName(kw))
		}
		s, err := hpParseQuoted(rest)
		if err != nil {
			return p.errorf("%s: %v", hpKeywordName(kw), err)
		}
		p.seenHeader[kw] = true
		switch kw {
		case hpJob:
			p.prof.Job = s
		case hpDate:
			p.prof.Date = s
		case hpSampleUnit:
			p.prof.SampleUnit = s
		case hpValueUnit:
			p.prof.ValueUnit = s
		}
	case hpBeginSample:
		t, ok := hpParseTime(rest)
		if !ok {
			return p.errorf("BEGIN_SAMPLE needs a time, got %s", hpSnippet(rest))
		}
		if p.haveSamples && t < p.sampleTime {
			return p.errorf("BEGIN_SAMPLE time %s is before the previous sample's %s",
				hpFormatTime(t), hpFormatTime(p.sampleTime))
		}
		p.inSample = true
		p.haveSamples = true
		p.sampleTime = t
		p.sampleLine = p.line
		p.entries = p.entries[:0]
	case hpEndSample:
		return p.errorf("END_SAMPLE without BEGIN_SAMPLE")
	case hpMark:
		t, ok := hpParseTime(rest)
		if !ok {
			return p.errorf("MARK needs a time, got %s", hpSnippet(rest))
		}
		p.prof.Marks = append(p.prof.Marks, t)
	default:
		if !p.parsedAny {
			return p.errorf("not a heap profile: first line is %s", hpSnippet(line))
		}
		return p.errorf("unexpected line outside a sample: %s", hpSnippet(line))
	}
	p.parsedAny = true
	return nil
}

// entry parses an identifier/byte-count line of the current sample. line is
// already trimmed and does not start with a keyword.
func (p *hpParser) entry(line []byte) error {
	var label, num []byte
	if i := bytes.LastIndexByte(line, '\t'); i >= 0 {
		label, num = line[:i], line[i+1:]
	} else {
		j := len(line) - 1
		for j >= 0 && !hpIsSpace(line[j]) {
			j--
		}
		if j < 0 {
			return p.errorf("entry %s has no byte count", hpSnippet(line))
		}
		label, num = line[:j], line[j+1:]
	}
	label = hpTrim(label)
	num = hpTrim(num)
	if len(label) == 0 {
		return p.errorf("entry %s has no identifier", hpSnippet(line))
	}
	n, ok := hpParseUint(num)
	if !ok {
		return p.errorf("entry %s: byte count %s is not a decimal integer", hpSnippet(label), hpSnippet(num))
	}
	s, ok := p.intern[string(label)]
	if !ok {
		s = string(label)
		p.intern[s] = s
	}
	if len(p.entries) == cap(p.entries) {
		p.entries = hpGrow(p.entries)
	}
	p.entries = append(p.entries, HeapEntry{Label: s, Bytes: n})
	p.parsedAny = true
	return nil
}

// closeSample appends the current sample to the profile, copying its
// entries into an exactly sized slice.
func (p *hpParser) closeSample(complete bool) {
	var entries []HeapEntry
	if len(p.entries) > 0 {
		entries = make([]HeapEntry, len(p.entries))
		copy(entries, p.entries)
	}
	if len(p.prof.Samples) == cap(p.prof.Samples) {
		p.prof.Samples = hpGrow(p.prof.Samples)
	}
	p.prof.Samples = append(p.prof.Samples, HeapSample{
		Time:     p.sampleTime,
		Entries:  entries,
		Complete: complete,
	})
	p.inSample = false
	p.entries = p.entries[:0]
}

// hpGrow returns s with its capacity doubled (at least 8). append alone
// grows large slices by only 1.25x, which makes the garbage left behind by
// a long run of appends about four times the final slice; doubling keeps it
// at about one time.
func hpGrow[T any](s []T) []T {
	c := 2 * cap(s)
	if c < 8 {
		c = 8
	}
	out := make([]T, len(s), c)
	copy(out, s)
	return out
}

func hpIsSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

// hpTrim removes leading and trailing blanks (including '\r').
func hpTrim(b []byte) []byte {
	for len(b) > 0 && hpIsSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	for len(b) > 0 && hpIsSpace(b[0]) {
		b = b[1:]
	}
	return b
}

// hpSplitKeyword reports which keyword, if any, the trimmed line starts
// with, and returns the trimmed rest of the line after it.
func hpSplitKeyword(line []byte) (hpKeyword, []byte) {
	// Every keyword starts with one of these letters; most entry lines
	// are rejected by this first test.
	switch line[0] {
	case 'B', 'D', 'E', 'J', 'M', 'S', 'V':
	default:
		return hpNoKeyword, nil
	}
	n := 0
	for n < len(line) && !hpIsSpace(line[n]) {
		n++
	}
	var kw hpKeyword
	switch string(line[:n]) {
	case "JOB":
		kw = hpJob
	case "DATE":
		kw = hpDate
	case "SAMPLE_UNIT":
		kw = hpSampleUnit
	case "VALUE_UNIT":
		kw = hpValueUnit
	case "BEGIN_SAMPLE":
		kw = hpBeginSample
	case "END_SAMPLE":
		kw = hpEndSample
	case "MARK":
		kw = hpMark
	default:
		return hpNoKeyword, nil
	}
	return kw, hpTrim(line[n:])
}

func hpKeywordName(kw hpKeyword) string {
	switch kw {
	case hpJob:
		return "JOB"
	case hpDate:
		return "DATE"
	case hpSampleUnit:
		return "SAMPLE_UNIT"
	case hpValueUnit:
		return "VALUE_UNIT"
	case hpBeginSample:
		return "BEGIN_SAMPLE"
	case hpEndSample:
		return "END_SAMPLE"
	case hpMark:
		return "MARK"
	}
	return "identifier"
}

// hpParseTime parses a finite floating-point time that makes up the whole
// of b.
func hpParseTime(b []byte) (float64, bool) {
	if len(b) == 0 || len(b) > 64 {
		return 0, false
	}
	for _, c := range b {
		// Plain decimal notation only: this rejects "NaN", "Inf", hex
		// floats and underscores, which strconv would accept.
		if !(c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E') {
			return 0, false
		}
	}
	t, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsInf(t, 0) || math.IsNaN(t) {
		return 0, false
	}
	return t, true
}

func hpFormatTime(t float64) string {
	return strconv.FormatFloat(t, 'f', -1, 64)
}

// hpParseUint parses an unsigned decimal integer that makes up the whole of
// b, rejecting signs and overflow.
func hpParseUint(b []byte) (uint64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	var n uint64
	for _, c := range b {
		d := uint64(c) - '0'
		if d > 9 {
			return 0, false
		}
		if n > (math.MaxUint64-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	return n, true
}

// hpParseQuoted parses a double-quoted string in which a doubled quote
// stands for one quote, and which must make up the whole of b.
func hpParseQuoted(b []byte) (string, error) {
	if len(b) == 0 || b[0] != '"' {
		return "", fmt.Errorf("expected a quoted string, got %s", hpSnippet(b))
	}
	var out []byte
	i := 1
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return "", errors.New("unterminated quoted string")
		}
		j += i
		if j+1 < len(b) && b[j+1] == '"' {
			out = append(out, b[i:j+1]...)
			i = j + 2
			continue
		}
		if j+1 != len(b) {
			return "", fmt.Errorf("unexpected text after closing quote: %s", hpSnippet(b[j+1:]))
		}
		if out == nil {
			return string(b[i:j]), nil
		}
		out = append(out, b[i:j]...)
		return string(out), nil
	}
}

// hpSnippet quotes at most the first 40 bytes of b for an error message.
func hpSnippet(b []byte) string {
	const max = 40
	if len(b) > max {
		return strconv.Quote(string(b[:max])) + "..."
	}
	return strconv.Quote(string(b))
}
