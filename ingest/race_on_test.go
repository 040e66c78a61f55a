//go:build race

package ingest

// raceOn is true when the race detector is built in; the widest
// cross-checks then take a deterministic sample of their cases, each case
// still run somewhere, as it makes them ten times slower.
const raceOn = true
