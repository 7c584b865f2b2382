package python

import (
	"testing"
	"unicode/utf8"

	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/facts/factstest"
)

// render and renderValue are factstest's, for the table tests.
var (
	render      = factstest.Render
	renderValue = factstest.RenderValue
)

// checkInvariants verifies what every result must satisfy, whatever the
// input: positions agree with the source, indices are in range and
// consistent, each literal is reported once, in source order.
func checkInvariants(t testing.TB, src []byte, f *facts.File) {
	t.Helper()
	if f.Lang != "python" {
		t.Errorf("Lang = %q", f.Lang)
	}
	checkPos := factstest.PosChecker(t, src)
	validSrc := utf8.Valid(src)
	last := -1
	for i, s := range f.Strings {
		checkPos("string", s.Pos)
		checkPos("string end", s.End)
		if s.End.Offset <= s.Pos.Offset {
			t.Fatalf("string %d: empty range %+v-%+v", i, s.Pos, s.End)
		}
		if s.Pos.Offset <= last {
			t.Fatalf("string %d: not in source order or repeated at offset %d", i, s.Pos.Offset)
		}
		last = s.Pos.Offset
		lit := src[s.Pos.Offset:s.End.Offset]
		if c := lit[len(lit)-1]; c != '"' && c != '\'' {
			t.Fatalf("string %d: range %q does not end with a quote", i, lit)
		}
		if s.Mapping < -1 || s.Mapping >= len(f.Mappings) || s.Group < -1 || s.Group >= len(f.Groups) {
			t.Fatalf("string %d: index out of range: %+v", i, s)
		}
		if s.Group >= 0 {
			found := false
			for _, m := range f.Groups[s.Group].Members {
				found = found || m == i
			}
			if !found {
				t.Fatalf("string %d: not a member of its group %d", i, s.Group)
			}
		}
		if validSrc && !utf8.ValidString(s.Value) {
			t.Fatalf("string %d: invalid UTF-8 value from valid source", i)
		}
	}
	factstest.CheckCollections(t, f, checkPos)
	checkFunctions(t, f, checkPos)
}
