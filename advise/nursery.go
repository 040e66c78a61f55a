package advise

import (
	"strconv"
	"strings"
)

// nursery is the size of the allocation area (+RTS -A) per HEC, and where
// the figure comes from.
type nursery struct {
	bytes uint64
	from  string
}

// nursery returns the run's nursery size: the RTS's own heap-info event
// (GHC ≥ 7.6 logs it at startup, whatever set it: -A, GHCRTS or
// -with-rtsopts), else the last -A of the command line's RTS options and
// GHCRTS, else the default of the log's GHC version (512 KB before GHC 8,
// 1 MB from GHC 8.0 to 9.0: `+RTS -?` of GHC 9.0.2 says "default 1m"; GHC
// later raised it to 4 MB, but those logs all have the heap-info event).
func (r *run) nursery() (nursery, bool) {
	opts := rtsOptions(r.sum.Args, r.sum.Env)
	given := ""
	for _, o := range opts {
		if v, ok := strings.CutPrefix(o, "-A"); ok && !strings.HasPrefix(v, "L") {
			given = o
		}
	}
	if i := r.heap.Info; i.Known && i.AllocArea > 0 {
		from := "the RTS's heap-info event"
		if given != "" {
			from += ", +RTS " + given
		}
		return nursery{i.AllocArea, from}, true
	}
	if given != "" {
		if n, ok := parseSize(strings.TrimPrefix(given, "-A")); ok {
			return nursery{n, "+RTS " + given}, true
		}
	}
	major, minor, ok := ghcVersion(r.sum.RTS)
	switch {
	case !ok:
		return nursery{}, false
	case major < 8:
		return nursery{512 << 10, "GHC " + itoa(uint64(major)) + "'s default"}, true
	case major == 8 || (major == 9 && minor <= 0):
		return nursery{1 << 20, "the default of GHC 8.0 to 9.0"}, true
	}
	return nursery{}, false
}

// rtsOptions returns the RTS options a program ran with, in the order the
// RTS reads them (a later one overrides an earlier): those of the GHCRTS
// environment variable, then those between +RTS and -RTS (or the end) on
// its command line.
func rtsOptions(args, env []string) []string {
	var out []string
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, "GHCRTS="); ok {
			out = append(out, strings.Fields(v)...)
		}
	}
	in := false
	for _, a := range args {
		switch {
		case a == "+RTS":
			in = true
		case a == "-RTS":
			in = false
		case a == "--RTS":
			return out
		case in:
			out = append(out, a)
		}
	}
	return out
}

// parseSize reads an RTS size option's value as the RTS does: a number,
// then an optional unit k, m, g (powers of 1024) or w (8-byte words).
func parseSize(s string) (uint64, bool) {
	mult := 1.0
	if s != "" {
		switch s[len(s)-1] {
		case 'k', 'K':
			mult = 1 << 10
		case 'm', 'M':
			mult = 1 << 20
		case 'g', 'G':
			mult = 1 << 30
		case 'w', 'W':
			mult = 8
		}
		if mult != 1 {
			s = s[:len(s)-1]
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v > 0) || v*mult >= 1<<63 {
		return 0, false
	}
	return uint64(v * mult), true
}

// ghcVersion reads the major and minor version from an RTS identifier
// such as "GHC-9.0.2 rts_thr_l".
func ghcVersion(rts string) (major, minor int, ok bool) {
	v, found := strings.CutPrefix(rts, "GHC-")
	if !found {
		return 0, 0, false
	}
	v, _, _ = strings.Cut(v, " ")
	parts := strings.Split(v, ".")
	if len(parts) < 2 {
		return 0, 0, false
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	return major, minor, err1 == nil && err2 == nil
}
