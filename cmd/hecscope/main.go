// Command hecscope is a viewer for GHC eventlogs. Its subcommands work
// headless; without one (or given files, or --attach) it starts the desktop
// app, the program hecscope-gui.
package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"strings"
)

// command is one subcommand: it gets the arguments after its name and returns
// the process exit code (0 ok, 1 failure or corrupt input, 2 usage error).
type command struct {
	name  string
	usage string
	run   func(args []string) int
}

var commands = []command{
	{"dump", "dump [--segment N] FILE   print every event as `ghc-events show` does", runDump},
	{"summary", "summary [--json] [--from T] [--to T] [--segment N] FILE  print the run's summary statistics (of each eventlog a FILE holds one after another; --segment N: the Nth alone; --from/--to: of that time range, as the app's Selection tab)", runSummary},
	{"render", "render FILE -o out.png [--view ...] [--segment N] ...", runRender},
	{"compare", "compare [--json] [--segment-a N] [--segment-b N] A B  print the differences between two runs (B against A)", runCompare},
	{"spans", "spans [--json] [--from T] [--to T] [--segment N] FILE | --compare [--segment-a N] [--segment-b N] A B  statistics of the user spans (START/STOP x) and thread labels; --compare: two runs with a noise test", runSpans},
	{"profile", "profile [--json] [--from T] [--to T] [--segment N] FILE | --diff [--png OUT] [--segment-a N] [--segment-b N] A B  the cost-centre profile of a profiled run (+RTS -l -p); --diff: how B's shares differ from A's", runProfile},
	{"advise", "advise [--json] [--from T] [--to T] [--segment N] FILE  what made the run slow: findings with the evidence from the log and a suggestion each", runAdvise},
	{"export", "export --format chrome|speedscope|csv [--from T] [--to T] [--segment N] FILE -o OUT  the run for Perfetto, speedscope or a spreadsheet", runExport},
	{"relay", "relay --from URL [--listen 127.0.0.1:4242] [--allow-control-from CIDR,…]  serve a program's live streams to any number of viewers, and pass their control commands on to it", runRelay},
	{"control", "control URL COMMAND  send an eventlog-socket control command (requestHeapCensus, …, or NAMESPACE:ID) to a program or through a relay", runControl},
}

// memoryLimit is the heap the commands aim to stay under: the garbage
// collector works harder as it nears it (summary, dump and render hold
// bounded models, a few tens of MB even for logs of gigabytes).
const memoryLimit = 80 << 20

func main() {
	debug.SetMemoryLimit(memoryLimit)
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) == 0 {
		return runGUI(nil)
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage()
		return 0
	}
	if url, ok := strings.CutPrefix(args[0], "--attach="); ok || args[0] == "--attach" {
		if !ok {
			url = ""
			if len(args) > 1 {
				url, args = args[1], args[1:]
			}
		}
		if url == "" || len(args) != 1 {
			fmt.Fprintln(os.Stderr, "usage: hecscope --attach URL")
			return 2
		}
		return runGUI([]string{"--attach=" + url})
	}
	if args[0] == "--segment" || strings.HasPrefix(args[0], "--segment=") {
		return runGUI(args) // hecscope-gui checks N and FILE
	}
	for _, c := range commands {
		if c.name == args[0] {
			sayFIFOWaits(c.name, args[1:])
			return c.run(args[1:])
		}
	}
	if isFile(args[0]) {
		return runGUI(args)
	}
	fmt.Fprintf(os.Stderr, "hecscope: unknown command %q\n", args[0])
	usage()
	return 2
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: hecscope [FILE...]   open the desktop app (on each eventlog or .hp file)\n       hecscope --attach URL  watch a running program (tcp://, unix://, fifo://, follow://)\n       hecscope --segment N FILE  open the Nth eventlog of a FILE holding several\n       hecscope COMMAND [ARGS]\n\ncommands (--segment N: which of the eventlogs a FILE holds one after another, from 1; the first by default):")
	for _, c := range commands {
		fmt.Fprintf(os.Stderr, "  hecscope %s\n", c.usage)
	}
}
