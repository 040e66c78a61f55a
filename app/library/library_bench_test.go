package library

import (
	"os"
	"testing"
)

// BenchmarkSave measures saving a profile: one read of the eventlog that
// copies, hashes and summarises it, then the fsyncs and renames. The log is
// the 208 MB generated one when HECSCOPE_BIG_LOG names it, else the -N2
// test log.
func BenchmarkSave(b *testing.B) {
	path := logN2
	if p := os.Getenv("HECSCOPE_BIG_LOG"); p != "" {
		path = p
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Skip(err)
	}
	l, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	for b.Loop() {
		e, err := l.Save(path, SaveOptions{Name: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		if err := l.Delete(e.ID); err != nil {
			b.Fatal(err)
		}
	}
}
