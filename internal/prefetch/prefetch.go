// Package prefetch asks the CPU to start loading a line of memory into
// its caches before a loop needs it. A lookup in a table larger than the
// cache waits on memory; a loop that knows its next lookups ahead (a
// batch of keys) can prefetch them all first, so that their misses
// overlap instead of following one another.
//
// A prefetch is a hint: it never faults, whatever the address, and off
// amd64 it does nothing.
package prefetch
