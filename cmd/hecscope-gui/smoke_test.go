package main

import (
	"bufio"
	"context"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"

	"github.com/hecscope/hecscope/internal/childtest"
)

// TestMain lets a test run the app in a child process: the test binary is
// hecscope-gui itself when HECSCOPE_TEST_MAIN is set.
func TestMain(m *testing.M) {
	childtest.Main(m, run)
}

// TestWindowShowsTimeline starts the app as a user does, `hecscope FILE`,
// on a sample eventlog in a virtual X server (Xvfb, Mesa's software OpenGL):
// hecscope (built here) hands over to the hecscope-gui next to it (this test
// binary). It takes screenshots of the screen until the window has drawn,
// and checks that what it shows is the timeline: a good number of pixels in
// the running-thread green, which neither a blank window nor an error page
// has.
func TestWindowShowsTimeline(t *testing.T) {
	xvfb := needXvfb(t)
	grab, err := exec.LookPath("import")
	if err != nil {
		t.Skip("ImageMagick's import is not installed (make test installs it)")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build hecscope with")
	}
	bin := t.TempDir()
	cli := filepath.Join(bin, "hecscope")
	if out, err := exec.Command(goTool, "build", "-o", cli, "../hecscope").CombinedOutput(); err != nil {
		t.Fatalf("building hecscope: %v\n%s", err, out)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(self, filepath.Join(bin, guiTestName)); err != nil {
		t.Fatal(err)
	}

	display := startXvfb(t, xvfb, "1280x800x24")

	sample, err := filepath.Abs("../../testdata/ghc-9.0.2/parwork-N2.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	app := exec.Command(cli, sample)
	app.Env = append(os.Environ(), childtest.Env, "DISPLAY="+display)
	out, err := os.CreateTemp(t.TempDir(), "app-output")
	if err != nil {
		t.Fatal(err)
	}
	app.Stdout, app.Stderr = out, out
	if err := app.Start(); err != nil {
		t.Fatalf("starting hecscope: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- app.Wait() }()
	defer func() { app.Process.Kill(); <-exited }()

	shot := filepath.Join(t.TempDir(), "shot.png")
	var green int
	for deadline := time.Now().Add(90 * time.Second); time.Now().Before(deadline); time.Sleep(time.Second) {
		select {
		case err := <-exited:
			exited <- err
			log, _ := os.ReadFile(out.Name())
			t.Fatalf("hecscope ended (%v) before the window showed the timeline; it said:\n%s", err, log)
		default:
		}
		if err := exec.Command(grab, "-display", display, "-window", "root", shot).Run(); err != nil {
			continue // the server may not be up yet
		}
		green = countColour(t, shot, paint.InkRunning.Color())
		if green > 2000 {
			t.Logf("the window shows the timeline (%d running-green pixels)", green)
			return
		}
	}
	log, _ := os.ReadFile(out.Name())
	t.Fatalf("no timeline on screen after 90 s (%d running-green pixels); hecscope said:\n%s", green, log)
}

// TestQuitAfterLoad runs the measurement mode on a sample in a virtual X
// server: it must print how many events it loaded, how long that took and
// when it first drew a picture of the log, and exit 0.
func TestQuitAfterLoad(t *testing.T) {
	xvfb := needXvfb(t)
	display := startXvfb(t, xvfb, "1280x800x24")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	sample := "../../testdata/ghc-9.0.2/parwork-N2.eventlog"
	want := countEvents(t, sample)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, self, "--quit-after-load", sample)
	cmd.Env = append(os.Environ(), childtest.Env, "DISPLAY="+display)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("--quit-after-load: %v; it said:\n%s", err, stderr.String())
	}
	m := regexp.MustCompile(`(?m)^loaded (\d+) events in (\d+\.\d+) s \(first picture at (\d+\.\d+) s\)$`).FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("no \"loaded N events in S s (first picture at F s)\" line; it said:\n%s", stderr.String())
	}
	if m[1] != strconv.FormatInt(want, 10) {
		t.Errorf("loaded %s events, the log has %d", m[1], want)
	}
	total, _ := strconv.ParseFloat(m[2], 64)
	first, _ := strconv.ParseFloat(m[3], 64)
	if first <= 0 || first > total {
		t.Errorf("first picture at %g s of a load that took %g s", first, total)
	}
}

// countEvents decodes the eventlog at path and counts its events.
func countEvents(t *testing.T, path string) int64 {
	f, err := ingest.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var n int64
	var ev ingest.Event
	for f.Next(&ev) {
		n++
	}
	return n
}

// needXvfb returns the path of Xvfb, skipping the test in -short mode or
// where Xvfb is not installed.
func needXvfb(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a window in Xvfb")
	}
	xvfb, err := exec.LookPath("Xvfb")
	if err != nil {
		t.Skip("Xvfb is not installed (make test installs it)")
	}
	return xvfb
}

// startXvfb starts a virtual X server with one screen of the given
// geometry (WxHxDEPTH) for the rest of the test, and returns its display.
// Xvfb picks a free display number itself (-displayfd), so that servers
// other tests or people run, and lock files a killed server left, are
// never in the way; it is stopped with SIGTERM, which removes its lock.
func startXvfb(t *testing.T, xvfb, geometry string) string {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	server := exec.Command(xvfb, "-displayfd", "3", "-screen", "0", geometry, "-nolisten", "tcp")
	server.ExtraFiles = []*os.File{w}
	err = server.Start()
	w.Close()
	if err != nil {
		t.Fatalf("starting Xvfb: %v", err)
	}
	t.Cleanup(func() {
		server.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { server.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			server.Process.Kill()
			<-done
		}
	})
	number := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		number <- strings.TrimSpace(line)
	}()
	select {
	case n := <-number:
		if n == "" {
			t.Fatal("Xvfb did not say which display it took")
		}
		return ":" + n
	case <-time.After(10 * time.Second):
		t.Fatal("Xvfb did not start in 10 s")
	}
	return ""
}

// guiTestName is the name hecscope looks for next to itself.
const guiTestName = "hecscope-gui"

// countColour counts the pixels of exactly colour c in a PNG.
func countColour(t *testing.T, path string, c interface{ RGBA() (r, g, b, a uint32) }) int {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return 0 // a screenshot caught mid-write
	}
	wr, wg, wb, _ := c.RGBA()
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r>>8 == wr>>8 && g>>8 == wg>>8 && bl>>8 == wb>>8 {
				n++
			}
		}
	}
	return n
}

// TestSnapshotCommand draws a sample with --snapshot, without a display,
// and checks the PNG's size; and that bad options are usage errors.
func TestSnapshotCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "shot.png")
	sample := "../../testdata/ghc-9.0.2/parwork-N2.eventlog"
	var stderr strings.Builder
	if code := snapshot([]string{"--snapshot", out, "--size", "640x480", "--scale", "1.5", "--tracks", "all", "--theme", "dark", sample}, &stderr); code != 0 {
		t.Fatalf("--snapshot exited %d: %s", code, stderr.String())
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Width != 960 || cfg.Height != 720 {
		t.Errorf("a 640x480 snapshot at scale 1.5 is %d×%d", cfg.Width, cfg.Height)
	}
	for _, bad := range [][]string{
		{"--snapshot", out},
		{"--snapshot", out, "--size", "640", sample},
		{"--snapshot", out, "--theme", "blue", sample},
		{"--snapshot", out, "--from", "10ms", sample},
		{"--snapshot", out, "--from", "10ms", "--to", "5ms", sample},
		{"--snapshot", out, "--tracks", "some", sample},
		{"--snapshot", out, "--select", "10ms", sample},
		{"--snapshot", out, "--select", "20ms,10ms", sample},
	} {
		if code := snapshot(bad, io.Discard); code != 2 {
			t.Errorf("%q exited %d, want 2 (usage)", bad, code)
		}
	}
	// A selection shown in the Selection tab; a tab the view lacks.
	stderr.Reset()
	if code := snapshot([]string{"--snapshot", out, "--size", "640x480", "--select", "30ms,60ms", "--tab", "Selection", sample}, &stderr); code != 0 {
		t.Errorf("--select --tab Selection exited %d: %s", code, stderr.String())
	}
	stderr.Reset()
	if code := snapshot([]string{"--snapshot", out, "--tab", "Nowhere", sample}, &stderr); code != 1 || !strings.Contains(stderr.String(), `no tab "Nowhere" (the tabs: Summary, GC`) {
		t.Errorf("--tab Nowhere exited %d: %s", code, stderr.String())
	}
}
