package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/hecscope/hecscope/export"
)

const exportUsage = "usage: hecscope export --format chrome|speedscope|csv [--from T] [--to T] [--segment N] FILE -o OUT"

// runExport implements `hecscope export --format F [--from T --to T]
// [--segment N] FILE -o OUT`: the run as a Chrome trace (Perfetto, chrome://tracing), a
// speedscope profile of its cost-centre samples, or CSV of its spans, GC
// pauses and heap samples. OUT "-" is standard output. Exit codes as
// summary.
func runExport(args []string) int {
	var format, out string
	part, from, to, code, ok := rangeCommand("export", exportUsage, args, func(fs *flag.FlagSet) {
		fs.StringVar(&format, "format", "", "chrome, speedscope or csv")
		fs.StringVar(&out, "o", "", "output file (- for standard output)")
	})
	if !ok {
		return code
	}
	f, err := export.ParseFormat(format)
	if err != nil || out == "" {
		msg := "-o OUT needed"
		if err != nil {
			msg = err.Error()
		}
		fmt.Fprintf(os.Stderr, "hecscope export: %s\n%s\n", msg, exportUsage)
		return 2
	}
	opt := export.Options{From: from, To: to}
	if part.segmented() {
		opt.Offset, opt.Length = part.offset, part.length
	}
	file := part.path
	if out == "-" {
		st, err := export.File(context.Background(), f, file, os.Stdout, opt)
		if err != nil {
			fmt.Fprintf(os.Stderr, "hecscope: %v\n", err)
			return 1
		}
		return statusCode(file, part.fileStatus(st))
	}
	// Written beside OUT and renamed (a device or pipe at OUT is written
	// in place): a failed export leaves no partial file.
	st, err := export.ToFile(context.Background(), f, file, out, opt)
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope: %v\n", err)
		return 1
	}
	return statusCode(file, part.fileStatus(st))
}
