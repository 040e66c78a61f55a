package ingest

import "strconv"

// Kind says what an event means, as hecscope decoded it. For GHC's own events,
// and for the Eden, Mercury and perf events that never collide with them, a
// Kind equals the event type id written in the file. An id whose declared size
// fits no known layout, or that a producer reused with another meaning,
// decodes as KindUnknown and keeps its raw payload.
type Kind uint16

// Event kinds. The comment on each lists the values Event.Args holds for it,
// in file order; "Data" names what Event.Data holds for variable-size events.
const (
	KindCreateThread      Kind = 0  // thread
	KindRunThread         Kind = 1  // thread
	KindStopThread        Kind = 2  // thread, status (StopStatus, normalised to GHC ≥ 7.8.3 numbering), info
	KindThreadRunnable    Kind = 3  // thread
	KindMigrateThread     Kind = 4  // thread, new cap
	KindRunSpark          Kind = 5  // thread (GHC 6.12–7.2)
	KindStealSpark        Kind = 6  // thread, victim cap (GHC 6.12–7.2)
	KindShutdown          Kind = 7  // — (GHC 6.12–7.4)
	KindThreadWakeup      Kind = 8  // thread, other cap
	KindGCStart           Kind = 9  // —
	KindGCEnd             Kind = 10 // — (timestamp may be back-dated)
	KindRequestSeqGC      Kind = 11 // —
	KindRequestParGC      Kind = 12 // —
	KindCreateSparkThread Kind = 15 // spark thread
	KindLogMsg            Kind = 16 // Data: message
	KindStartup           Kind = 17 // number of capabilities
	KindBlockMarker       Kind = 18 // block size, end time, cap (0xFFFF = none)
	KindUserMsg           Kind = 19 // Data: message
	KindGCIdle            Kind = 20 // —
	KindGCWork            Kind = 21 // —
	KindGCDone            Kind = 22 // —
	KindEdenVersion       Kind = 23 // Data: version string
	KindEdenInvocation    Kind = 24 // Data: command line
	KindCapsetCreate      Kind = 25 // capset, capset type (CapsetType)
	KindCapsetDelete      Kind = 26 // capset
	KindCapsetAssignCap   Kind = 27 // capset, cap
	KindCapsetRemoveCap   Kind = 28 // capset, cap
	KindRTSIdentifier     Kind = 29 // capset; Data: identifier
	KindProgramArgs       Kind = 30 // capset; Data: NUL-terminated strings (see Event.Strings)
	KindProgramEnv        Kind = 31 // capset; Data: NUL-terminated strings (see Event.Strings)
	KindOSProcessPid      Kind = 32 // capset, pid
	KindOSProcessPpid     Kind = 33 // capset, parent pid
	KindSparkCounters     Kind = 34 // created, dud, overflowed, converted, gc'd, fizzled, remaining
	KindSparkCreate       Kind = 35 // —
	KindSparkDud          Kind = 36 // —
	KindSparkOverflow     Kind = 37 // —
	KindSparkRun          Kind = 38 // —
	KindSparkSteal        Kind = 39 // victim cap
	KindSparkFizzle       Kind = 40 // —
	KindSparkGC           Kind = 41 // —
	KindInternString      Kind = 42 // string id; Data: string
	KindWallClockTime     Kind = 43 // capset, seconds, nanoseconds
	KindThreadLabel       Kind = 44 // thread; Data: label
	KindCapCreate         Kind = 45 // cap
	KindCapDelete         Kind = 46 // cap
	KindCapDisable        Kind = 47 // cap
	KindCapEnable         Kind = 48 // cap
	KindHeapAllocated     Kind = 49 // heap capset, bytes allocated by the capability so far
	KindHeapSize          Kind = 50 // heap capset, bytes
	KindHeapLive          Kind = 51 // heap capset, bytes
	KindHeapInfoGHC       Kind = 52 // heap capset, generations, max heap size, alloc area size, mblock size, block size
	KindGCStatsGHC        Kind = 53 // heap capset, generation, copied, slop, fragmentation, par threads, par max copied, par total copied, par balanced copied (0 in the 50-byte layout)
	KindGCGlobalSync      Kind = 54 // —
	KindTaskCreate        Kind = 55 // task id, cap, kernel thread id
	KindTaskMigrate       Kind = 56 // task id, old cap, new cap
	KindTaskDelete        Kind = 57 // task id
	KindUserMarker        Kind = 58 // Data: marker text
	KindHackBugT9003      Kind = 59 // —

	KindEdenStartReceive       Kind = 60  // —
	KindEdenEndReceive         Kind = 61  // —
	KindEdenCreateProcess      Kind = 62  // process
	KindEdenKillProcess        Kind = 63  // process
	KindEdenAssignThread       Kind = 64  // thread, process
	KindEdenCreateMachine      Kind = 65  // machine, start time (10⁻⁸ s)
	KindEdenKillMachine        Kind = 66  // machine
	KindEdenSendMessage        Kind = 67  // tag, sender process, sender thread, receiver machine, receiver process, receiver inport
	KindEdenReceiveMessage     Kind = 68  // tag, receiver process, receiver inport, sender machine, sender process, sender thread, size
	KindEdenSendReceiveLocal   Kind = 69  // tag, sender process, sender thread, receiver process, receiver inport
	KindMemReturn              Kind = 90  // heap capset, current mblocks, needed mblocks, returned mblocks
	KindBlocksSize             Kind = 91  // heap capset, bytes
	KindMerStartParConjunction Kind = 100 // dynamic id, static id
	KindMerStopParConjunction  Kind = 101 // dynamic id
	KindMerStopParConjunct     Kind = 102 // dynamic id
	KindMerCreateSpark         Kind = 103 // dynamic id, spark id
	KindMerFutureCreate        Kind = 104 // future id, name id
	KindMerFutureWaitNoSuspend Kind = 105 // future id
	KindMerFutureWaitSuspended Kind = 106 // future id
	KindMerFutureSignal        Kind = 107 // future id
	KindMerLookingForGlobal    Kind = 108 // —
	KindMerWorkStealing        Kind = 109 // —
	KindMerReleaseContext      Kind = 110 // context id
	KindMerEngineSleeping      Kind = 111 // —
	KindMerLookingForLocal     Kind = 112 // —
	KindMerCallingMain         Kind = 113 // —
	KindPerfName               Kind = 140 // perf event number; Data: name
	KindPerfCounter            Kind = 141 // perf event number, kernel thread id, period
	KindPerfTracepoint         Kind = 142 // perf event number, kernel thread id

	KindHeapProfBegin            Kind = 160 // profile id, sampling period ns, breakdown (Breakdown); Data: 7 NUL-terminated filters (see Event.Strings)
	KindHeapProfCostCentre       Kind = 161 // cost centre id, flags; Data: label, module, source location, NUL-terminated (see Event.Strings)
	KindHeapProfSampleBegin      Kind = 162 // era
	KindHeapProfSampleCostCentre Kind = 163 // profile id, residency bytes, stack depth; Data: stack (see Event.Stack)
	KindHeapProfSampleString     Kind = 164 // profile id, residency bytes; Data: label
	KindHeapProfSampleEnd        Kind = 165 // era
	KindHeapBioProfSampleBegin   Kind = 166 // era, sample time ns
	KindProfSampleCostCentre     Kind = 167 // capability, tick, stack depth; Data: stack (see Event.Stack)
	KindProfBegin                Kind = 168 // tick interval ns
	KindIPE                      Kind = 169 // info table address; Data: 6 NUL-terminated strings: table name, closure type, type description, label, module, source location
	KindUserBinaryMsg            Kind = 181 // Data: raw bytes

	KindConcMarkBegin           Kind = 200 // —
	KindConcMarkEnd             Kind = 201 // marked objects
	KindConcSyncBegin           Kind = 202 // —
	KindConcSyncEnd             Kind = 203 // —
	KindConcSweepBegin          Kind = 204 // —
	KindConcSweepEnd            Kind = 205 // —
	KindConcUpdRemSetFlush      Kind = 206 // cap
	KindNonmovingHeapCensus     Kind = 207 // block size (bytes, also for the 13-byte log2 layout), active segments, filled segments, live blocks
	KindNonmovingPrunedSegments Kind = 208 // pruned segments, free segments retained
	KindTickyCounterDef         Kind = 210 // counter id, arity, info table (0 when absent); Data: argument kinds, name, [JSON] NUL-terminated (see Event.Strings)
	KindTickyCounterSample      Kind = 211 // counter id, entry count, allocs, allocd
	KindTickyBeginSample        Kind = 212 // —

	// KindUnknown is an event whose id hecscope cannot decode: an id it does
	// not know, a declared size that fits no layout, or a payload that does
	// not parse. Event.Data holds the whole raw payload.
	KindUnknown Kind = 0xFFFF
)

// tail says what follows the fixed fields of a variable-size event.
type tail uint8

const (
	tailNone   tail = iota // fixed-size event
	tailRest               // the rest of the payload is Data
	tailStrs               // Data is a sequence of NUL-terminated strings (count in layout.nstr)
	tailStack              // Data is depth × u32 cost-centre ids (depth is the last fixed field)
	tailCC                 // cost centre: 3 strings then a flags byte
	tailIntern             // string then a trailing u32 id
	tailTicky              // ticky counter definition: 2 strings, optional u64, optional string
)

// layout describes one way an event kind is laid out on disk.
type layout struct {
	size   int     // declared payload size this layout needs (fixed), or the minimum (variable)
	fields []uint8 // widths of the fixed fields, in bytes
	tail   tail
	nstr   int // for tailStrs: how many strings (0 = as many as there are)
}

// kindSpec is what hecscope knows about one kind.
type kindSpec struct {
	name     string
	variable bool
	layouts  []layout // largest first, for fixed kinds
}

func fixed(widths ...uint8) layout {
	n := 0
	for _, w := range widths {
		n += int(w)
	}
	return layout{size: n, fields: widths}
}

func varLayout(t tail, nstr int, widths ...uint8) layout {
	l := fixed(widths...)
	l.tail = t
	l.nstr = nstr
	return l
}

// specs maps a kind to its spec. Kinds absent here are never produced.
var specs = map[Kind]kindSpec{
	KindCreateThread:      {name: "CreateThread", layouts: []layout{fixed(4)}},
	KindRunThread:         {name: "RunThread", layouts: []layout{fixed(4)}},
	KindStopThread:        {name: "StopThread", layouts: []layout{fixed(4, 2, 4), fixed(4, 2)}},
	KindThreadRunnable:    {name: "ThreadRunnable", layouts: []layout{fixed(4)}},
	KindMigrateThread:     {name: "MigrateThread", layouts: []layout{fixed(4, 2)}},
	KindRunSpark:          {name: "RunSpark", layouts: []layout{fixed(4)}},
	KindStealSpark:        {name: "StealSpark", layouts: []layout{fixed(4, 2)}},
	KindShutdown:          {name: "Shutdown", layouts: []layout{fixed()}},
	KindThreadWakeup:      {name: "ThreadWakeup", layouts: []layout{fixed(4, 2)}},
	KindGCStart:           {name: "GCStart", layouts: []layout{fixed()}},
	KindGCEnd:             {name: "GCEnd", layouts: []layout{fixed()}},
	KindRequestSeqGC:      {name: "RequestSeqGC", layouts: []layout{fixed()}},
	KindRequestParGC:      {name: "RequestParGC", layouts: []layout{fixed()}},
	KindCreateSparkThread: {name: "CreateSparkThread", layouts: []layout{fixed(4)}},
	KindLogMsg:            {name: "LogMsg", variable: true, layouts: []layout{varLayout(tailRest, 0)}},
	KindStartup:           {name: "Startup", layouts: []layout{fixed(2)}},
	KindBlockMarker:       {name: "BlockMarker", layouts: []layout{fixed(4, 8, 2)}},
	KindUserMsg:           {name: "UserMsg", variable: true, layouts: []layout{varLayout(tailRest, 0)}},
	KindGCIdle:            {name: "GCIdle", layouts: []layout{fixed()}},
	KindGCWork:            {name: "GCWork", layouts: []layout{fixed()}},
	KindGCDone:            {name: "GCDone", layouts: []layout{fixed()}},
	KindEdenVersion:       {name: "EdenVersion", variable: true, layouts: []layout{varLayout(tailRest, 0)}},
	KindEdenInvocation:    {name: "EdenInvocation", variable: true, layouts: []layout{varLayout(tailRest, 0)}},
	KindCapsetCreate:      {name: "CapsetCreate", layouts: []layout{fixed(4, 2)}},
	KindCapsetDelete:      {name: "CapsetDelete", layouts: []layout{fixed(4)}},
	KindCapsetAssignCap:   {name: "CapsetAssignCap", layouts: []layout{fixed(4, 2)}},
	KindCapsetRemoveCap:   {name: "CapsetRemoveCap", layouts: []layout{fixed(4, 2)}},
	KindRTSIdentifier:     {name: "RTSIdentifier", variable: true, layouts: []layout{varLayout(tailRest, 0, 4)}},
	KindProgramArgs:       {name: "ProgramArgs", variable: true, layouts: []layout{varLayout(tailRest, 0, 4)}},
	KindProgramEnv:        {name: "ProgramEnv", variable: true, layouts: []layout{varLayout(tailRest, 0, 4)}},
	KindOSProcessPid:      {name: "OSProcessPid", layouts: []layout{fixed(4, 4)}},
	KindOSProcessPpid:     {name: "OSProcessPpid", layouts: []layout{fixed(4, 4)}},
	KindSparkCounters:     {name: "SparkCounters", layouts: []layout{fixed(8, 8, 8, 8, 8, 8, 8)}},
	KindSparkCreate:       {name: "SparkCreate", layouts: []layout{fixed()}},
	KindSparkDud:          {name: "SparkDud", layouts: []layout{fixed()}},
	KindSparkOverflow:     {name: "SparkOverflow", layouts: []layout{fixed()}},
	KindSparkRun:          {name: "SparkRun", layouts: []layout{fixed()}},
	KindSparkSteal:        {name: "SparkSteal", layouts: []layout{fixed(2)}},
	KindSparkFizzle:       {name: "SparkFizzle", layouts: []layout{fixed()}},
	KindSparkGC:           {name: "SparkGC", layouts: []layout{fixed()}},
	KindInternString:      {name: "InternString", variable: true, layouts: []layout{{size: 4, tail: tailIntern}}},
	KindWallClockTime:     {name: "WallClockTime", layouts: []layout{fixed(4, 8, 4)}},
	KindThreadLabel:       {name: "ThreadLabel", variable: true, layouts: []layout{varLayout(tailRest, 0, 4)}},
	KindCapCreate:         {name: "CapCreate", layouts: []layout{fixed(2)}},
	KindCapDelete:         {name: "CapDelete", layouts: []layout{fixed(2)}},
	KindCapDisable:        {name: "CapDisable", layouts: []layout{fixed(2)}},
	KindCapEnable:         {name: "CapEnable", layouts: []layout{fixed(2)}},
	KindHeapAllocated:     {name: "HeapAllocated", layouts: []layout{fixed(4, 8)}},
	KindHeapSize:          {name: "HeapSize", layouts: []layout{fixed(4, 8)}},
	KindHeapLive:          {name: "HeapLive", layouts: []layout{fixed(4, 8)}},
	KindHeapInfoGHC:       {name: "HeapInfoGHC", layouts: []layout{fixed(4, 2, 8, 8, 8, 8)}},
	KindGCStatsGHC:        {name: "GCStatsGHC", layouts: []layout{fixed(4, 2, 8, 8, 8, 4, 8, 8, 8), fixed(4, 2, 8, 8, 8, 4, 8, 8)}},
	KindGCGlobalSync:      {name: "GCGlobalSync", layouts: []layout{fixed()}},
	KindTaskCreate:        {name: "TaskCreate", layouts: []layout{fixed(8, 2, 8)}},
	KindTaskMigrate:       {name: "TaskMigrate", layouts: []layout{fixed(8, 2, 2)}},
	KindTaskDelete:        {name: "TaskDelete", layouts: []layout{fixed(8)}},
	KindUserMarker:        {name: "UserMarker", variable: true, layouts: []layout{varLayout(tailRest, 0)}},
	KindHackBugT9003:      {name: "HackBugT9003", layouts: []layout{fixed()}},

	KindEdenStartReceive:     {name: "EdenStartReceive", layouts: []layout{fixed()}},
	KindEdenEndReceive:       {name: "EdenEndReceive", layouts: []layout{fixed()}},
	KindEdenCreateProcess:    {name: "EdenCreateProcess", layouts: []layout{fixed(4)}},
	KindEdenKillProcess:      {name: "EdenKillProcess", layouts: []layout{fixed(4)}},
	KindEdenAssignThread:     {name: "EdenAssignThread", layouts: []layout{fixed(4, 4)}},
	KindEdenCreateMachine:    {name: "EdenCreateMachine", layouts: []layout{fixed(2, 8)}},
	KindEdenKillMachine:      {name: "EdenKillMachine", layouts: []layout{fixed(2)}},
	KindEdenSendMessage:      {name: "EdenSendMessage", layouts: []layout{fixed(1, 4, 4, 2, 4, 4)}},
	KindEdenReceiveMessage:   {name: "EdenReceiveMessage", layouts: []layout{fixed(1, 4, 4, 2, 4, 4, 4)}},
	KindEdenSendReceiveLocal: {name: "EdenSendReceiveLocal", layouts: []layout{fixed(1, 4, 4, 4, 4)}},

	KindMemReturn:  {name: "MemReturn", layouts: []layout{fixed(4, 4, 4, 4)}},
	KindBlocksSize: {name: "BlocksSize", layouts: []layout{fixed(4, 8)}},

	KindMerStartParConjunction: {name: "MerStartParConjunction", layouts: []layout{fixed(8, 4)}},
	KindMerStopParConjunction:  {name: "MerStopParConjunction", layouts: []layout{fixed(8)}},
	KindMerStopParConjunct:     {name: "MerStopParConjunct", layouts: []layout{fixed(8)}},
	KindMerCreateSpark:         {name: "MerCreateSpark", layouts: []layout{fixed(8, 4)}},
	KindMerFutureCreate:        {name: "MerFutureCreate", layouts: []layout{fixed(8, 4)}},
	KindMerFutureWaitNoSuspend: {name: "MerFutureWaitNoSuspend", layouts: []layout{fixed(8)}},
	KindMerFutureWaitSuspended: {name: "MerFutureWaitSuspended", layouts: []layout{fixed(8)}},
	KindMerFutureSignal:        {name: "MerFutureSignal", layouts: []layout{fixed(8)}},
	KindMerLookingForGlobal:    {name: "MerLookingForGlobal", layouts: []layout{fixed()}},
	KindMerWorkStealing:        {name: "MerWorkStealing", layouts: []layout{fixed()}},
	KindMerReleaseContext:      {name: "MerReleaseContext", layouts: []layout{fixed(4)}},
	KindMerEngineSleeping:      {name: "MerEngineSleeping", layouts: []layout{fixed()}},
	KindMerLookingForLocal:     {name: "MerLookingForLocal", layouts: []layout{fixed()}},
	KindMerCallingMain:         {name: "MerCallingMain", layouts: []layout{fixed()}},

	KindPerfName:       {name: "PerfName", variable: true, layouts: []layout{varLayout(tailRest, 0, 4)}},
	KindPerfCounter:    {name: "PerfCounter", layouts: []layout{fixed(4, 8, 8)}},
	KindPerfTracepoint: {name: "PerfTracepoint", layouts: []layout{fixed(4, 8)}},

	KindHeapProfBegin:            {name: "HeapProfBegin", variable: true, layouts: []layout{varLayout(tailStrs, 7, 1, 8, 4)}},
	KindHeapProfCostCentre:       {name: "HeapProfCostCentre", variable: true, layouts: []layout{varLayout(tailCC, 3, 4)}},
	KindHeapProfSampleBegin:      {name: "HeapProfSampleBegin", layouts: []layout{fixed(8)}},
	KindHeapProfSampleCostCentre: {name: "HeapProfSampleCostCentre", variable: true, layouts: []layout{varLayout(tailStack, 0, 1, 8, 1)}},
	KindHeapProfSampleString:     {name: "HeapProfSampleString", variable: true, layouts: []layout{varLayout(tailStrs, 1, 1, 8)}},
	KindHeapProfSampleEnd:        {name: "HeapProfSampleEnd", layouts: []layout{fixed(8)}},
	KindHeapBioProfSampleBegin:   {name: "HeapBioProfSampleBegin", layouts: []layout{fixed(8, 8)}},
	KindProfSampleCostCentre:     {name: "ProfSampleCostCentre", variable: true, layouts: []layout{varLayout(tailStack, 0, 4, 8, 1)}},
	KindProfBegin:                {name: "ProfBegin", layouts: []layout{fixed(8)}},
	KindIPE:                      {name: "IPE", variable: true, layouts: []layout{varLayout(tailStrs, 6, 8)}},
	KindUserBinaryMsg:            {name: "UserBinaryMsg", variable: true, layouts: []layout{varLayout(tailRest, 0)}},

	KindConcMarkBegin:           {name: "ConcMarkBegin", layouts: []layout{fixed()}},
	KindConcMarkEnd:             {name: "ConcMarkEnd", layouts: []layout{fixed(4)}},
	KindConcSyncBegin:           {name: "ConcSyncBegin", layouts: []layout{fixed()}},
	KindConcSyncEnd:             {name: "ConcSyncEnd", layouts: []layout{fixed()}},
	KindConcSweepBegin:          {name: "ConcSweepBegin", layouts: []layout{fixed()}},
	KindConcSweepEnd:            {name: "ConcSweepEnd", layouts: []layout{fixed()}},
	KindConcUpdRemSetFlush:      {name: "ConcUpdRemSetFlush", layouts: []layout{fixed(2)}},
	KindNonmovingHeapCensus:     {name: "NonmovingHeapCensus", layouts: []layout{fixed(2, 4, 4, 4), fixed(1, 4, 4, 4)}},
	KindNonmovingPrunedSegments: {name: "NonmovingPrunedSegments", layouts: []layout{fixed(4, 4)}},
	KindTickyCounterDef:         {name: "TickyCounterDef", variable: true, layouts: []layout{varLayout(tailTicky, 0, 8, 2)}},
	KindTickyCounterSample:      {name: "TickyCounterSample", layouts: []layout{fixed(8, 8, 8, 8)}},
	KindTickyBeginSample:        {name: "TickyBeginSample", layouts: []layout{fixed()}},
}

// String returns the kind's name, such as "RunThread", or "Unknown".
func (k Kind) String() string {
	if s, ok := specs[k]; ok {
		return s.name
	}
	return "Unknown"
}

// StopStatus is why a thread stopped (STOP_THREAD), in the numbering GHC has
// used since 7.8.3. Files from GHC 7.8.2, which numbered them differently,
// are translated to it while decoding.
type StopStatus uint16

// Stop statuses, as the RTS writes them: the scheduler's return code (1–5), or
// 6 + the reason the thread blocked.
const (
	StopNoStatus         StopStatus = 0
	StopHeapOverflow     StopStatus = 1
	StopStackOverflow    StopStatus = 2
	StopYielding         StopStatus = 3
	StopBlocked          StopStatus = 4 // GHC ≤ 7.0 only: blocked, no reason given
	StopFinished         StopStatus = 5
	StopForeignCall      StopStatus = 6
	StopBlockedMVar      StopStatus = 7
	StopBlockedBlackHole StopStatus = 8 // Event info: owner thread
	StopBlockedRead      StopStatus = 9
	StopBlockedWrite     StopStatus = 10
	StopBlockedDelay     StopStatus = 11
	StopBlockedSTM       StopStatus = 12
	StopBlockedDoProc    StopStatus = 13
	StopBlockedGA        StopStatus = 14
	StopBlockedGANoSend  StopStatus = 15
	StopBlockedCCall     StopStatus = 16
	StopBlockedCCallIntr StopStatus = 17
	StopBlockedThrowTo   StopStatus = 18
	StopMigrating        StopStatus = 19
	StopBlockedMVarRead  StopStatus = 20
)

// Blocked reports whether the status means the thread is blocked (waiting for
// something) rather than runnable, finished or in a foreign call.
func (s StopStatus) Blocked() bool {
	return s == StopBlocked || (s >= StopBlockedMVar && s <= StopBlockedThrowTo) || s == StopBlockedMVarRead
}

// BlockedOn says on what a thread stopped with status s waits: "MVar",
// "black hole", "I/O read"; "" for a status that names none. With Reason
// these are the one set of words for why a thread stopped, which the
// tracks' tooltips, the exports, the tabs and the CLI share (the event
// list's text of a STOP_THREAD event keeps ghc-events' words, see Show).
func (s StopStatus) BlockedOn() string {
	switch s {
	case StopBlockedMVar:
		return "MVar"
	case StopBlockedMVarRead:
		return "MVar read"
	case StopBlockedBlackHole:
		return "black hole"
	case StopBlockedSTM:
		return "STM"
	case StopBlockedRead:
		return "I/O read"
	case StopBlockedWrite:
		return "I/O write"
	case StopBlockedDelay:
		return "delay"
	case StopForeignCall, StopBlockedCCall, StopBlockedCCallIntr:
		return "foreign call"
	case StopBlockedThrowTo:
		return "throwTo"
	case StopBlockedDoProc:
		return "process"
	case StopBlockedGA, StopBlockedGANoSend:
		return "globalise"
	}
	return ""
}

// Reason says why a thread stopped running with status s: "heap overflow
// (needs a GC)", "yielding", "blocked on MVar", "blocked in STM", "in
// foreign call", "blocked"; "" for no status given. The blocked ones read
// as the names of the families the views colour them by.
func (s StopStatus) Reason() string {
	switch s {
	case StopNoStatus:
		return ""
	case StopHeapOverflow:
		return "heap overflow (needs a GC)"
	case StopStackOverflow:
		return "stack overflow"
	case StopYielding:
		return "yielding"
	case StopFinished:
		return "finished"
	case StopMigrating:
		return "migrating"
	case StopForeignCall, StopBlockedCCall, StopBlockedCCallIntr:
		return "in foreign call"
	case StopBlockedSTM, StopBlockedThrowTo:
		return "blocked in " + s.BlockedOn()
	}
	if b := s.BlockedOn(); b != "" {
		return "blocked on " + b
	}
	if s.Blocked() {
		return "blocked"
	}
	return "status " + strconv.Itoa(int(s))
}

// CapsetType is the type of a capability set (CAPSET_CREATE).
type CapsetType uint16

// Capset types.
const (
	CapsetCustom      CapsetType = 1
	CapsetOSProcess   CapsetType = 2
	CapsetClockDomain CapsetType = 3
)

// Breakdown is how a heap profile is broken down (HEAP_PROF_BEGIN).
type Breakdown uint32

// Heap profile breakdowns and the RTS flags that select them.
const (
	BreakdownCostCentreStack Breakdown = 1 // -hc
	BreakdownModule          Breakdown = 2 // -hm
	BreakdownClosureDescr    Breakdown = 3 // -hd
	BreakdownTypeDescr       Breakdown = 4 // -hy
	BreakdownRetainer        Breakdown = 5 // -hr
	BreakdownBiography       Breakdown = 6 // -hb
	BreakdownClosureType     Breakdown = 7 // -hT
	BreakdownInfoTable       Breakdown = 8 // -hi
	BreakdownEra             Breakdown = 9 // -he
)
