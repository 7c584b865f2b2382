package jsonstr

import (
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// AppendEscape decodes the escape sequence of a JSON string literal that
// starts at s[j], a backslash, and appends its text to b, as
// encoding/json decodes it: a surrogate pair is one rune, a lone
// surrogate U+FFFD (the escape after it, if any, is then decoded on its
// own). It returns b and the index after the sequence, with bad < 0; or,
// when the sequence is invalid, bad is the index of the byte that makes
// it so (len(s) when s ends first) and hex tells whether that byte is
// among a \u escape's four digits.
func AppendEscape[S ~string | ~[]byte](b []byte, s S, j int) (out []byte, next, bad int, hex bool) {
	if j+1 >= len(s) {
		return b, j, len(s), false
	}
	switch e := s[j+1]; e {
	case '"', '\\', '/':
		return append(b, e), j + 2, -1, false
	case 'b':
		return append(b, '\b'), j + 2, -1, false
	case 'f':
		return append(b, '\f'), j + 2, -1, false
	case 'n':
		return append(b, '\n'), j + 2, -1, false
	case 'r':
		return append(b, '\r'), j + 2, -1, false
	case 't':
		return append(b, '\t'), j + 2, -1, false
	case 'u':
	default:
		return b, j, j + 1, false
	}
	r, bad := hex4(s, j+2)
	if bad >= 0 {
		return b, j, bad, true
	}
	j += 6
	if utf16.IsSurrogate(r) {
		r2 := rune(-1)
		if j+1 < len(s) && s[j] == '\\' && s[j+1] == 'u' {
			if x, bad := hex4(s, j+2); bad < 0 {
				r2 = x
			}
		}
		if dec := utf16.DecodeRune(r, r2); dec != unicode.ReplacementChar {
			r = dec
			j += 6
		} else {
			r = unicode.ReplacementChar
		}
	}
	return utf8.AppendRune(b, r), j, -1, false
}

// hex4 reads the four hex digits at s[i:]: the rune, or the index of the
// first byte that is not one (len(s) when s ends first).
func hex4[S ~string | ~[]byte](s S, i int) (r rune, bad int) {
	for k := i; k < i+4; k++ {
		if k >= len(s) {
			return 0, len(s)
		}
		c := s[k]
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, k
		}
		r = r<<4 | rune(c)
	}
	return r, -1
}
