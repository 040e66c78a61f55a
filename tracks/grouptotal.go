package tracks

// SetGroupTotal says that group g has n tracks in the whole run though the
// source holds only some of them (a command that loads only the threads a
// picture has room for): its title then counts n. An n no larger than the
// tracks the source holds changes nothing; 0 forgets it.
func (v *View) SetGroupTotal(g Group, n int) {
	if g < NumGroups {
		v.totals[g] = max(n, 0)
	}
}
