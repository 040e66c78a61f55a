// Package testfile reads the files tests read and feeds them to readers
// slowly, for the tests of several packages; it imports nothing of the
// project, so that ingest's own tests can use it.
package testfile

import (
	"bytes"
	"image"
	"image/png"
	"io"
	"os"
	"testing"
	"time"
)

// Read returns the contents of the file at path, failing t if it cannot
// be read.
func Read(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// WriteSlowly writes data to w in uneven chunks, with a pause of a
// millisecond before every pauseEvery-th chunk.
func WriteSlowly(w io.Writer, data []byte, pauseEvery int) error {
	sizes := []int{1, 7, 300, 4096, 17, 65536, 999}
	for i, off := 0, 0; off < len(data); i++ {
		n := min(sizes[i%len(sizes)], len(data)-off)
		if _, err := w.Write(data[off : off+n]); err != nil {
			return err
		}
		off += n
		if i%max(pauseEvery, 1) == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	return nil
}

// ReadPNG decodes the PNG file at path, failing t if it cannot.
func ReadPNG(t testing.TB, path string) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(Read(t, path)))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}
