//go:build !race

package live

// raceOn is true when the race detector is built in (see race_on_test.go).
const raceOn = false
