package app

import (
	"time"

	"github.com/hecscope/hecscope/ingest"
)

// ProcessInfo is what an eventlog says about the process that wrote it.
// Fields the log does not carry are left zero.
type ProcessInfo struct {
	// Program is the program name, the first of its arguments.
	Program string
	// Args are the remaining command-line arguments, RTS options included.
	Args []string
	// RTS identifies the runtime system, e.g. "GHC-9.0.2 rts_thr_l".
	RTS string
	// Env is the process environment as NAME=value strings.
	Env []string
	// PID and PPID are the operating-system process ids (0 if absent).
	PID, PPID uint64
	// Started is the wall-clock time at which the RTS started (zero if absent).
	Started time.Time
	// Capabilities is the capability count the RTS announced at startup
	// (0 if the log has no startup event).
	Capabilities int
}

// observe takes the process facts from one event; the first value seen for
// each fact wins, since a log with several processes describes the first one
// first.
func (p *ProcessInfo) observe(ev *ingest.Event) {
	switch ev.Kind {
	case ingest.KindProgramArgs:
		if p.Program == "" {
			if s := ev.Strings(); len(s) > 0 {
				p.Program, p.Args = s[0], s[1:]
			}
		}
	case ingest.KindRTSIdentifier:
		if p.RTS == "" {
			p.RTS = ev.Text()
		}
	case ingest.KindProgramEnv:
		if p.Env == nil {
			p.Env = ev.Strings()
		}
	case ingest.KindOSProcessPid:
		if p.PID == 0 {
			p.PID = ev.Args[1]
		}
	case ingest.KindOSProcessPpid:
		if p.PPID == 0 {
			p.PPID = ev.Args[1]
		}
	case ingest.KindWallClockTime:
		if p.Started.IsZero() && ev.Args[1] < 1<<40 && ev.Args[2] < 1e9 {
			// The event gives the wall clock at ev.Time; the RTS started ev.Time earlier.
			at := time.Unix(int64(ev.Args[1]), int64(ev.Args[2]))
			p.Started = at.Add(-time.Duration(ev.Time))
		}
	case ingest.KindStartup:
		if p.Capabilities == 0 {
			p.Capabilities = int(ev.Args[0])
		}
	}
}
