package ingest

import "syscall"

// dropPages lets go of the pages of the mapping data that hold bytes
// [start, end): they leave the process's resident set (the file's pages stay
// in the page cache, and come back on the next access).
func dropPages(data []byte, start, end int64) {
	start &^= int64(syscall.Getpagesize() - 1)
	if start < end {
		syscall.Madvise(data[start:end], syscall.MADV_DONTNEED)
	}
}
