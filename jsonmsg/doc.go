// Package jsonmsg is a fast, strict JSON decoder producing the values
// msgcheck validates: objects as map[string]any, arrays as []any, strings
// as string, numbers as float64, true/false as bool, null as nil — the
// same values as encoding/json's Unmarshal into an any, which the tests
// check differentially and by fuzzing.
//
// It exists because decoding is the hot path of `protoscan audit`, which
// validates hundreds of thousands of JSON Lines messages a second:
// Validator.Validate takes well under a microsecond for a valid message,
// while encoding/json takes several to decode it (reflection, and an
// allocation for every string and number it boxes). For the typical
// messages of bench_test.go (a 10-field DELEGATE of 690 bytes, a HANDBACK
// with nested output and metrics objects), on the project's 2-vCPU VM,
// medians of 6 runs (benchstat; the VM is shared and noisy, ±5-40 %):
//
//	                           encoding/json          jsonmsg
//	decode DELEGATE            6.2-6.8 µs, 2368 B     2.3-2.4 µs, 1808 B
//	decode HANDBACK, escapes   3.9-4.0 µs, 1848 B     1.9-2.4 µs, 1680 B
//
// (see bench_test.go; rerun before relying on a figure).
//
// How: one pass over the input with a depth-counted recursive descent; one
// copy of the input into a string that every string without escapes is a
// slice of; members and elements gathered on reusable stacks so each map
// and slice is allocated once at its final size; an exact fast path for
// numbers of at most 15 digits and a small exponent (else
// strconv.ParseFloat); strings scanned eight bytes at a time where they
// are plain (internal/swar). Each string and number is boxed in an interface
// as the runtime does it (one small allocation each); building interfaces
// by hand with unsafe would save those, at the price of depending on the
// runtime's layout, which this package does not do.
//
// The syntax is strict RFC 8259: no trailing commas, leading zeros,
// control characters in strings, or anything but whitespace after the
// value; a number ParseFloat finds out of range (1e400) is an error, as
// with encoding/json. Invalid UTF-8 and lone surrogate escapes become
// U+FFFD, as with encoding/json, unless StrictUTF8 is set on the Decoder
// or Tape: then invalid UTF-8 in a string is an error at its first bad
// byte (the audit's choice). Duplicate keys: the last wins, unless
// UniqueKeys is set on a Tape (the audit's choice again). Nesting
// deeper than MaxDepth (10,000, encoding/json's limit) is an error.
// Errors are *SyntaxError with the byte offset of the offending byte:
// "offset 8: invalid character '}' looking for beginning of object key
// string".
//
// Retention: the decoded strings share one copy of the input, so keeping
// any decoded string keeps that message's copy alive (never another
// message's).
//
// A Tape holds the same value as a flat list of tokens instead: same
// grammar, same errors, same strings and numbers, but no maps, slices or
// boxed values. msgcheck.ValidateTape validates a message on it, which is
// how the audit validates while decoding.
package jsonmsg
