package timeline

import (
	"image/color"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
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
	// Unknown and UnknownHatch draw time whose state is not known (past a
	// capability's frontier, paint.Hatch); Frontier marks where a cut
	// log's data for a capability ends.
	Unknown, UnknownHatch, Frontier color.RGBA
}

// palette returns the timeline palette of a paint theme.
func palette(th paint.Theme) Palette {
	return Palette{Background: th.Background, Text: th.Text, Grid: th.Grid, Axis: th.Axis, RowRule: th.Rule,
		LabelOnBar: th.LabelOnBar, Idle: th.Idle, Line: th.Line,
		Unknown: th.Unknown, UnknownHatch: th.UnknownHatch, Frontier: th.Frontier}
}

// Light is the palette for light surroundings, as ThreadScope draws
// (paint.Light's).
var Light = palette(paint.Light)

// Dark is the palette for dark surroundings (a desktop's dark theme);
// paint.Dark's.
var Dark = palette(paint.Dark)

// PaletteFor returns Dark if dark is true, Light otherwise.
func PaletteFor(dark bool) Palette {
	if dark {
		return Dark
	}
	return Light
}

// The data's colours are paint's inks (ThreadScope's where its users know
// them).
var (
	ColourRunning   = paint.InkRunning.Color()
	ColourGC        = paint.InkGCWork.Color() // GC threads working
	ColourGCWaiting = paint.InkGCSync.Color() // synchronising, idle or done
	ColourRunnable  = paint.InkRunnable.Color()
	ColourBlocked   = paint.InkBlocked.Color()
	ColourActivity  = paint.InkActivity.Color()
	ColourMarker    = paint.InkMarker.Color()

	ColourCreateThread  = paint.InkCreateThread.Color()
	ColourMigrate       = paint.InkMigrate.Color()
	ColourWakeup        = paint.InkWakeup.Color()
	ColourSeqGCRequest  = paint.InkSeqGCRequest.Color()
	ColourParGCRequest  = paint.InkParGCRequest.Color()
	ColourShutdown      = paint.InkShutdown.Color()
	ColourUserMessage   = paint.InkUserMessage.Color()
	ColourLogMessage    = paint.InkLogMessage.Color()
	ColourSparkCreated  = paint.InkSparkCreated.Color()
	ColourSparkConvert  = paint.InkSparkConverted.Color()
	ColourSparkFizzled  = paint.InkSparkFizzled.Color()
	ColourSparkGCd      = paint.InkSparkGCd.Color()
	ColourSparkOverflow = paint.InkSparkOverflowed.Color()
	ColourSparkDud      = paint.InkSparkDud.Color()
	ColourSparkStolen   = paint.InkSparkStolen.Color()
	ColourSparkPool     = paint.InkSparkPool.Color()
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
// colour per family of reasons (paint.BlockedInk).
func BlockedColour(st ingest.StopStatus) color.RGBA { return paint.BlockedInk(uint8(st)).Color() }

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
