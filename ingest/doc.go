// Package ingest turns the bytes of GHC eventlogs and heap profiles into typed
// values.
//
// An eventlog arrives from a file, a FIFO or a socket; the Decoder takes it in
// chunks of any size and hands out Events as soon as each is complete, so the
// same code serves a saved log and a running program. Every stream ends with
// one Status: complete, truncated at byte N, or corrupt at byte N with a
// reason; the events before the problem are always delivered. Textual .hp heap
// profiles are read by ParseHeapProfile.
package ingest
