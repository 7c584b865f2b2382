// Package swar tests eight bytes of a string at once in a 64-bit word
// (SIMD within a register), for the loops that skip plain stretches of
// text: the JSON decoder's string scan (jsonmsg), the JSON string writer
// (jsonstr) and the word counter (msgcheck). Each function is small
// enough to be inlined where it is called.
//
// Built with the tag protoscan_noswar, Enabled is false and those loops
// take one byte at a time: the build BENCHMARKS.md compares against
// ("Tricks that earn their keep"); its tests pass with the tag too.
package swar

// Load64 reads s[i:i+8] as a little-endian word (one load once
// compiled).
func Load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// NotPlain flags (in its top bit) each byte of w that is not plain JSON
// string content: a quote, a backslash, a control character or a byte
// of a multi-byte rune. The classic zero-byte arithmetic can also flag
// a byte above a flagged one, never below: the lowest flag is always
// right, and NotPlain(w) == 0 exactly when all eight bytes are plain.
func NotPlain(w uint64) uint64 {
	const (
		one = 0x0101010101010101
		hi  = 0x8080808080808080
	)
	q, bs := w^('"'*one), w^('\\'*one)
	return ((q-one)&^q | (bs-one)&^bs | (w-0x20*one)&^w | w) & hi
}
