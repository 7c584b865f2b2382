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

// BenchmarkWordBlocks counts the words of BenchmarkCountWords's texts
// with the AVX2 blocks and with the eight-byte loop other CPUs take: what
// the assembly earns (BENCHMARKS.md, "Tricks that earn their keep").
func BenchmarkWordBlocks(b *testing.B) {
	if !wordBlocksAVX2 {
		b.Skip("this CPU has no AVX2")
	}
	defer func(was bool) { wordBlocksAVX2 = was }(wordBlocksAVX2)
	scope := "Update the queue parser so that empty task ids are rejected with a clear error message, and cover the change with unit tests"
	for _, avx2 := range []bool{true, false} {
		name := map[bool]string{true: "avx2", false: "eight-bytes"}[avx2]
		for _, c := range []struct {
			name  string
			s     string
			limit int
		}{{"scope-min15", scope, 15}, {"scope-all", scope, 0}, {"accented", "café crème données\u00a0naïve über alles " + scope, 0}} {
			b.Run(c.name+"/"+name, func(b *testing.B) {
				wordBlocksAVX2 = avx2
				b.SetBytes(int64(len(c.s)))
				for b.Loop() {
					countWords(c.s, c.limit)
				}
			})
		}
	}
}
