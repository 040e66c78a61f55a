//go:build ignore

// Drawicon draws hecscope's icon: four capability (HEC) rows of green
// "running" bars cut by one orange stop-the-world garbage collection that
// crosses every row, above a time axis. It writes the same picture as PNG at
// 256 and 512 pixels and as SVG, into the current directory:
//
//	go run drawicon.go
package main

import (
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/fogleman/gg"
)

// The design is laid out on a 512-unit square.
const side = 512

type rect struct {
	x, y, w, h, r float64
	fill          string // #rrggbb
}

const (
	background = "#1b2230"
	running    = "#5ec269"
	gc         = "#f2a33a"
	axis       = "#9aa7bd"
)

// shapes returns the icon's rectangles, back to front.
func shapes() []rect {
	out := []rect{{x: 24, y: 24, w: 464, h: 464, r: 104, fill: background}}
	// Each row: the running spans as [start, end) in units, GC cuts them.
	rows := [][][2]float64{
		{{84, 196}, {220, 296}, {350, 428}},
		{{84, 140}, {160, 296}, {350, 398}},
		{{84, 250}, {270, 296}, {350, 428}},
		{{84, 120}, {148, 232}, {350, 380}, {396, 428}},
	}
	const rowH, gap = 52, 26
	y := 110.0
	for _, spans := range rows {
		for _, s := range spans {
			out = append(out, rect{x: s[0], y: y, w: s[1] - s[0], h: rowH, r: 10, fill: running})
		}
		y += rowH + gap
	}
	// The collection: one band across all rows, as every HEC stops for it.
	out = append(out, rect{x: 306, y: 96, w: 34, h: y - gap - 96 + 14, r: 10, fill: gc})
	// Time axis with ticks.
	out = append(out, rect{x: 84, y: 424, w: 344, h: 8, r: 4, fill: axis})
	for _, tx := range []float64{84, 170, 256, 342, 420} {
		out = append(out, rect{x: tx, y: 408, w: 8, h: 24, r: 4, fill: axis})
	}
	return out
}

func drawPNG(path string, px int) error {
	dc := gg.NewContext(px, px)
	k := float64(px) / side
	for _, s := range shapes() {
		dc.DrawRoundedRectangle(s.x*k, s.y*k, s.w*k, s.h*k, s.r*k)
		dc.SetHexColor(s.fill)
		dc.Fill()
	}
	if err := dc.SavePNG(path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

func writeSVG(path string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n", side, side, side, side)
	b.WriteString("  <title>hecscope</title>\n")
	for _, s := range shapes() {
		fmt.Fprintf(&b, "  <rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" rx=\"%g\" fill=\"%s\"/>\n", s.x, s.y, s.w, s.h, s.r, s.fill)
	}
	b.WriteString("</svg>\n")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

func main() {
	if err := drawPNG("hecscope.png", 256); err != nil {
		log.Fatal(err)
	}
	if err := drawPNG("hecscope-512.png", 512); err != nil {
		log.Fatal(err)
	}
	if err := writeSVG("hecscope.svg"); err != nil {
		log.Fatal(err)
	}
}
