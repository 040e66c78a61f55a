//go:build !race

package ingest

// raceOn is true when the race detector is built in (see race_on_test.go).
const raceOn = false
