package main

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hecscope/hecscope/internal/childtest"
)

// TestCommandsSayFIFOWait: a command given a FIFO that no program writes
// says that it waits for a writer, and Ctrl+C stops it.
func TestCommandsSayFIFOWait(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "prog.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, args := range [][]string{{"summary", fifo}, {"dump", fifo}, {"render", fifo, "-o", filepath.Join(t.TempDir(), "x.png")}} {
		cmd := childtest.Command(context.Background(), args)
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		said := make(chan string, 1)
		go func() {
			line, _ := bufio.NewReader(stderr).ReadString('\n')
			said <- line
		}()
		select {
		case line := <-said:
			if !strings.Contains(line, "waiting for a writer on "+fifo) {
				t.Errorf("hecscope %s said %q", args[0], line)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("hecscope %s said nothing", args[0])
		}
		cmd.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			t.Errorf("hecscope %s did not stop on Ctrl+C", args[0])
		}
	}
}

// TestCompareReadsAStreamAsAFile: a run that comes through a FIFO is
// compared as the same log read from its file is, to the byte of the JSON,
// aligned at a marker too (which reads a stretch of each run again). The
// stream used to be read by a loop of its own, whose spans paired
// differently, and the aligned comparison opened the FIFO again.
func TestCompareReadsAStreamAsAFile(t *testing.T) {
	const a, b = "../../testdata/ghc-9.0.2/parwork-N1.eventlog", "../../testdata/ghc-9.0.2/parwork-N2.eventlog"
	data, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	// The FIFO has the file's name, so that the runs are named alike.
	fifo := filepath.Join(t.TempDir(), filepath.Base(b))
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	args := []string{"compare", "--json", "--align", "marker:round 3", a}
	code, want, stderr := hecscope(t, append(args, b)...)
	if code != 0 {
		t.Fatalf("files: exit %d: %s", code, stderr)
	}
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.Write(data)
		f.Close()
	}()
	code, got, stderr := hecscope(t, append(args, fifo)...)
	if code != 0 {
		t.Fatalf("FIFO: exit %d: %s", code, stderr)
	}
	if got != want {
		t.Errorf("the run read from a FIFO compares otherwise than from its file:\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(got, `"covered"`) {
		t.Errorf("no comparison over the time both runs cover:\n%s", got)
	}
}
