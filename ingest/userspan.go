package ingest

import (
	"strconv"
	"strings"
)

// ParseUserSpan splits a user message that marks a span, "START x",
// "STOP x" or "START 3 x" (ThreadScope's convention, with an optional
// instance number for spans of one label that overlap), into whether it
// starts the span, its instance number (0 if none) and its label; ok is
// false for any other message.
func ParseUserSpan(msg string) (start bool, id uint32, label string, ok bool) {
	switch {
	case strings.HasPrefix(msg, "START "):
		start, label = true, msg[len("START "):]
	case strings.HasPrefix(msg, "STOP "):
		label = msg[len("STOP "):]
	default:
		return false, 0, "", false
	}
	label = strings.TrimSpace(label)
	if sp := strings.IndexByte(label, ' '); sp > 0 {
		if n, err := strconv.ParseUint(label[:sp], 10, 32); err == nil {
			id, label = uint32(n), strings.TrimSpace(label[sp+1:])
		}
	}
	return start, id, label, label != ""
}
