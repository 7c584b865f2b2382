package factstest

import (
	"sort"
	"testing"

	"github.com/protoscan-dev/protoscan/languages/facts"
)

// PosChecker returns a check that a position's line and column are those
// of its offset in src, computed apart from the extractor's line table.
func PosChecker(t testing.TB, src []byte) func(what string, p facts.Pos) {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return func(what string, p facts.Pos) {
		t.Helper()
		if p.Offset < 0 || p.Offset > len(src) || p.Line < 1 || p.Col < 1 {
			t.Fatalf("%s: bad position %+v (len %d)", what, p, len(src))
		}
		line := sort.Search(len(starts), func(i int) bool { return starts[i] > p.Offset })
		col := p.Offset - starts[line-1] + 1
		if line != p.Line || col != p.Col {
			t.Fatalf("%s: position %+v, want line %d col %d", what, p, line, col)
		}
	}
}

// CheckCollections checks what every extractor promises of groups,
// tests and mappings: valid positions, members in source order that
// point back at their group, tests with a collection and a key in source
// order, and no mapping scoped without a name.
func CheckCollections(t testing.TB, f *facts.File, checkPos func(string, facts.Pos)) {
	t.Helper()
	for gi, g := range f.Groups {
		checkPos("group", g.Pos)
		if len(g.Members) == 0 {
			t.Fatalf("group %d is empty", gi)
		}
		for k, m := range g.Members {
			if m < 0 || m >= len(f.Strings) || f.Strings[m].Group != gi {
				t.Fatalf("group %d: bad member %d", gi, m)
			}
			if k > 0 && g.Members[k-1] >= m {
				t.Fatalf("group %d: members not in source order", gi)
			}
		}
	}
	for k, tt := range f.Tests {
		checkPos("test", tt.Pos)
		if tt.Collection == "" || tt.Key == "" {
			t.Fatalf("test %d: no collection or key: %+v", k, tt)
		}
		if k > 0 && f.Tests[k-1].Pos.Offset > tt.Pos.Offset {
			t.Fatalf("tests %d and %d out of order", k-1, k)
		}
	}
	for _, m := range f.Mappings {
		checkPos("mapping", m.Pos)
		if m.Scope != "" && m.Name == "" {
			t.Fatalf("mapping at %+v: scope without name", m.Pos)
		}
		for _, e := range m.Entries {
			checkPos("key", e.KeyPos)
			checkPos("value", e.ValPos)
		}
	}
}
