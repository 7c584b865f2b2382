// Package jsonstr writes JSON strings byte for byte as encoding/json
// writes them with HTML escaping off (SetEscapeHTML(false)): for the
// hand-written JSON writers of the audit report and the pipeline's event
// log, which write many strings and must stay what encoding/json would
// have written. FuzzAppend holds it to that. It also decodes a string's
// escape sequences (AppendEscape) for the two hand-written JSON parsers,
// jsonmsg and languages/jsondoc; FuzzAppendEscape holds it to
// encoding/json.
package jsonstr

import (
	"unicode/utf8"

	"github.com/protoscan-dev/protoscan/internal/swar"
)

const hex = "0123456789abcdef"

// Append appends s to b as a JSON string: control characters, quotes and
// backslashes escaped as encoding/json escapes them, invalid UTF-8 as
// U+FFFD, and U+2028 and U+2029 escaped (for JSONP, as encoding/json does).
func Append(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		// eight plain bytes at a time (most of a report's text)
		if swar.Enabled && i+8 <= len(s) && swar.NotPlain(swar.Load64(s, i)) == 0 {
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
