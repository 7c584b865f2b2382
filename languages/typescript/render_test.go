package typescript

import (
	"bytes"
	"os"
	"slices"
	"sort"
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
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	checkPos := func(what string, p facts.Pos) {
		if p.Offset < 0 || p.Offset > len(src) || p.Line < 1 || p.Col < 1 {
			t.Fatalf("%s: bad position %+v (len %d)", what, p, len(src))
		}
		line := sort.Search(len(starts), func(i int) bool { return starts[i] > p.Offset })
		col := p.Offset - starts[line-1] + 1
		if line != p.Line || col != p.Col {
			t.Fatalf("%s: position %+v, want line %d col %d", what, p, line, col)
		}
	}
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
