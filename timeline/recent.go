package timeline

import (
	"encoding/binary"
	"math/bits"
)

// recentBits is log2 of the number of entries recentStrs keeps.
const recentBits = 12

// recentStrs remembers the string-table entries of the strings interned
// last, in a small table indexed by a hash of their bytes. A program's
// messages are mostly a few distinct strings repeated millions of times,
// among a great many that come once (markers that count, for one): the
// few are found here without a lookup in the builder's map of every
// distinct string, whose entries are mostly out of the processor's caches
// by then. An entry holds 1 + the string's index (0: empty), so it is
// checked against the table's string before it is used.
type recentStrs struct {
	slots *[1 << recentBits]interned
}

// slot returns the entry where data is kept, if it is.
func (r *recentStrs) slot(data []byte) *interned {
	if r.slots == nil {
		r.slots = new([1 << recentBits]interned)
	}
	return &r.slots[recentHash(data)>>(64-recentBits)]
}

// recentHash hashes data's length and its first and last 8 bytes: two
// messages that differ only in between share a slot, and take turns in it.
func recentHash(data []byte) uint64 {
	n := len(data)
	h := uint64(n)
	if n >= 8 {
		h ^= binary.LittleEndian.Uint64(data) ^ bits.RotateLeft64(binary.LittleEndian.Uint64(data[n-8:]), 29)
	} else {
		for _, c := range data {
			h = h<<8 | uint64(c)
		}
	}
	return h * 0x9e3779b97f4a7c15
}
