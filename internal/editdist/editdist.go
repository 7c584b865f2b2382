// Package editdist measures how far apart two short strings are, for the
// "did you mean" of unknown keys, keywords and rule ids.
package editdist

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
