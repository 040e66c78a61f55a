//go:build !linux

package ingest

// dropPages does nothing here: a mapping's pages stay in the resident set
// until it is unmapped (and without mmap the data is ordinary memory).
func dropPages(data []byte, start, end int64) {}
