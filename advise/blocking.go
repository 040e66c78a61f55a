package advise

import (
	"fmt"
)

// Thresholds of the blocking finding. A thread counts as blocked when it
// spent at least mostlyBlocked of its life blocked (run.go). What makes it
// matter is the HEC time left idle meanwhile with no runnable thread to
// take it, shared among the reasons threads were blocked for: a warning
// from blockMinShare of the HECs' time (and blockMinNS), a problem from
// blockProblemShare; an info from blockInfoShare. Waiting for time, I/O or
// a foreign call is at most an info: the RTS has nothing better to do.
const (
	blockInfoShare    = 0.02
	blockMinShare     = 0.10
	blockMinNS        = 50e6
	blockProblemShare = 0.25
	// blockListed is how many threads the evidence names.
	blockListed = 5
)

// waitAdvice is what to try for each wait.
var waitAdvice = [numWaits]string{
	waitMVar: "An MVar taken as a lock around long work lets one thread run at a time: hold it only to read or update the state " +
		"(compute outside modifyMVar), split the state (an MVar per key), or use atomicModifyIORef' or STM. " +
		"A consumer blocked on an MVar waits for a slower producer: parallelise the producer. " +
		"(In the threaded RTS, threadDelay and waiting for I/O also block on an MVar, through the I/O manager.)",
	waitSTM: "Threads retry STM transactions: they wait for a TVar to change (retry) or conflict on the same TVars. " +
		"Split hot TVars, keep transactions short, and do the work outside atomically.",
	waitBlackHole: "Threads wait for a thunk another thread is evaluating (a shared lazy value). " +
		"Evaluate the shared value once before forking the threads (evaluate/force), or give each thread its own.",
	waitThrowTo: "throwTo or killThread waits until the target can take the exception: the target runs masked or in a loop that " +
		"does not allocate (compile with -fno-omit-yields).",
	waitIO:      "Threads wait for I/O with nothing else to run: overlap I/O and computation (more threads, async), or read in bigger blocks.",
	waitDelay:   "Threads sleep in threadDelay with nothing else to run: the program waits for time, not for the CPU.",
	waitForeign: "Threads wait in foreign calls with nothing else to run: the time goes outside Haskell; profile the C side, or overlap the calls.",
	waitOther:   "Threads are blocked (the log does not say on what) with nothing else to run.",
	waitUnknown: "",
}

// blocking reports the threads that spent most of their lives blocked,
// grouped by what they waited for, when the HECs idled meanwhile.
func (r *run) blocking() []Finding {
	// The idle HEC time of each window no runnable thread could fill,
	// shared among the waits in proportion to the threads blocked on each,
	// and split by whether a thread of the program ran meanwhile (then the
	// blocked ones wait for it: contention) or none did (then the program
	// waits for something outside its threads: a timer, I/O, a foreign
	// call, or for nothing, a deadlock).
	var contended, outside [numWaits]float64
	for i := range len(r.edges) - 1 {
		idle := r.idleUnexplained(i)
		if idle == 0 {
			continue
		}
		w := float64(r.width(i))
		ran := min(1, float64(r.userRunning[i])/w)
		var f [numWaits]float64
		var sum float64
		for k := range numWaits {
			f[k] = min(1, float64(r.blocked[k][i])/w)
			sum += f[k]
		}
		if sum > 1 {
			for k := range f {
				f[k] /= sum
			}
		}
		for k := range numWaits {
			contended[k] += float64(idle) * f[k] * ran
			outside[k] += float64(idle) * f[k] * (1 - ran)
		}
	}
	capacity := float64(r.span()) * float64(len(r.hecs))
	var out []Finding
	for w := range numWaits {
		g := &r.threadFigs.blocked[w]
		if g.n == 0 || capacity == 0 || w == waitUnknown {
			continue
		}
		cs, xs := contended[w]/capacity, outside[w]/capacity
		var sev Severity
		switch {
		case w <= waitThrowTo && cs >= blockProblemShare && contended[w] >= blockMinNS:
			sev = Problem
		case w <= waitThrowTo && cs >= blockMinShare && contended[w] >= blockMinNS:
			sev = Warning
		case cs+xs >= blockInfoShare:
			sev = Info
		default:
			continue
		}
		out = append(out, r.blockingFinding(w, g, sev, contended[w], outside[w]))
	}
	return out
}

// blockingFinding describes the threads of g, blocked mostly on w while
// the HECs idled contended ns with a thread of the program running and
// outside ns with none running.
func (r *run) blockingFinding(w wait, g *blockedGroup, sev Severity, contended, outside float64) Finding {
	g.keepTop(w)
	ts, n := g.top, g.n
	from, to, sum, life := g.from, g.to, g.on, g.life
	capacity := float64(r.span()) * float64(len(r.hecs))
	ev := []string{
		fmt.Sprintf("%s of the %s threads alive spent most of their lives blocked, mostly on %s: %s of the %s they lived (%s)",
			count(n), count(r.threadFigs.alive), waitNames[w], dur(sum), dur(life), pct(share(sum, life))),
		fmt.Sprintf("meanwhile the HECs idled %s with no runnable thread to take (%s of the HECs' time in the %s)",
			dur(uint64(contended+outside)), pct((contended+outside)/capacity), r.noun()),
	}
	sug := waitAdvice[w]
	lives := "most of their lives"
	if n == 1 {
		lives = "most of its life"
	}
	title := fmt.Sprintf("%s blocked on %s %s, while HECs idled %s", threadsNoun(n), waitNames[w], lives,
		pct((contended+outside)/capacity))
	if outside > 0 {
		ev = append(ev, fmt.Sprintf("for %s of that idle time no thread of the program ran at all", dur(uint64(outside))))
	}
	if outside > contended {
		title = fmt.Sprintf("%s blocked on %s %s, while no thread of the program ran", threadsNoun(n), waitNames[w], lives)
		sug = "The program waited for something outside its threads: a timer (threadDelay), I/O, a foreign call or another process " +
			"(in the threaded RTS these too block on an MVar, through the I/O manager), or for nothing: a deadlock that the RTS " +
			"reports as BlockedIndefinitelyOnMVar when no other thread can wake them. The CPU is not what it waits for."
	}
	var threads []uint32
	for _, b := range ts {
		threads = append(threads, r.m.ThreadRecord(b.index).ID)
	}
	for i, b := range ts {
		if i == blockListed {
			ev = append(ev, fmt.Sprintf("and %s more", count(n-blockListed)))
			break
		}
		ev = append(ev, fmt.Sprintf("%s: blocked on %s %s of its %s, %s", r.threadName(b.index), waitNames[w],
			pct(share(b.on[w], b.life)), dur(b.life), between(b.first, b.last)))
	}
	return Finding{Kind: KindBlocking, Severity: sev, From: from, To: to, Title: title, Evidence: ev, Suggestion: sug,
		Tracks: Tracks{Threads: threads}}
}

// threadsNoun writes "1 thread" or "N threads".
func threadsNoun(n int) string {
	if n == 1 {
		return "1 thread"
	}
	return count(n) + " threads"
}
