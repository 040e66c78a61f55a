package app

import (
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/internal/fakesocket"
)

// controlMenuOf returns the window's Control menu, nil if it has none.
func controlMenuOf(w *Window) *fyne.Menu {
	for _, m := range w.Fyne().MainMenu().Items {
		if m.Label == "Control" {
			return m
		}
	}
	return nil
}

// TestLiveControlMenu: attached to a program serving its eventlog as
// eventlog-socket does, the Control menu's items send the library's
// commands on the window's connection and the readout says so; when the
// program exits without its last flush, the window and its Summary tab
// say the stream was cut, not that it is still decoding or complete.
func TestLiveControlMenu(t *testing.T) {
	data, err := os.ReadFile(liveLog)
	if err != nil {
		t.Fatal(err)
	}
	p, err := fakesocket.ListenUnix(t.TempDir(), fakesocket.Options{Log: data, Chunk: 16 << 10, Pause: 5 * time.Millisecond, DropLastFlush: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Exit()
	lw := attachTo(t, p.URL())
	lw.waitFor("events", func() bool { return lw.v.Ev != nil })
	menu := controlMenuOf(lw.w)
	if menu == nil {
		t.Fatal("the live window has no Control menu")
	}
	var census *fyne.MenuItem
	for _, it := range menu.Items {
		if it.Label == "Request Heap Census" {
			census = it
		}
	}
	if census == nil || census.Disabled {
		t.Fatalf("no enabled Request Heap Census item: %+v", menu.Items)
	}
	lw.locked(census.Action)
	for i := 0; len(p.Commands()) == 0; i++ {
		if i == 1000 {
			t.Fatal("the program read no command")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if c := p.Commands()[0]; c != (fakesocket.Command{Namespace: "eventlog-socket", ID: 5}) {
		t.Errorf("the program read %+v", c)
	}
	lw.locked(func() {
		if !strings.HasPrefix(lw.v.Readout.Text, "Sent requestHeapCensus at ") {
			t.Errorf("readout %q", lw.v.Readout.Text)
		}
	})
	p.Exit()
	lw.waitFor("the cut", func() bool {
		return strings.Contains(lw.v.Status.Text, "ended: cut at byte") && lw.v.Ev != nil && lw.v.Ev.Status.State == ingest.StateTruncated
	})
}

// TestLiveControlMenuDisabledForFIFO: a FIFO carries the eventlog one way,
// so every command is disabled and the menu says why.
func TestLiveControlMenuDisabledForFIFO(t *testing.T) {
	lw := attachTo(t, "fifo:///nonexistent/prog.fifo")
	menu := controlMenuOf(lw.w)
	if menu == nil {
		t.Fatal("no Control menu")
	}
	if !strings.Contains(menu.Items[0].Label, "a FIFO carries the eventlog one way") {
		t.Errorf("first item %q", menu.Items[0].Label)
	}
	for _, it := range menu.Items {
		if !it.IsSeparator && !it.Disabled {
			t.Errorf("%q is enabled", it.Label)
		}
	}
}

// TestLiveSilentSocketExplainedInFull: attached to a program whose one
// connection another client holds, the window says in full, where the
// timeline will be, why nothing comes and how a relay shares the program
// (the status line cuts a sentence that long).
func TestLiveSilentSocketExplainedInFull(t *testing.T) {
	data, err := os.ReadFile(liveLog)
	if err != nil {
		t.Fatal(err)
	}
	p, err := fakesocket.ListenUnix(t.TempDir(), fakesocket.Options{Log: data, Chunk: 1 << 10, Pause: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Exit()
	holder, err := net.Dial("unix", strings.TrimPrefix(p.URL(), "unix://"))
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	for p.Accepted() == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	lw := attachTo(t, p.URL())
	lw.waitFor("the silent socket's explanation", func() bool {
		return strings.Contains(lw.v.WaitingNote.Text, "is connected but sends nothing") &&
			strings.Contains(lw.v.WaitingNote.Text, "hecscope relay --from "+p.URL())
	})
}
