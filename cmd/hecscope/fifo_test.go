package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCommandsSayFIFOWait: a command given a FIFO that no program writes
// says that it waits for a writer, and Ctrl+C stops it.
func TestCommandsSayFIFOWait(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "prog.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, args := range [][]string{{"summary", fifo}, {"dump", fifo}, {"render", fifo, "-o", filepath.Join(t.TempDir(), "x.png")}} {
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), "HECSCOPE_TEST_MAIN=1")
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
