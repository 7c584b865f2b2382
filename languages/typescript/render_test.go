package typescript

import (
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/protoscan-dev/protoscan/languages/facts"
)

// render prints facts compactly, one per line, for table tests.
func render(f *facts.File) string {
	var b strings.Builder
	for _, s := range f.Strings {
		fmt.Fprintf(&b, "S %s %q", s.Role, s.Value)
		if s.Key != "" {
			fmt.Fprintf(&b, " key=%s", s.Key)
		}
		if s.Receiver != "" {
			fmt.Fprintf(&b, " recv=%s", s.Receiver)
		}
		if s.Scope != "" {
			fmt.Fprintf(&b, " scope=%s", s.Scope)
		}
		if s.Mapping >= 0 {
			fmt.Fprintf(&b, " m=%d", s.Mapping)
		}
		if s.Group >= 0 {
			fmt.Fprintf(&b, " g=%d", s.Group)
		}
		fmt.Fprintf(&b, " @%d:%d-%d:%d\n", s.Pos.Line, s.Pos.Col, s.End.Line, s.End.Col)
	}
	for _, g := range f.Groups {
		fmt.Fprintf(&b, "G %s %q", g.Kind, g.Name)
		if g.Scope != "" {
			fmt.Fprintf(&b, " scope=%s", g.Scope)
		}
		fmt.Fprintf(&b, " @%d:%d %v\n", g.Pos.Line, g.Pos.Col, g.Members)
	}
	for _, m := range f.Mappings {
		fmt.Fprintf(&b, "M %q", m.TypeName)
		if m.Name != "" {
			fmt.Fprintf(&b, " name=%s", m.Name)
		}
		if m.Scope != "" {
			fmt.Fprintf(&b, " scope=%s", m.Scope)
		}
		fmt.Fprintf(&b, " @%d:%d", m.Pos.Line, m.Pos.Col)
		for _, e := range m.Entries {
			fmt.Fprintf(&b, " %s@%d:%d=%s@%d:%d", e.Key, e.KeyPos.Line, e.KeyPos.Col, renderValue(e.Value), e.ValPos.Line, e.ValPos.Col)
		}
		b.WriteByte('\n')
	}
	for _, t := range f.Tests {
		fmt.Fprintf(&b, "T %s key=%s", t.Collection, t.Key)
		if t.Receiver != "" {
			fmt.Fprintf(&b, " recv=%s", t.Receiver)
		}
		if t.Scope != "" {
			fmt.Fprintf(&b, " scope=%s", t.Scope)
		}
		if t.Branch != facts.BranchUnknown {
			fmt.Fprintf(&b, " %s", branchName(t.Branch))
		}
		fmt.Fprintf(&b, " @%d:%d\n", t.Pos.Line, t.Pos.Col)
	}
	return b.String()
}

func renderValue(v any) string {
	switch v := v.(type) {
	case facts.Unknown:
		return "?"
	case nil:
		return "nil"
	case string:
		return fmt.Sprintf("%q", v)
	case int64:
		return fmt.Sprintf("%d", v)
	case float64:
		return fmt.Sprintf("%gf", v)
	case bool:
		return fmt.Sprint(v)
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = renderValue(e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + ":" + renderValue(v[k])
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	return fmt.Sprintf("!%T", v)
}

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
		checkPos("string end", s.End)
		if s.End.Offset <= s.Pos.Offset {
			t.Fatalf("string %d: empty range %+v-%+v", i, s.Pos, s.End)
		}
		if s.Pos.Offset <= last {
			t.Fatalf("string %d: not in source order or repeated at offset %d", i, s.Pos.Offset)
		}
		last = s.Pos.Offset
		lit := src[s.Pos.Offset:s.End.Offset]
		if c := lit[len(lit)-1]; c != '"' && c != '\'' && c != '`' && !(s.Role == facts.RoleKey && string(lit) == s.Value) {
			t.Fatalf("string %d: range %q is neither a quoted string nor a key", i, lit)
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

func branchName(b facts.Branch) string {
	switch b {
	case facts.BranchReject:
		return "reject"
	case facts.BranchAccept:
		return "accept"
	}
	return "unknown"
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
