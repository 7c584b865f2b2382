// Package jsonstr writes JSON strings byte for byte as encoding/json
// writes them with HTML escaping off (SetEscapeHTML(false)): for the
// hand-written JSON writers of the audit report and the pipeline's event
// log, which write many strings and must stay what encoding/json would
// have written. FuzzAppend holds it to that.
package jsonstr

import "unicode/utf8"

const hex = "0123456789abcdef"

// Append appends s to b as a JSON string: control characters, quotes and
// backslashes escaped as encoding/json escapes them, invalid UTF-8 as
// U+FFFD, and U+2028 and U+2029 escaped (for JSONP, as encoding/json does).
func Append(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		// eight plain bytes at a time (most of a report's text)
		if i+8 <= len(s) && !special(load64(s, i)) {
			i += 8
			continue
		}
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// special reports whether a byte of w (eight bytes of a string) may need
// care: a quote, a backslash, a control character, or a byte of a
// multi-byte rune (which may be invalid, or U+2028 or U+2029). The
// zero-byte arithmetic can flag a byte above a flagged one, never a
// byte alone: a false flag only sends those bytes the slow way.
func special(w uint64) bool {
	const (
		one = 0x0101010101010101
		hi  = 0x8080808080808080
	)
	q, bs := w^('"'*one), w^('\\'*one)
	return ((q-one)&^q|(bs-one)&^bs|(w-0x20*one)&^w|w)&hi != 0
}

// load64 reads s[i:i+8] as a little-endian word (one load once compiled).
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
