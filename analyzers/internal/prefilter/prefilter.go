// Package prefilter holds the byte searches the analyzers' prefilters
// share: whole words in the ASCII-lower-cased bytes of a file, which
// decide whether the file is worth parsing at all.
package prefilter

import "bytes"

// Word says which bytes continue a word around a needle.
type Word uint8

const (
	// Ident: letters, digits and '_' (status is not a word in
	// status_code).
	Ident Word = iota
	// Part: letters and digits only, so '_' separates words (scope is a
	// word in delegate_scope).
	Part
)

func (w Word) continues(b byte) bool {
	return 'a' <= b && b <= 'z' || '0' <= b && b <= '9' || b >= 0x80 || w == Ident && b == '_'
}

// ContainsWord reports whether needle occurs in lower as a whole word;
// with quoted, only right after a quote (blanks between allowed), as a
// string literal of Go, Python or JSON starts.
func ContainsWord(lower, needle []byte, w Word, quoted bool) bool {
	for off := 0; ; {
		i := bytes.Index(lower[off:], needle)
		if i < 0 {
			return false
		}
		start, end := off+i, off+i+len(needle)
		if StartsWord(lower, start, w, quoted) && EndsWord(lower, end, w) {
			return true
		}
		off = start + 1
	}
}

// StartsWord reports whether a word may start at lower[start]: no letter,
// digit (or '_', for Ident) before it but a byte order mark; with quoted,
// right after a quote, blanks between allowed.
func StartsWord(lower []byte, start int, w Word, quoted bool) bool {
	return (start == 0 || !w.continues(lower[start-1]) || start == len(bom) && bytes.HasPrefix(lower, bom)) &&
		(!quoted || afterQuote(lower, start))
}

// EndsWord reports whether a word may end just before lower[end].
func EndsWord(lower []byte, end int, w Word) bool {
	return end == len(lower) || !w.continues(lower[end])
}

// bom is the UTF-8 byte order mark: at the start of a file it is no part
// of the first word (its bytes are >= 0x80, which continue a word).
var bom = []byte("\xef\xbb\xbf")

func afterQuote(b []byte, i int) bool {
	for i--; i >= 0 && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r'); i-- {
	}
	return i >= 0 && (b[i] == '"' || b[i] == '\'' || b[i] == '`')
}
