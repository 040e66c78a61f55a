package heapview

import "hash/maphash"

// names is a string table: every distinct name is stored once, back to back
// in one byte slice, and is known by its index. Lookups go through an
// open-addressing hash table of indices, so the table holds no pointers
// besides its three slices.
type names struct {
	text  []byte   // all names, concatenated
	end   []uint32 // end[i] is the offset in text just past name i
	slots []uint32 // hash table: index+1 of a name, 0 for an empty slot
}

// len returns the number of names.
func (n *names) len() int { return len(n.end) }

// bytes returns name i without copying it; the slice must not be modified.
func (n *names) bytes(i int) []byte {
	start := uint32(0)
	if i > 0 {
		start = n.end[i-1]
	}
	return n.text[start:n.end[i]]
}

// get returns name i as a string.
func (n *names) get(i int) string { return string(n.bytes(i)) }

// tableSeed seeds the hash of the string tables. The tables live only in
// memory, so the seed may differ from run to run.
var tableSeed = maphash.MakeSeed()

// tableHash is the hash the string tables index names by.
func tableHash(s []byte) uint32 {
	return uint32(maphash.Bytes(tableSeed, s))
}

// intern returns the index of s, adding it if it is new.
func (n *names) intern(s []byte) int {
	if 4*(len(n.end)+1) > 3*len(n.slots) {
		n.grow()
	}
	mask := uint32(len(n.slots) - 1)
	for i := tableHash(s) & mask; ; i = (i + 1) & mask {
		v := n.slots[i]
		if v == 0 {
			n.text = append(n.text, s...)
			n.end = append(n.end, uint32(len(n.text)))
			n.slots[i] = uint32(len(n.end))
			return len(n.end) - 1
		}
		if string(n.bytes(int(v-1))) == string(s) {
			return int(v - 1)
		}
	}
}

// internString is intern for a string.
func (n *names) internString(s string) int {
	return n.intern([]byte(s))
}

// grow doubles the hash table (at least 64 slots) and reinserts every name.
func (n *names) grow() {
	size := 2 * len(n.slots)
	if size < 64 {
		size = 64
	}
	n.slots = make([]uint32, size)
	mask := uint32(size - 1)
	for k := range n.end {
		i := tableHash(n.bytes(k)) & mask
		for n.slots[i] != 0 {
			i = (i + 1) & mask
		}
		n.slots[i] = uint32(k + 1)
	}
}
