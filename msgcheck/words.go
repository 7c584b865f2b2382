package msgcheck

import (
	"unicode"
	"unicode/utf8"
)

// isWordSeparator treats every Unicode space as a separator: U+00A0 and the
// other Zs characters, line and paragraph separators, and U+FEFF. It is
// exactly JavaScript's [\s\p{Z}] (which has U+FEFF but not U+0085, NEL),
// so a JSON Schema pattern run by ajv agrees with us.
func isWordSeparator(r rune) bool {
	return r != '\u0085' && (unicode.IsSpace(r) || unicode.Is(unicode.Z, r) || r == '\uFEFF')
}

// asciiSpace marks the ASCII separators, for the common all-ASCII case.
var asciiSpace = [128]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// countWords counts maximal runs of non-separators. It stops counting at
// limit (when positive), which is all a minimum check needs.
func countWords(s string, limit int) int {
	n := 0
	inWord := false
	for i := 0; i < len(s); {
		var sep bool
		if b := s[i]; b < utf8.RuneSelf {
			sep = asciiSpace[b]
			i++
		} else {
			r, size := utf8.DecodeRuneInString(s[i:])
			sep = isWordSeparator(r)
			i += size
		}
		switch {
		case sep:
			inWord = false
		case !inWord:
			inWord = true
			n++
			if limit > 0 && n >= limit {
				return n
			}
		}
	}
	return n
}
