package editdist

import (
	"strings"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"spec", "spec", 0},
		{"core_feilds", "core_fields", 1}, // a swap is one edit
		{"minWrods", "minWords", 1},
		{"exclud", "exclude", 1},
		{"kitten", "sitting", 3},
		{"", "abc", 3},
		{strings.Repeat("a", MaxLen+1), "a", Far},
	} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
