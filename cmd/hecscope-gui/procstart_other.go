//go:build !linux

package main

import "time"

// processStart returns when the process was started where the system can
// say; elsewhere fallback.
func processStart(fallback time.Time) time.Time { return fallback }
