package msgcheck

import (
	"math/bits"
	"unicode/utf8"
	"unsafe"

	"github.com/protoscan-dev/protoscan/internal/swar"
)

// isWordSeparator treats every Unicode space as a separator: U+00A0 and the
// other Zs characters, line and paragraph separators, and U+FEFF. It is
// exactly JavaScript's [\s\p{Z}] (which has U+FEFF but not U+0085, NEL),
// so a JSON Schema pattern run by ajv agrees with us.
//
// It is the list of those characters, not a lookup in Unicode's tables,
// because it runs for every non-ASCII letter of every counted text;
// TestWordSeparators checks every rune against the tables.
func isWordSeparator(r rune) bool {
	switch {
	case r < 0x80:
		return r >= 0 && asciiSpace[r]
	case r < 0x2000:
		return r == 0xA0 || r == 0x1680
	case r <= 0x200A, r == 0x2028, r == 0x2029, r == 0x202F, r == 0x205F:
		return true
	}
	return r == 0x3000 || r == 0xFEFF
}

// asciiSpace marks the ASCII separators, for the common all-ASCII case.
var asciiSpace = [128]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// countWords counts maximal runs of non-separators. It stops counting at
// limit (when positive), which is all a minimum check needs.
//
// It is on the audit's hot path (every scope, plan step and context is
// counted), so all-ASCII stretches are counted eight bytes at a time, and
// 32 at a time with AVX2 (wordBlocks, words_amd64.s); countWordsSlow (in
// the tests), the plain loop, is what both must agree with.
func countWords(s string, limit int) int {
	const (
		lo7 = 0x7f7f7f7f7f7f7f7f
		hi  = 0x8080808080808080
		one = 0x0101010101010101
	)
	n := 0
	inWord := false
	i := 0
	scalar := 0 // the rune loop takes the bytes before this
	simd := 0   // wordBlocks takes no bytes before this
	for i < len(s) {
		if wordBlocksAVX2 && i >= simd && len(s)-i >= 32 {
			prevSep, left := uint64(0), 0
			if !inWord {
				prevSep = 1
			}
			if limit > 0 {
				left = limit - n
			}
			rest := s[i:]
			w, used, lastSep := wordBlocks(unsafe.StringData(rest), len(rest), prevSep, left)
			n += w
			if limit > 0 && n >= limit {
				return limit
			}
			if used > 0 {
				i += used
				inWord = lastSep == 0
			}
			// a block it left (a byte that may start a non-ASCII
			// separator) goes through the loops below
			simd = i + 32
			continue
		}
		if swar.Enabled && i >= scalar && i+8 <= len(s) {
			w := swar.Load64(s, i)
			if high := w & hi; high != 0 && mayStartSeparator(w) {
				// up to and through the first non-ASCII byte's rune
				scalar = i + bits.TrailingZeros64(high)>>3 + 1
			} else {
				// each byte's top bit is free for flags once masked off; a
				// byte of a non-ASCII rune is no separator (no byte here
				// starts a rune that could be one)
				a, ascii := w&lo7, ^w&hi
				// adding 0x7f to a 7-bit lane sets its top bit unless the
				// lane is zero, and never carries into the next lane
				notSpace := ((a ^ ' '*one) + lo7) & hi
				space := ascii &^ notSpace
				// '\t' to '\r': at least 9, and not at least 14
				ctrl := (a + (0x80-9)*one) &^ (a + (0x80-14)*one) & ascii
				sep := space | ctrl
				prev := sep << 8 // each byte's predecessor is a separator
				if !inWord {
					prev |= 0x80
				}
				n += bits.OnesCount64(^sep & prev & hi)
				inWord = sep&(0x80<<56) == 0
				i += 8
				if limit > 0 && n >= limit {
					return limit
				}
				continue
			}
		}
		var sep bool
		if b := s[i]; b < utf8.RuneSelf {
			sep = asciiSpace[b]
			i++
		} else if b >= 0xC2 && b < 0xE0 && i+1 < len(s) && s[i+1]&0xC0 == 0x80 {
			// a valid two-byte rune: of those, only U+00A0 separates
			sep = b == 0xC2 && s[i+1] == 0xA0
			i += 2
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

// mayStartSeparator reports whether a byte of w could start a non-ASCII
// separator: the lead bytes of U+00A0 (C2), U+1680 (E1), U+2000 to U+205F
// (E2), U+3000 (E3) and U+FEFF (EF). Other non-ASCII bytes (é is C3 A9)
// never separate words.
func mayStartSeparator(w uint64) bool {
	const (
		one = 0x0101010101010101
		hi  = 0x8080808080808080
	)
	// a lane of w^(b*one) is zero where w holds b; the zero-byte
	// arithmetic flags some lane exactly when one is zero
	zero := func(x uint64) uint64 { return (x - one) &^ x & hi }
	return zero(w^0xC2*one)|zero(w^0xE1*one)|zero(w^0xE2*one)|zero(w^0xE3*one)|zero(w^0xEF*one) != 0
}
