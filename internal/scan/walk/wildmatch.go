package walk

import "strings"

// This file implements git's wildmatch (wildmatch.c) with WM_PATHNAME, the
// matcher git uses for .gitignore patterns. It is a byte-for-byte port of the
// algorithm rather than a translation to path.Match or doublestar, because the
// details differ in ways users notice: "[!a]" is a negated class, "**" is only
// special between slashes, "*" never crosses "/". The ABORT results are what
// keeps matching polynomial on hostile patterns; one place where git drops
// them (see "**/" below) is pruned here too, since protoscan reads .gitignore
// files from untrusted repositories.

const (
	wmMatch = iota
	wmNoMatch
	wmAbortAll        // no later position of the text can match either
	wmAbortToStarStar // only an enclosing "**" may still match
)

// wildmatch reports whether text matches the git wildmatch pattern with
// WM_PATHNAME semantics: '*', '?' and classes do not match '/', and "**"
// between slashes (or at either end) matches across directories.
func wildmatch(pattern, text string) bool {
	w := wild{prune: true}
	return w.dowild(pattern, text) == wmMatch
}

// wild is one run of dowild. With prune set it also stops at the two
// places noted in dowild where git carries on although no match is
// possible; tests run it without prune to check that pruning never
// changes a result.
type wild struct {
	prune bool
	calls int // of dowild, recursive ones included (tests bound them)
}

// at returns s[i], or 0 past the end: the C code relies on the NUL terminator.
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func isGlobSpecial(c byte) bool {
	return c == '*' || c == '?' || c == '[' || c == '\\'
}

// dowild is git's algorithm, pruned as w says.
func (w *wild) dowild(p, text string) int {
	w.calls++
	pi, ti := 0, 0
	for ; pi < len(p); pi, ti = pi+1, ti+1 {
		pc := p[pi]
		if ti >= len(text) && pc != '*' {
			return wmAbortAll
		}
		tc := at(text, ti)
		switch pc {
		case '\\':
			// Escaped literal; a trailing lone backslash matches nothing.
			pi++
			if tc != at(p, pi) || pi >= len(p) {
				return wmNoMatch
			}
		default:
			if tc != pc {
				return wmNoMatch
			}
		case '?':
			if tc == '/' {
				return wmNoMatch
			}
		case '*':
			matchSlash := false
			pi++
			if at(p, pi) == '*' {
				prev := pi - 2 // the byte before the first '*'
				for at(p, pi) == '*' {
					pi++
				}
				if (prev < 0 || p[prev] == '/') &&
					(pi == len(p) || p[pi] == '/' || (p[pi] == '\\' && at(p, pi+1) == '/')) {
					// "**/" may match no directory at all: try the rest here.
					if at(p, pi) == '/' {
						switch w.dowild(p[pi+1:], text[ti:]) {
						case wmMatch:
							return wmMatch
						case wmAbortAll:
							if !w.prune {
								break
							}
							// Git ignores this result, which makes
							// "**/**/**/..." exponential. ABORT_ALL means
							// no suffix of text can match the rest, and the
							// loop below only tries suffixes: stop now.
							return wmAbortAll
						}
					}
					matchSlash = true
				}
			}
			if pi == len(p) {
				// Trailing "**" matches everything; trailing "*" only the
				// rest of this path component.
				if !matchSlash && strings.IndexByte(text[ti:], '/') >= 0 {
					return wmNoMatch
				}
				return wmMatch
			}
			if !matchSlash && p[pi] == '/' {
				// "*/" consumes exactly the rest of this component.
				slash := strings.IndexByte(text[ti:], '/')
				if slash < 0 {
					return wmNoMatch
				}
				ti += slash
				continue // the loop step consumes both slashes
			}
			for ti < len(text) {
				if !isGlobSpecial(p[pi]) {
					// Skip ahead to the next occurrence of the literal that
					// follows the star; without "**" never past a slash.
					lit := p[pi]
					for ti < len(text) && (matchSlash || text[ti] != '/') && text[ti] != lit {
						ti++
					}
					if ti >= len(text) && w.prune {
						// The literal is nowhere in the rest of the text,
						// so no later start can match either. Git says
						// NOMATCH here, which lets enclosing "**" loops
						// retry every position: exponential with many "**".
						return wmAbortAll
					}
					if ti >= len(text) || text[ti] != lit {
						return wmNoMatch // stopped at a '/' a lone '*' cannot cross
					}
				}
				if m := w.dowild(p[pi:], text[ti:]); m != wmNoMatch {
					if !matchSlash || m != wmAbortToStarStar {
						return m
					}
				} else if !matchSlash && text[ti] == '/' {
					return wmAbortToStarStar
				}
				ti++
			}
			return wmAbortAll
		case '[':
			pi++
			pc = at(p, pi)
			if pc == '^' {
				pc = '!'
			}
			negated := pc == '!'
			if negated {
				pi++
				pc = at(p, pi)
			}
			var prev byte
			matched := false
			for {
				if pi >= len(p) {
					return wmAbortAll
				}
				switch {
				case pc == '\\':
					pi++
					if pi >= len(p) {
						return wmAbortAll
					}
					pc = p[pi]
					if tc == pc {
						matched = true
					}
				case pc == '-' && prev != 0 && pi+1 < len(p) && p[pi+1] != ']':
					pi++
					pc = p[pi]
					if pc == '\\' {
						pi++
						if pi >= len(p) {
							return wmAbortAll
						}
						pc = p[pi]
					}
					if tc <= pc && tc >= prev {
						matched = true
					}
					pc = 0 // a range cannot start another range
				case pc == '[' && at(p, pi+1) == ':':
					pi += 2
					s := pi
					for pi < len(p) && p[pi] != ']' {
						pi++
					}
					if pi >= len(p) {
						return wmAbortAll
					}
					if pi-s-1 < 0 || p[pi-1] != ':' {
						// Not "[:class:]": the '[' is an ordinary member.
						pi = s - 2
						pc = '['
						if tc == pc {
							matched = true
						}
						break
					}
					in, ok := inClass(p[s:pi-1], tc)
					if !ok {
						return wmAbortAll // malformed class name
					}
					if in {
						matched = true
					}
					pc = 0
				default:
					if tc == pc {
						matched = true
					}
				}
				prev = pc
				pi++
				pc = at(p, pi)
				if pc == ']' {
					break
				}
			}
			if matched == negated || tc == '/' {
				return wmNoMatch
			}
		}
	}
	if ti < len(text) {
		return wmNoMatch
	}
	return wmMatch
}

// inClass reports whether c is in the POSIX class name (ASCII only, as git's
// sane_ctype); ok is false for an unknown class name.
func inClass(name string, c byte) (in, ok bool) {
	upper := c >= 'A' && c <= 'Z'
	lower := c >= 'a' && c <= 'z'
	digit := c >= '0' && c <= '9'
	alpha := upper || lower
	graph := c > 0x20 && c < 0x7f
	switch name {
	case "alnum":
		return alpha || digit, true
	case "alpha":
		return alpha, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return digit, true
	case "graph":
		return graph, true
	case "lower":
		return lower, true
	case "print":
		return graph || c == ' ', true
	case "punct":
		return graph && !alpha && !digit, true
	case "space":
		return c == ' ' || (c >= '\t' && c <= '\r'), true
	case "upper":
		return upper, true
	case "xdigit":
		return digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'), true
	}
	return false, false
}
