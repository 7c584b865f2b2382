// Package editdist measures how far apart two short strings are, for the
// "did you mean" of unknown keys, keywords and rule ids.
package editdist

import (
	"fmt"
	"strings"
)

// MaxLen is the longest string Distance compares; a longer one is Far
// from everything, so that a hostile key costs no quadratic table.
const MaxLen = 64

// Far is the distance Distance gives a string longer than MaxLen.
const Far = 1 << 20

// Distance is the optimal string alignment distance of a and b: edits of
// one byte, or a swap of two adjacent ones.
func Distance(a, b string) int {
	if len(a) > MaxLen || len(b) > MaxLen {
		return Far
	}
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// Nearest finds the candidate s is most likely a misspelling of, for a
// "did you mean": the same word but for case, "_" and "-" (fail_on,
// failOn for fail-on), else one it begins, when s has 3 characters or
// more (warn for warning), else the nearest within an edit distance of a
// third of s's length (at least 1, at most 2; a swap of two adjacent
// letters is one edit). The first candidate wins a tie; ok is false when
// none is near.
func Nearest(s string, candidates []string) (near string, ok bool) {
	ns := fold(s)
	if ns == "" {
		return "", false
	}
	for _, c := range candidates {
		if fold(c) == ns {
			return c, true
		}
	}
	if len(ns) >= 3 {
		for _, c := range candidates {
			if strings.HasPrefix(fold(c), ns) {
				return c, true
			}
		}
	}
	limit := min(max(len(ns)/3, 1), 2)
	best, bestD := "", limit+1
	for _, c := range candidates {
		if d := Distance(ns, fold(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best, best != ""
}

// fold drops what spellings of one word differ in besides their letters:
// case, "_" and "-".
func fold(s string) string { return folder.Replace(strings.ToLower(s)) }

var folder = strings.NewReplacer("_", "", "-", "")

// Hint is "did you mean "V"?" for the value of words nearest to s,
// after sep (" (" opens a parenthesis and closes it, "; " goes inside
// one), or "" when none is near.
func Hint(s string, words []string, sep string) string {
	near, ok := Nearest(s, words)
	if !ok {
		return ""
	}
	hint := fmt.Sprintf("did you mean %q?", near)
	if sep == " (" {
		return " (" + hint + ")"
	}
	return sep + hint
}
