package msgcheck

import (
	"strings"
	"testing"
)

// TestWordBlocks holds the AVX2 blocks, and the eight-byte loop without
// them, to the plain loop on texts long enough for them: separators at
// every offset of a block, the bytes that send a block back to the
// eight-byte loop, limits met mid-block.
func TestWordBlocks(t *testing.T) {
	var texts []string
	for _, c := range []string{" ", "\t", "\r", "\x08", "\x0e", "\x1f", "\u00a0", "\u0085", "\u2009", "\u3000", "\ufeff", "\u1680", "é", "\xc2", "\xff"} {
		for at := 0; at < 70; at++ {
			base := strings.Repeat("ab cde f", 12)
			texts = append(texts, base[:at]+c+base[at:], strings.Repeat("x", at)+c+strings.Repeat("y", 70-at))
		}
	}
	texts = append(texts, wordTexts...)
	// and the eight-byte loop on the same texts, which other CPUs take
	// (only that, where this one has no AVX2)
	modes := []bool{false}
	if wordBlocksAVX2 {
		modes = append(modes, true)
	}
	defer func(was bool) { wordBlocksAVX2 = was }(wordBlocksAVX2)
	for _, avx2 := range modes {
		wordBlocksAVX2 = avx2
		for _, s := range texts {
			for _, limit := range []int{0, 1, 3, 5, 9, 15, 20} {
				if got, want := countWords(s, limit), countWordsSlow(s, limit); got != want {
					t.Errorf("AVX2 %v: countWords(%q, %d) = %d, the plain loop says %d", avx2, s, limit, got, want)
				}
			}
		}
	}
}
