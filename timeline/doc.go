// Package timeline holds what hecscope draws on its time lines: the shared
// time axis (ns ↔ pixel mapping, tick choice and labels), the per-HEC and
// per-thread model built in one pass over the decoded events, its level of
// detail queries, and a renderer into *image.RGBA.
package timeline
