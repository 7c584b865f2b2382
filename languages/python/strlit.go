package python

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// prefix flags of a string literal.
const (
	pRaw = 1 << iota
	pBytes
	pFormat
)

// parsePrefix reads the prefix and quote of a string_start token ("rb'",
// 'f"""'...). It returns the prefix flags and false for anything that is
// not a known prefix followed by a quote.
func parsePrefix(start []byte) (flags int, ok bool) {
	for _, c := range start {
		switch c {
		case 'r', 'R':
			flags |= pRaw
		case 'b', 'B':
			flags |= pBytes
		case 'f', 'F':
			flags |= pFormat
		case 'u', 'U':
		case '"', '\'':
			return flags, true
		default:
			// t-strings (PEP 750) and anything unknown: not a plain string.
			return 0, false
		}
	}
	return 0, false
}

// decodeBody decodes the text between the quotes of a str literal, as
// Python would. Raw strings keep their backslashes; in f-strings (which
// reach here only without placeholders) "{{" and "}}" stand for one brace.
//
// \N{NAME} escapes are kept as written: Go's standard library has no
// Unicode name table, and such escapes do not occur in protocol values.
func decodeBody(body []byte, flags int) string {
	hasEsc := flags&pRaw == 0 && bytesHas(body, '\\')
	hasBrace := flags&pFormat != 0 && (bytesHas(body, '{') || bytesHas(body, '}'))
	if !hasEsc && !hasBrace {
		return string(body)
	}
	var b strings.Builder
	b.Grow(len(body))
	for i := 0; i < len(body); {
		c := body[i]
		if hasBrace && (c == '{' || c == '}') && i+1 < len(body) && body[i+1] == c {
			b.WriteByte(c)
			i += 2
			continue
		}
		if !hasEsc || c != '\\' || i+1 >= len(body) {
			b.WriteByte(c)
			i++
			continue
		}
		e := body[i+1]
		i += 2
		switch e {
		case '\n':
			// A backslash at the end of a line joins the lines.
		case '\r':
			if i < len(body) && body[i] == '\n' {
				i++
			}
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := rune(e - '0')
			for k := 0; k < 2 && i < len(body) && body[i] >= '0' && body[i] <= '7'; k++ {
				v = v*8 + rune(body[i]-'0')
				i++
			}
			b.WriteRune(v)
		case 'x', 'u', 'U':
			n := 2
			if e == 'u' {
				n = 4
			} else if e == 'U' {
				n = 8
			}
			if i+n > len(body) {
				// Invalid in Python: keep as written.
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			v, err := strconv.ParseUint(string(body[i:i+n]), 16, 32)
			if err != nil {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			i += n
			r := rune(v)
			if !utf8.ValidRune(r) {
				r = utf8.RuneError
			}
			b.WriteRune(r)
		default:
			// Unknown escapes (and \N{...}) keep their backslash, as in
			// Python.
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String()
}

func bytesHas(b []byte, c byte) bool {
	for _, x := range b {
		if x == c {
			return true
		}
	}
	return false
}

// parseInt reads a Python integer literal (underscores, 0x/0o/0b). A value
// beyond int64 is returned as a float64 approximation.
func parseInt(text []byte) (any, bool) {
	s := strings.ReplaceAll(string(text), "_", "")
	if s == "" {
		return nil, false
	}
	last := s[len(s)-1]
	if last == 'j' || last == 'J' || last == 'l' || last == 'L' {
		return nil, false // complex, or Python 2 long
	}
	base := 10
	if len(s) > 2 && s[0] == '0' {
		switch s[1] {
		case 'x', 'X':
			base, s = 16, s[2:]
		case 'o', 'O':
			base, s = 8, s[2:]
		case 'b', 'B':
			base, s = 2, s[2:]
		}
	}
	if v, err := strconv.ParseInt(s, base, 64); err == nil {
		return v, true
	}
	if u, err := strconv.ParseUint(s, base, 64); err == nil {
		return float64(u), true
	}
	if base == 10 {
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f, true
		}
	}
	return nil, false
}

// parseFloat reads a Python float literal; imaginary literals are not
// floats.
func parseFloat(text []byte) (any, bool) {
	s := strings.ReplaceAll(string(text), "_", "")
	if s == "" || s[len(s)-1] == 'j' || s[len(s)-1] == 'J' {
		return nil, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, false
	}
	return f, true
}
