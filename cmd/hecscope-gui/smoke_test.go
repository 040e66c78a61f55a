package main

import (
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/hecscope/hecscope/timeline"
)

// TestMain lets a test run the app in a child process: the test binary is
// hecscope-gui itself when HECSCOPE_TEST_MAIN is set.
func TestMain(m *testing.M) {
	if os.Getenv("HECSCOPE_TEST_MAIN") == "1" {
		os.Exit(run(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// TestWindowShowsTimeline starts the app as a user does, `hecscope FILE`,
// on a sample eventlog in a virtual X server (Xvfb, Mesa's software OpenGL):
// hecscope (built here) hands over to the hecscope-gui next to it (this test
// binary). It takes screenshots of the screen until the window has drawn,
// and checks that what it shows is the timeline: a good number of pixels in
// the running-thread green, which neither a blank window nor an error page
// has.
func TestWindowShowsTimeline(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a window in Xvfb")
	}
	xvfb, err := exec.LookPath("Xvfb")
	if err != nil {
		t.Skip("Xvfb is not installed (make test installs it)")
	}
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

	display := freeDisplay(t)
	server := exec.Command(xvfb, display, "-screen", "0", "1280x800x24", "-nolisten", "tcp")
	if err := server.Start(); err != nil {
		t.Fatalf("starting Xvfb: %v", err)
	}
	defer func() { server.Process.Kill(); server.Wait() }()

	sample, err := filepath.Abs("../../testdata/ghc-9.0.2/parwork-N2.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	app := exec.Command(cli, sample)
	app.Env = append(os.Environ(), "HECSCOPE_TEST_MAIN=1", "DISPLAY="+display)
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
		green = countColour(t, shot, timeline.ColourRunning)
		if green > 2000 {
			t.Logf("the window shows the timeline (%d running-green pixels)", green)
			return
		}
	}
	log, _ := os.ReadFile(out.Name())
	t.Fatalf("no timeline on screen after 90 s (%d running-green pixels); hecscope said:\n%s", green, log)
}

// guiTestName is the name hecscope looks for next to itself.
const guiTestName = "hecscope-gui"

// freeDisplay returns an X display number no server is using.
func freeDisplay(t *testing.T) string {
	for n := 90; n < 140; n++ {
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X11-unix/X%d", n)); os.IsNotExist(err) {
			if _, err := os.Stat(fmt.Sprintf("/tmp/.X%d-lock", n)); os.IsNotExist(err) {
				return fmt.Sprintf(":%d", n)
			}
		}
	}
	t.Skip("no free X display number")
	return ""
}

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
