// Package advise answers "why is my program slow?" from a loaded eventlog:
// Analyze reads the models of a run (the timeline's HEC and thread tracks,
// the summary's GC, spark and heap figures, the heap's collections) and
// returns findings, each with a kind, a severity, a time range, a one-line
// title, the evidence in figures from the log, a suggestion (an RTS flag
// or a change to the code), and the tracks of the timeline that show it.
// It decodes nothing itself and draws nothing: `hecscope advise` prints
// the findings, the app lists them and marks them on its timeline.
//
// # How it looks
//
// The range analysed (the run, or a part of it) is cut into 1000 equal
// windows. Each HEC's time per state in each window comes from its track
// (timeline.Track.Columns: exact at every window's edge, even on an
// overview model); one pass over every thread's marks adds the time
// threads spent runnable, running and blocked (by what on) to the windows,
// and keeps the threads blocked most of their lives. The RTS's own threads
// (labelled "IOManager…" and "TimerManager") are left out of what
// threads wait for: they wait by design. The cost is one pass over the
// thread marks plus HECs × windows, a tenth of the time loading takes or
// less (a 178 MB log of 108,000 threads: 2.2 s to load, 0.12 s to
// analyse; a 202 MB log of 1.6 million threads: 3.0 s and 0.23 s; on a
// busy 2-core machine).
//
// Severity says what a finding costs: Info is worth knowing but costs the
// run little, Warning costs about a tenth of it, Problem a quarter or more.
// A healthy run (parallel work spread over the HECs, a nursery big enough
// for the allocation rate) gets no warning and no problem. The thresholds
// below are named constants in each kind's file (sequential.go,
// blocking.go, sparks.go, gc.go).
//
// # Kinds
//
// sequential: periods in which the HECs together run no more than one
// HEC's worth of Haskell code while the others idle with nothing to run.
// A window is sequential when the HECs run between 0.6 and 1.2 HECs' worth
// of code (of its time outside GC), so that one thread handed from HEC to
// HEC still counts as alone, and fewer than 0.2 threads are runnable on
// average: idle HECs with runnable threads waiting are another matter
// (imbalance). Windows mostly in GC neither make nor break a period, and a
// period may span other windows lasting up to 5 % of the range (a burst of
// parallel work does not cut it in two). A period is reported when it lasts
// at least 10 % of the range and 50 ms (shorter ones cost little however
// many HECs there are), a problem from 25 %. The evidence gives the HECs'
// shares, the thread that ran, what the other threads were blocked on
// meanwhile, and what the run would gain if the period were spread over
// all HECs (Amdahl: the period over N, so the run shorter by
// period × (1 − 1/N)).
//
// imbalance: outside the sequential periods, HECs that ran less than the
// busiest. Reported when the busiest HEC runs Haskell code at least half
// its time outside GC, the least busy at most 0.7 of what the busiest
// does, and the capacity the others leave unused below the busiest is at
// least 10 % of all and 50 ms (a problem from 25 %). When threads waited
// runnable while a HEC idled, for at least half that unused capacity, the
// HEC's OS thread was not running (more HECs than free cores) or the
// threads were tied to a busy HEC (forkOn, +RTS -qm), and the suggestion
// says so; otherwise the work is split into too few or uneven pieces.
//
// blocking: threads that spent at least half of their life in the range
// blocked (and lived 1 ms or more), grouped by what they waited for most:
// an MVar, STM, a black hole, throwTo, I/O, threadDelay, a foreign call.
// A blocked thread only costs the run when a HEC idles for it: each
// window's idle HEC time that no runnable thread could have filled is
// shared among the waits in proportion to the threads blocked on each, and
// split by whether a thread of the program ran meanwhile (then the blocked
// threads wait for it: contention, as on an MVar used as a lock) or none
// did (then the program waits for something outside its threads: a timer,
// I/O, another process, or a deadlock). Contention on an MVar, STM, a
// black hole or throwTo is a warning from 10 % of the HECs' time (and
// 50 ms), a problem from 25 %; any wait that leaves HECs idle 2 % of their
// time or more is an info. In the threaded RTS, threadDelay and waiting
// for I/O block on an MVar too, through the I/O manager: with no thread of
// the program running they fall under "outside", which is an info.
//
// sparks: what became of the sparks (the summary's counters: created,
// converted, dud, overflowed, fizzled, GC'd), when there are 100 or more.
// Each pattern of 10 % of the sparks or more is named with what it means
// (dud: already evaluated when sparked; overflowed: the pool of 4096 was
// full; fizzled: evaluated, mostly by the parent, before a HEC took it;
// GC'd: never used) and its remedy. Sparks that came to nothing are only
// worth more than an info when HECs had nothing to do: a warning when at
// least half of them came to nothing and the HECs idled 10 % of their
// time or more, a problem when fewer than a tenth ran and the HECs idled a
// quarter; an info from a fifth wasted, or any overflowed. Sparks on a
// single HEC are an info: run with -N.
//
// gc: the share of the HECs' time spent collecting garbage (the GC states
// of their tracks): an info from 5 %, a warning from 10 %, a problem from
// 25 %, and never more than an info below 10 ms of GC per HEC (a program of
// a few ms spends much of it starting up). The evidence gives the
// collections per second, by generation, the allocation per collection,
// the nursery size and where it comes from (the RTS's heap-info event,
// which every GHC ≥ 7.6 log has; else the -A of the command line's RTS
// options or GHCRTS; else the GHC version's default: 512 KB before 8.0,
// 1 MB from 8.0 to 9.0, as `+RTS -?` of GHC 9.0.2 says), and, with
// several HECs, how much of their GC time the GC threads worked rather
// than waited. When minor collections take most of the GC time and the
// nursery is under 64 MB, the suggestion is +RTS -A64m, with the number of
// collections it would leave (allocation / (64 MB × HECs)); when the old
// generation does, less live data, -F or --nonmoving-gc; when the parallel
// GC threads waited more than they worked, -qg or -qn. A heap-profiled run
// (+RTS -h…) is said to be one: every census adds a major collection.
//
// gc-pause: collections that stopped the program 100 ms or more: a warning
// when together they last 10 % of the range, an info otherwise. A long
// pause that copied less than 100 MB/s spent it waiting (for a HEC that
// does not stop, or for an OS thread the OS did not run), and the
// suggestion says so.
//
// heap-growth: live data (measured at major collections) that climbs to a
// peak of 8 MB or more from at least half as much, over 4 or more
// measurements spanning a third of the range, rising at 70 % of them: an
// info, a warning when it grows fourfold and the major collections, each
// copying all of it, take 10 % of the range.
//
// threads: 1000 threads or more created at 1000 a second or more are an
// info; 10,000 or more that run under 10 µs each on average are a warning
// (the scheduler's work per thread is then comparable to the thread's).
//
// # Tracks
//
// Each finding names what of the timeline shows it (Finding.Tracks): a
// sequential period its HECs and the thread that ran; an imbalance the
// busiest HEC and those that did 0.7 of its work or less; blocking the
// blocked threads, the longest blocked first (at most MaxThreads); sparks
// the HECs' spark tracks; gc and gc-pause the GC pauses and the HECs,
// whose states show the collections; heap-growth the heap's live data and
// the GC pauses; threads the HECs, whose events show the threads created.
//
// A log cut short knows each capability only up to its last event: the
// range analysed ends where the first HEC's knowledge ends, and a HEC
// known for less than half the range is left out (rather than taken as
// idle while the threads it ran wait for ever).
//
// Logs from old GHCs lack some events: without GC statistics there are no
// generations, without spark counters no sparks finding, without heap
// events no heap-growth or pauses; each finding says only what the log
// holds.
package advise
