//go:build race

package live

// raceOn is true when the race detector is built in.
const raceOn = true
