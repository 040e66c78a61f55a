package app

import (
	"fmt"
	"image"
	"image/png"
	"os"

	native "github.com/sqweek/dialog"
)

// pngFilters are the file types offered when exporting a picture.
var pngFilters = []native.FileFilter{{Desc: "PNG images", Extensions: []string{"png"}}}

// writePNG saves img to path as PNG.
func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("exporting PNG: %w", err)
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("exporting PNG to %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("exporting PNG to %s: %w", path, err)
	}
	return nil
}
