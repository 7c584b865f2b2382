package typescript

import (
	"bytes"
	"os"
	"slices"
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
	if f.Lang != "typescript" && f.Lang != "javascript" {
		t.Errorf("Lang = %q", f.Lang)
	}
	checkPos := factstest.PosChecker(t, src)
	validSrc := utf8.Valid(src)
	last := -1
	for i, s := range f.Strings {
		checkPos("string", s.Pos)
		if s.End == (facts.Pos{}) {
			// an identifier key, which no fix may rewrite
			if s.Role != facts.RoleKey || !bytes.HasPrefix(src[s.Pos.Offset:], []byte(s.Value)) {
				t.Fatalf("string %d: no end, and not an identifier key: %+v", i, s)
			}
			last = s.Pos.Offset
			continue
		}
		checkPos("string end", s.End)
		if s.End.Offset <= s.Pos.Offset {
			t.Fatalf("string %d: empty range %+v-%+v", i, s.Pos, s.End)
		}
		if s.Pos.Offset <= last {
			t.Fatalf("string %d: not in source order or repeated at offset %d", i, s.Pos.Offset)
		}
		last = s.Pos.Offset
		lit := src[s.Pos.Offset:s.End.Offset]
		if c := lit[len(lit)-1]; c != '"' && c != '\'' && c != '`' {
			t.Fatalf("string %d: range %q does not end with a quote", i, lit)
		}
		if s.Mapping < -1 || s.Mapping >= len(f.Mappings) || s.Group < -1 || s.Group >= len(f.Groups) {
			t.Fatalf("string %d: index out of range: %+v", i, s)
		}
		if s.Group >= 0 && !slices.Contains(f.Groups[s.Group].Members, i) {
			t.Fatalf("string %d: not a member of its group %d", i, s.Group)
		}
		if validSrc && !utf8.ValidString(s.Value) {
			t.Fatalf("string %d: invalid UTF-8 value from valid source", i)
		}
	}
	factstest.CheckCollections(t, f, checkPos)
}

// TestDump prints the facts of the file named by $PROTOSCAN_DUMP:
//
//	PROTOSCAN_DUMP=x.ts go test -run TestDump -v ./languages/typescript
func TestDump(t *testing.T) {
	p := os.Getenv("PROTOSCAN_DUMP")
	if p == "" {
		t.Skip("PROTOSCAN_DUMP not set")
	}
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Extract(p, src)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", render(f))
}
