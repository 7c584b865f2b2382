package msgcheck

import (
	"strings"
	"testing"
	"unicode"
)

// wordTexts mix ASCII separators, Unicode spaces (U+00A0, U+2009, U+3000,
// U+FEFF), U+0085 (not a separator), accented letters, invalid UTF-8
// and runs that straddle the eight-byte blocks of countWords.
var wordTexts = []string{
	"", " ", "a", "ab cd", "  leading and trailing  ", "one\ttwo\nthree\rfour\vfive\fsix",
	"exactly8", "exactly8 exactly8", "seven77 seven77 ", "a b c d e f g h i j k l m n o p q r s t u v w x y z",
	"café crème données\u00a0naïve über", "no\u2009break\u3000space\ufefffeff", "nel\u0085is a letter here",
	"bad \xff utf8 \xc3", "\x00\x01\x1f\x7f control bytes are words", strings.Repeat("word ", 40),
	strings.Repeat("x", 17) + " " + strings.Repeat("y", 15), "        \u00a0        ",
}

func TestCountWordsAgrees(t *testing.T) {
	for _, s := range wordTexts {
		for _, limit := range []int{0, 1, 3, 15, 20} {
			if got, want := countWords(s, limit), countWordsSlow(s, limit); got != want {
				t.Errorf("countWords(%q, %d) = %d, the plain loop says %d", s, limit, got, want)
			}
		}
	}
	// every byte at every offset of a block: separators and not
	for _, c := range []string{" ", "\t", "\n", "\v", "\f", "\r", "\x08", "\x0e", "\x1f", "!", "a", "\u00a0", "é"} {
		for at := 0; at < 17; at++ {
			s := strings.Repeat("ab", 9)[:at] + c + strings.Repeat("cd", 9)
			if got, want := countWords(s, 0), countWordsSlow(s, 0); got != want {
				t.Errorf("countWords(%q) = %d, want %d", s, got, want)
			}
		}
	}
}

func FuzzCountWords(f *testing.F) {
	for _, s := range wordTexts {
		f.Add(s, 0)
	}
	f.Fuzz(func(t *testing.T, s string, limit int) {
		limit %= 40
		if got, want := countWords(s, limit), countWordsSlow(s, limit); got != want {
			t.Errorf("countWords(%q, %d) = %d, the plain loop says %d", s, limit, got, want)
		}
	})
}

func BenchmarkCountWords(b *testing.B) {
	scope := "Update the queue parser so that empty task ids are rejected with a clear error message, and cover the change with unit tests"
	for _, c := range []struct {
		name  string
		s     string
		limit int
	}{{"scope-min15", scope, 15}, {"scope-all", scope, 0}, {"accented", "café crème données\u00a0naïve über alles " + scope, 0}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.s)))
			for b.Loop() {
				countWords(c.s, c.limit)
			}
		})
		b.Run(c.name+"/slow", func(b *testing.B) {
			b.SetBytes(int64(len(c.s)))
			for b.Loop() {
				countWordsSlow(c.s, c.limit)
			}
		})
	}
}

// TestWordSeparators checks the list of separators against Unicode's
// tables, for every rune.
func TestWordSeparators(t *testing.T) {
	for r := rune(-1); r <= unicode.MaxRune+1; r++ {
		if got, want := isWordSeparator(r), isWordSeparatorByTables(r); got != want {
			t.Errorf("U+%04X: separator %v, the tables say %v", r, got, want)
		}
	}
}

// isWordSeparatorByTables is isWordSeparator from Unicode's tables.
func isWordSeparatorByTables(r rune) bool {
	return r != '\u0085' && (unicode.IsSpace(r) || unicode.Is(unicode.Z, r) || r == '\uFEFF')
}

// countWordsSlow is countWords a rune at a time.
func countWordsSlow(s string, limit int) int {
	n := 0
	inWord := false
	for _, r := range s {
		switch {
		case isWordSeparator(r):
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
