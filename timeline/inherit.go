package timeline

import "slices"

// A program that starts event logging again (GHC 9.0's way to flush its
// eventlog, and eventlog-socket's for every client) writes a new eventlog
// without the events the RTS writes once, at startup: which program it is
// (ProgramArgs, ProgramEnv, RTSIdentifier, WallClockTime) and which
// capabilities it has (CapCreate, CapsetAssignCap). Such an eventlog, a
// later segment of a file or a live stream, names the program and the
// capabilities from an earlier one, and says so.

// Inherit fills in what s lacks of the program's identity and of its
// created capabilities from earlier, the Summary of an earlier eventlog of
// the same program, numbered from (counted from 1, as the segments of a
// file are), and records that it did in InheritedFrom; its RTS figures
// are then withheld (WhyRestarted). A Summary that has its own identity
// keeps it.
func (s *Summary) Inherit(earlier *Summary, from int) {
	if s.Program != "" || s.RTS != "" || !s.StartWall.IsZero() || len(s.Args) > 0 {
		return
	}
	if earlier.Program == "" && earlier.RTS == "" && earlier.StartWall.IsZero() && len(earlier.CreatedCaps) == 0 {
		return
	}
	s.Program, s.RTS, s.StartWall = earlier.Program, earlier.RTS, earlier.StartWall
	s.Args = slices.Clone(earlier.Args)
	s.Env = slices.Clone(earlier.Env)
	if len(s.CreatedCaps) == 0 && len(earlier.CreatedCaps) > 0 {
		s.CreatedCaps = slices.Clone(earlier.CreatedCaps)
		for _, c := range s.CreatedCaps {
			s.CapNumbers = addCap(s.CapNumbers, c)
		}
		s.Capabilities = len(s.CapNumbers)
	}
	s.InheritedFrom = from
	s.WithholdRTS(WhyRestarted)
}
