package timeline

import (
	"image/color"

	"github.com/hecscope/hecscope/ingest"
)

// Palette is the colours of what frames the data — background, text,
// grid, axis and rules — for a light or a dark surrounding. The data keep
// their colours in both.
type Palette struct {
	Background, Text, Grid, Axis, RowRule, LabelOnBar color.RGBA
	// Idle fills time when nothing ran, where that is drawn at all (the
	// comparison's distributions).
	Idle color.RGBA
	// Line draws a curve that has no colour of its own (the heap size).
	Line color.RGBA
}

// Light is the palette for light surroundings, as ThreadScope draws.
var Light = Palette{
	Background: color.RGBA{0xff, 0xff, 0xff, 0xff},
	Text:       color.RGBA{0x20, 0x20, 0x20, 0xff},
	Grid:       color.RGBA{0xe4, 0xe4, 0xe4, 0xff},
	Axis:       color.RGBA{0x60, 0x60, 0x60, 0xff},
	RowRule:    color.RGBA{0xc8, 0xc8, 0xc8, 0xff},
	LabelOnBar: color.RGBA{0xff, 0xff, 0xff, 0xff},
	Idle:       color.RGBA{0xd8, 0xd8, 0xd8, 0xff},
	Line:       color.RGBA{0x10, 0x10, 0x10, 0xff},
}

// Dark is the palette for dark surroundings (a desktop's dark theme); its
// background is that of Fyne's dark theme.
var Dark = Palette{
	Background: color.RGBA{0x17, 0x17, 0x18, 0xff},
	Text:       color.RGBA{0xe4, 0xe4, 0xe4, 0xff},
	Grid:       color.RGBA{0x34, 0x34, 0x38, 0xff},
	Axis:       color.RGBA{0xa0, 0xa0, 0xa4, 0xff},
	RowRule:    color.RGBA{0x48, 0x48, 0x4c, 0xff},
	LabelOnBar: color.RGBA{0xff, 0xff, 0xff, 0xff},
	Idle:       color.RGBA{0x50, 0x50, 0x54, 0xff},
	Line:       color.RGBA{0xe8, 0xe8, 0xe8, 0xff},
}

// PaletteFor returns Dark if dark is true, Light otherwise.
func PaletteFor(dark bool) Palette {
	if dark {
		return Dark
	}
	return Light
}

// The data's colours follow ThreadScope where its users know them: running
// code green, garbage collection orange, thread creation light blue, GC
// requests cyan and dark blue, migration dark red, wakeups green, shutdown
// brown; the thread states it never drew get colours of their own.
var (
	ColourRunning   = color.RGBA{0x00, 0x64, 0x00, 0xff} // ThreadScope's running dark green
	ColourGC        = color.RGBA{0xe8, 0x70, 0x10, 0xff} // ThreadScope's GC orange: GC threads working
	ColourGCWaiting = color.RGBA{0xe4, 0xd4, 0xb4, 0xff} // ThreadScope's "GC waiting": synchronising, idle or done
	ColourRunnable  = color.RGBA{0xc8, 0xdc, 0xa0, 0xff}
	ColourBlocked   = color.RGBA{0xd0, 0x60, 0x60, 0xff}
	ColourActivity  = color.RGBA{0x00, 0x64, 0x00, 0xff}
	ColourMarker    = color.RGBA{0xe0, 0x40, 0xa0, 0xff} // ThreadScope draws bookmarks pink

	ColourCreateThread  = color.RGBA{0x70, 0xb0, 0xf0, 0xff}
	ColourMigrate       = color.RGBA{0x8b, 0x00, 0x00, 0xff}
	ColourWakeup        = color.RGBA{0x00, 0x80, 0x00, 0xff}
	ColourSeqGCRequest  = color.RGBA{0x00, 0xc0, 0xc0, 0xff}
	ColourParGCRequest  = color.RGBA{0x00, 0x00, 0x8b, 0xff}
	ColourShutdown      = color.RGBA{0x80, 0x50, 0x20, 0xff}
	ColourUserMessage   = color.RGBA{0xb0, 0x20, 0x20, 0xff}
	ColourLogMessage    = color.RGBA{0x60, 0x60, 0x60, 0xff}
	ColourSparkCreated  = color.RGBA{0x00, 0x64, 0x00, 0xff}
	ColourSparkConvert  = color.RGBA{0x40, 0xc0, 0x40, 0xff}
	ColourSparkFizzled  = color.RGBA{0x90, 0x90, 0x90, 0xff}
	ColourSparkGCd      = color.RGBA{0xff, 0xa5, 0x00, 0xff}
	ColourSparkOverflow = color.RGBA{0xe0, 0x00, 0x00, 0xff}
	ColourSparkDud      = color.RGBA{0xc0, 0xc0, 0xc0, 0xff}
	ColourSparkStolen   = color.RGBA{0x30, 0x60, 0xd0, 0xff}
	ColourSparkPool     = color.RGBA{0x50, 0x80, 0xc0, 0xff}
)

// StateColour returns the colour of a state; idle and finished are the
// light background (nothing is drawn).
func StateColour(s State) color.RGBA {
	switch s {
	case StateRunning:
		return ColourRunning
	case StateGCWork:
		return ColourGC
	case StateGCSync, StateGCIdle, StateGCDone:
		return ColourGCWaiting
	case StateRunnable:
		return ColourRunnable
	case StateBlocked:
		return ColourBlocked
	}
	return Light.Background
}

// BlockedColour returns the colour of a thread blocked for reason st: one
// shade of red per family of reasons.
func BlockedColour(st ingest.StopStatus) color.RGBA {
	switch st {
	case ingest.StopBlockedMVar, ingest.StopBlockedMVarRead:
		return color.RGBA{0xd0, 0x50, 0x50, 0xff}
	case ingest.StopBlockedBlackHole:
		return color.RGBA{0x50, 0x30, 0x30, 0xff}
	case ingest.StopBlockedSTM:
		return color.RGBA{0xa0, 0x40, 0xc0, 0xff}
	case ingest.StopBlockedRead, ingest.StopBlockedWrite, ingest.StopBlockedDelay:
		return color.RGBA{0x70, 0x90, 0xc0, 0xff}
	case ingest.StopForeignCall, ingest.StopBlockedCCall, ingest.StopBlockedCCallIntr:
		return color.RGBA{0xc0, 0xa0, 0x40, 0xff}
	case ingest.StopBlockedThrowTo:
		return color.RGBA{0xe0, 0x80, 0x20, 0xff}
	}
	return ColourBlocked
}

// InstantColour returns the colour of an instant event's tick.
func InstantColour(k InstantKind) color.RGBA {
	switch k {
	case InstantCreateThread, InstantCreateSparkThread:
		return ColourCreateThread
	case InstantMigrateThread:
		return ColourMigrate
	case InstantWakeupThread:
		return ColourWakeup
	case InstantRequestSeqGC:
		return ColourSeqGCRequest
	case InstantRequestParGC:
		return ColourParGCRequest
	case InstantShutdown:
		return ColourShutdown
	case InstantUserMessage:
		return ColourUserMessage
	case InstantUserMarker:
		return ColourMarker
	}
	return ColourLogMessage
}

// SparkColour returns the colour of a spark kind's curve.
func SparkColour(k SparkKind) color.RGBA {
	return [NumSparkKinds]color.RGBA{ColourSparkCreated, ColourSparkDud, ColourSparkOverflow,
		ColourSparkConvert, ColourSparkStolen, ColourSparkFizzled, ColourSparkGCd}[k%NumSparkKinds]
}

// BlockedReason returns a short name for why a thread blocked.
func BlockedReason(st ingest.StopStatus) string {
	switch st {
	case ingest.StopBlockedMVar:
		return "MVar"
	case ingest.StopBlockedMVarRead:
		return "MVar read"
	case ingest.StopBlockedBlackHole:
		return "black hole"
	case ingest.StopBlockedSTM:
		return "STM"
	case ingest.StopBlockedRead:
		return "I/O read"
	case ingest.StopBlockedWrite:
		return "I/O write"
	case ingest.StopBlockedDelay:
		return "delay"
	case ingest.StopForeignCall, ingest.StopBlockedCCall, ingest.StopBlockedCCallIntr:
		return "foreign call"
	case ingest.StopBlockedThrowTo:
		return "throwTo"
	case ingest.StopBlockedDoProc:
		return "process"
	case ingest.StopBlockedGA, ingest.StopBlockedGANoSend:
		return "globalise"
	}
	return "blocked"
}
