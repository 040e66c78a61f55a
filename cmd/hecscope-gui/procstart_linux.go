package main

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// clockTicks is the kernel's USER_HZ, the unit of /proc's process times;
// it is 100 on every Linux architecture Go supports.
const clockTicks = 100

// processStart returns when the process was started, as the kernel counts
// it (to 1/100 s), so that the measurement mode's times include loading
// the program and its libraries, as /usr/bin/time's do; fallback if /proc
// cannot say.
func processStart(fallback time.Time) time.Time {
	stat, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return fallback
	}
	uptime, err := os.ReadFile("/proc/uptime")
	now := time.Now()
	if err != nil {
		return fallback
	}
	// The command name (field 2) is in parentheses and may hold spaces:
	// the fields after it start after the last ')'. starttime is field 22.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return fallback
	}
	fields := bytes.Fields(stat[i+1:])
	if len(fields) < 20 {
		return fallback
	}
	ticks, err := strconv.ParseInt(string(fields[19]), 10, 64)
	if err != nil {
		return fallback
	}
	up := bytes.Fields(uptime)
	if len(up) == 0 {
		return fallback
	}
	secs, err := strconv.ParseFloat(string(up[0]), 64)
	if err != nil {
		return fallback
	}
	age := time.Duration(secs*float64(time.Second)) - time.Duration(ticks)*time.Second/clockTicks
	if age < 0 || age > time.Minute {
		return fallback
	}
	return now.Add(-age)
}
