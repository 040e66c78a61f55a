package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/export"
)

func TestFileMenuExportsData(t *testing.T) {
	w, v, _ := openNav(t, profworkLog)
	defer w.Fyne().Close()
	menu := w.Fyne().MainMenu()
	if menu == nil || len(menu.Items) == 0 {
		t.Fatal("no main menu")
	}
	var titles []string
	for _, it := range menu.Items[0].Items {
		titles = append(titles, it.Label)
	}
	all := strings.Join(titles, "|")
	for _, want := range []string{"Chrome Trace", "speedscope", "CSV"} {
		if !strings.Contains(all, want) {
			t.Errorf("File menu %q has no %s export", all, want)
		}
	}
	// The selection's range goes to the export, as --from/--to.
	from, to := v.log.Model.End/4, v.log.Model.End/2
	out := filepath.Join(t.TempDir(), "sel.json")
	if err := exportData(v.log, export.Chrome, from, to, out); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var trace struct {
		TraceEvents []struct {
			Ph string
			Ts float64
		} `json:"traceEvents"`
	}
	if err := json.Unmarshal(data, &trace); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	timed := 0
	for _, e := range trace.TraceEvents {
		if e.Ph == "M" {
			continue
		}
		timed++
		if e.Ts*1000 < float64(from)-1000 || e.Ts*1000 > float64(to)+1000 {
			t.Fatalf("event at %v µs outside the selection [%d, %d] ns", e.Ts, from, to)
		}
	}
	if timed == 0 {
		t.Error("no timed events in the selection's trace")
	}
	// A failed export leaves nothing behind.
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := exportData(&loaded.Eventlog{Path: "/nonexistent.eventlog"}, export.Chrome, 0, 0, bad); err == nil {
		t.Error("no error for a missing log")
	}
	if ents, _ := os.ReadDir(filepath.Dir(bad)); len(ents) != 0 {
		t.Errorf("left %d files behind", len(ents))
	}
}
