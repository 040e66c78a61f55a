package tracks

import (
	"sort"
	"strconv"
	"strings"

	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// The inks of the states, instant events and stop statuses: the one
// mapping from the models' words to the inks, whose names are the words
// every view and table uses.
var (
	stateInks = [timeline.NumStates]paint.Ink{
		timeline.StateIdle: paint.InkIdle, timeline.StateRunning: paint.InkRunning, timeline.StateRunnable: paint.InkRunnable,
		timeline.StateGCSync: paint.InkGCSync, timeline.StateGCWork: paint.InkGCWork, timeline.StateGCIdle: paint.InkGCIdle,
		timeline.StateGCDone: paint.InkGCDone, timeline.StateBlocked: paint.InkBlocked, timeline.StateFinished: paint.InkFinished,
	}
	instantInks = [timeline.NumInstantKinds]paint.Ink{
		timeline.InstantCreateThread: paint.InkCreateThread, timeline.InstantCreateSparkThread: paint.InkCreateThread,
		timeline.InstantMigrateThread: paint.InkMigrate, timeline.InstantWakeupThread: paint.InkWakeup,
		timeline.InstantRequestSeqGC: paint.InkSeqGCRequest, timeline.InstantRequestParGC: paint.InkParGCRequest,
		timeline.InstantShutdown: paint.InkShutdown, timeline.InstantUserMessage: paint.InkUserMessage,
		timeline.InstantUserMarker: paint.InkMarker, timeline.InstantLogMessage: paint.InkLogMessage,
	}
	// blockedInks has one ink per family of reasons a thread blocks for
	// (InkBlocked for the others, and for statuses past the table).
	blockedInks = [ingest.StopBlockedMVarRead + 1]paint.Ink{
		ingest.StopBlockedMVar: paint.InkBlockedMVar, ingest.StopBlockedMVarRead: paint.InkBlockedMVar,
		ingest.StopBlockedBlackHole: paint.InkBlockedBlackHole, ingest.StopBlockedSTM: paint.InkBlockedSTM,
		ingest.StopBlockedRead: paint.InkBlockedIO, ingest.StopBlockedWrite: paint.InkBlockedIO, ingest.StopBlockedDelay: paint.InkBlockedIO,
		ingest.StopForeignCall: paint.InkForeignCall, ingest.StopBlockedCCall: paint.InkForeignCall, ingest.StopBlockedCCallIntr: paint.InkForeignCall,
		ingest.StopBlockedThrowTo: paint.InkBlockedThrowTo,
	}
)

// stateInk returns the ink of a state (blocked ones by the stop status
// reason); InkIdle and InkFinished are not drawn.
func stateInk(s timeline.State, reason uint8) paint.Ink {
	switch {
	case s == timeline.StateBlocked:
		return blockedInk(ingest.StopStatus(reason))
	case s < timeline.NumStates:
		return stateInks[s]
	}
	return paint.InkIdle
}

// blockedInk returns the ink of a thread blocked with stop status st.
func blockedInk(st ingest.StopStatus) paint.Ink {
	if int(st) < len(blockedInks) && blockedInks[st] != paint.InkIdle {
		return blockedInks[st]
	}
	return paint.InkBlocked
}

// drawn reports whether an ink is drawn on a state track (idle and
// finished are the background).
func drawn(k paint.Ink) bool { return k != paint.InkIdle && k != paint.InkFinished }

// stateName returns the one name of a state: its ink's.
func stateName(s timeline.State) string { return stateInk(s, 0).Name() }

// instantInk returns the ink of an instant event's tick.
func instantInk(k timeline.InstantKind) paint.Ink {
	if k < timeline.NumInstantKinds {
		return instantInks[k]
	}
	return paint.InkLogMessage
}

// sparkInk returns the ink of a spark kind's curve.
func sparkInk(k timeline.SparkKind) paint.Ink {
	return [timeline.NumSparkKinds]paint.Ink{paint.InkSparkCreated, paint.InkSparkDud, paint.InkSparkOverflowed,
		paint.InkSparkConverted, paint.InkSparkStolen, paint.InkSparkFizzled, paint.InkSparkGCd}[k%timeline.NumSparkKinds]
}

// threadStateText describes a thread's state from its mark: "running on
// HEC 1", "blocked on MVar", "runnable".
func threadStateText(mk timeline.Mark) string {
	switch mk.State {
	case timeline.StateRunning:
		return "running on HEC " + itoa(mk.Arg)
	case timeline.StateBlocked:
		s := "blocked"
		if mk.Stop().BlockedOn() != "" {
			s = mk.Stop().Reason()
		}
		if mk.Arg != 0 && mk.Stop() == ingest.StopBlockedBlackHole {
			s += " owned by thread " + itoa(mk.Arg)
		}
		return s
	case timeline.StateIdle:
		return "not yet created"
	}
	return stateName(mk.State)
}

// mixText lists the states of durations by their share, largest first:
// "running 62%, GC work 20%, idle 18%".
func mixText(d *timeline.Durations) string {
	total := d.Total()
	if total == 0 {
		return "nothing recorded"
	}
	type part struct {
		s  timeline.State
		ns uint64
	}
	var parts []part
	for s := timeline.State(0); s < timeline.NumStates; s++ {
		if d[s] > 0 {
			parts = append(parts, part{s, d[s]})
		}
	}
	sort.SliceStable(parts, func(i, j int) bool { return parts[i].ns > parts[j].ns })
	var out []string
	for _, p := range parts {
		out = append(out, stateName(p.s)+" "+paint.Percent(float64(p.ns)/float64(total)))
	}
	return strings.Join(out, ", ")
}

// The GC figures' words, those of the GC tab's table and `hecscope
// summary` (timeline.GCRowsDefinition): a GC's pause (heapview.GC.Pause)
// is GC start to GC end on the HEC that ran it; the bar spans the time
// some HEC was stopped for it (heapview.GC.Stopped).
const (
	pauseWords    = "pause"
	maxPauseWords = "max pause"
	stoppedWords  = "HECs stopped"
	// logToggleWords labels a rate track's log scale toggle.
	logToggleWords = "log"
	// gcShareWords says what the GC track's bars measure.
	gcShareWords = "height: time in GC"
)

// gcText describes a GC: "minor GC (gen 0), pause 1.2 ms" ("GC
// (generation not logged)" without its statistics, as before GHC 7.6),
// and how long the HECs were stopped for it if that differs.
func gcText(g *heapview.GC) string {
	kind := "minor GC (gen " + strconv.Itoa(int(g.Gen)) + ")"
	switch {
	case !g.HasStats:
		kind = "GC (generation not logged)"
	case g.Major():
		kind = "major GC (gen " + strconv.Itoa(int(g.Gen)) + ")"
	}
	text := kind + ", " + pauseWords + " " + paint.Duration(g.Pause())
	if g.Stopped() != g.Pause() {
		text += ", " + stoppedWords + " " + paint.Duration(g.Stopped())
	}
	return text
}
