package witness

import (
	"fmt"
	"strings"
)

// FromPython translates a pattern of Python's re module, with the flags
// of its call (inline flag letters: "i", "m", "s", "x", "a"; "?" for
// flags computed at run time), into an RE2 pattern that accepts the same
// printable strings; an error names what has no such translation. Where
// the two dialects read the same text differently, the text is
// translated: \d, \w and \s are Unicode classes in Python (unless ASCII),
// \Z is RE2's \z, {,n} is {0,n}, \uXXXX is \x{XXXX}. Python's $ also
// matches before a final newline, which no printable witness holds, so it
// stays. What RE2 cannot express (backreferences, lookaround, possessive
// and atomic groups) is left for Compile to refuse.
func FromPython(pattern, flags string) (string, error) {
	if strings.Contains(flags, "?") {
		return "", fmt.Errorf("flags computed at run time")
	}
	// global inline flags at the start: (?aim)
	for strings.HasPrefix(pattern, "(?") {
		end := strings.IndexByte(pattern, ')')
		if end < 0 || strings.Trim(pattern[2:end], "aiLmsux") != "" {
			break
		}
		flags += pattern[2:end]
		pattern = pattern[end+1:]
	}
	ascii := false
	var out strings.Builder
	inline := ""
	for _, f := range flags {
		switch f {
		case 'a':
			ascii = true
		case 'i', 'm', 's':
			if !strings.ContainsRune(inline, f) {
				inline += string(f)
			}
		case 'x':
			return "", fmt.Errorf("verbose pattern (re.X)")
		case 'L':
			return "", fmt.Errorf("locale-dependent pattern (re.L)")
		}
	}
	if inline != "" {
		out.WriteString("(?" + inline + ")")
	}
	inClass := false
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c == '\\' && i+1 < len(pattern):
			i++
			t, n, err := pyEscape(pattern[i:], inClass, ascii)
			if err != nil {
				return "", err
			}
			if t == "" {
				t = `\` + pattern[i:i+1]
			}
			out.WriteString(t)
			i += n - 1
		case c == '\\':
			return "", fmt.Errorf("trailing backslash")
		case inClass:
			if c == '[' && i+1 < len(pattern) && (pattern[i+1] == ':' || pattern[i+1] == '=' || pattern[i+1] == '.') {
				out.WriteString(`\[`) // a literal [ in Python, a POSIX class in RE2
				continue
			}
			if c == ']' {
				inClass = false
			}
			out.WriteByte(c)
		case c == '[':
			inClass = true
			out.WriteByte(c)
			// a ] first (after ^) is a member
			if i+1 < len(pattern) && pattern[i+1] == '^' {
				out.WriteByte('^')
				i++
			}
			if i+1 < len(pattern) && pattern[i+1] == ']' {
				out.WriteString(`\]`)
				i++
			}
		case c == '{' && i+1 < len(pattern) && pattern[i+1] == ',':
			// {,n} is {0,n} in Python, literal text in RE2
			j := i + 2
			for j < len(pattern) && '0' <= pattern[j] && pattern[j] <= '9' {
				j++
			}
			if j > i+2 && j < len(pattern) && pattern[j] == '}' {
				out.WriteString("{0," + pattern[i+2:j] + "}")
				i = j
				continue
			}
			out.WriteString(`\{`)
		case c == '(' && strings.HasPrefix(pattern[i:], "(?#"):
			end := strings.IndexByte(pattern[i:], ')')
			if end < 0 {
				return "", fmt.Errorf("unterminated comment")
			}
			i += end
		default:
			out.WriteByte(c)
		}
	}
	return out.String(), nil
}

// pyEscape translates the escape that starts at s (after its backslash):
// the RE2 text ("" to keep it as written) and the bytes it takes.
func pyEscape(s string, inClass, ascii bool) (string, int, error) {
	e := s[0]
	switch e {
	case 'd':
		switch {
		case ascii && inClass:
			return `0-9`, 1, nil
		case ascii:
			return `[0-9]`, 1, nil
		case inClass:
			return `\p{Nd}`, 1, nil
		}
		return `\p{Nd}`, 1, nil
	case 'D':
		if ascii {
			return `\D`, 1, nil
		}
		return `\P{Nd}`, 1, nil
	case 'w':
		switch {
		case ascii && inClass:
			return `0-9A-Za-z_`, 1, nil
		case ascii:
			return `[0-9A-Za-z_]`, 1, nil
		case inClass:
			return `\p{L}\p{N}_`, 1, nil
		}
		return `[\p{L}\p{N}_]`, 1, nil
	case 'W':
		switch {
		case ascii:
			return `\W`, 1, nil
		case inClass:
			return "", 0, fmt.Errorf(`\W in a character class (Unicode)`)
		}
		return `[^\p{L}\p{N}_]`, 1, nil
	case 's':
		switch {
		case ascii:
			return `\s`, 1, nil
		case inClass:
			return `\s\p{Z}`, 1, nil
		}
		return `[\s\p{Z}]`, 1, nil
	case 'S':
		switch {
		case ascii:
			return `\S`, 1, nil
		case inClass:
			return "", 0, fmt.Errorf(`\S in a character class (Unicode)`)
		}
		return `[^\s\p{Z}]`, 1, nil
	case 'b', 'B':
		if inClass && e == 'b' {
			return `\x08`, 1, nil
		}
		if !ascii {
			return "", 0, fmt.Errorf(`\%c is a Unicode word boundary in Python`, e)
		}
		return "", 1, nil
	case 'Z':
		return `\z`, 1, nil
	case 'z':
		return "", 0, fmt.Errorf(`\z is no escape of Python's re`)
	case 'u', 'U':
		n := 4
		if e == 'U' {
			n = 8
		}
		if len(s) < 1+n || strings.Trim(s[1:1+n], "0123456789abcdefABCDEF") != "" {
			return "", 0, fmt.Errorf(`bad \%c escape`, e)
		}
		return `\x{` + s[1:1+n] + `}`, 1 + n, nil
	case 'N':
		return "", 0, fmt.Errorf(`named character escape \N`)
	case '0':
		if len(s) > 1 && '0' <= s[1] && s[1] <= '7' {
			return "", 0, fmt.Errorf(`octal escape \0%c`, s[1])
		}
		return `\x00`, 1, nil
	}
	if '1' <= e && e <= '9' {
		return "", 0, fmt.Errorf(`backreference or octal escape \%c`, e)
	}
	return "", 1, nil
}
