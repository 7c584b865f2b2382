package golang

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/languages/facts"
)

// dump formats facts one a line, leaving out empty and -1 fields:
//
//	s0 3:7 member "a" key=A scope=f m0 g1
//	g1 const "Status" 2:1 [0 1]
//	m0 "Handback" 4:6 {TaskID@4:15=? Status@4:27="ok"}
func dump(ff *facts.File) []string {
	var out []string
	for i, s := range ff.Strings {
		var b strings.Builder
		fmt.Fprintf(&b, "s%d %d:%d %s %q", i, s.Pos.Line, s.Pos.Col, s.Role, s.Value)
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
			fmt.Fprintf(&b, " m%d", s.Mapping)
		}
		if s.Group >= 0 {
			fmt.Fprintf(&b, " g%d", s.Group)
		}
		out = append(out, b.String())
	}
	for i, g := range ff.Groups {
		scope := ""
		if g.Scope != "" {
			scope = " scope=" + g.Scope
		}
		out = append(out, fmt.Sprintf("g%d %s %q%s %d:%d %v", i, g.Kind, g.Name, scope, g.Pos.Line, g.Pos.Col, g.Members))
	}
	for i, m := range ff.Mappings {
		var es []string
		for _, e := range m.Entries {
			es = append(es, fmt.Sprintf("%s@%d:%d=%s", e.Key, e.KeyPos.Line, e.KeyPos.Col, fmtValue(e.Value)))
		}
		name := ""
		if m.Name != "" {
			name = " name=" + m.Name
		}
		if m.Scope != "" {
			name += " scope=" + m.Scope
		}
		out = append(out, fmt.Sprintf("m%d %q%s %d:%d {%s}", i, m.TypeName, name, m.Pos.Line, m.Pos.Col, strings.Join(es, " ")))
	}
	for i, t := range ff.Tests {
		var b strings.Builder
		fmt.Fprintf(&b, "t%d %d:%d %s key=%s", i, t.Pos.Line, t.Pos.Col, t.Collection, t.Key)
		if t.Receiver != "" {
			fmt.Fprintf(&b, " recv=%s", t.Receiver)
		}
		if t.Scope != "" {
			fmt.Fprintf(&b, " scope=%s", t.Scope)
		}
		switch t.Branch {
		case facts.BranchAccept:
			b.WriteString(" accept")
		case facts.BranchReject:
			b.WriteString(" reject")
		}
		if t.Equal {
			b.WriteString(" equal")
		}
		out = append(out, b.String())
	}
	return out
}

func fmtValue(v any) string {
	switch v := v.(type) {
	case facts.Unknown:
		return "?"
	case string:
		return fmt.Sprintf("%q", v)
	case []any:
		var parts []string
		for _, e := range v {
			parts = append(parts, fmtValue(e))
		}
		return "[" + strings.Join(parts, " ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, k+":"+fmtValue(v[k]))
		}
		return "{" + strings.Join(parts, " ") + "}"
	case nil:
		return "nil"
	}
	return fmt.Sprintf("%T(%v)", v, v)
}

// checkInvariants checks what must hold for any input: positions inside the
// source with the literal's text between Pos and End, indices in range,
// members in source order and pointing back at their group; and the
// invariants of checkFunctions.
func checkInvariants(t testing.TB, src []byte, ff *facts.File) {
	t.Helper()
	for i, s := range ff.Strings {
		if s.Pos.Offset < 0 || s.Pos.Offset >= s.End.Offset || s.End.Offset > len(src) {
			t.Fatalf("string %d: bad span %+v..%+v (len %d)", i, s.Pos, s.End, len(src))
		}
		if q := src[s.Pos.Offset]; q != '"' && q != '`' {
			t.Fatalf("string %d at %+v does not start with a quote: %q", i, s.Pos, src[s.Pos.Offset:s.End.Offset])
		}
		if s.Pos.Line < 1 || s.Pos.Col < 1 || s.End.Line < s.Pos.Line {
			t.Fatalf("string %d: bad line/col %+v..%+v", i, s.Pos, s.End)
		}
		if i > 0 && ff.Strings[i-1].Pos.Offset > s.Pos.Offset {
			t.Fatalf("strings %d and %d out of order", i-1, i)
		}
		if s.Mapping < -1 || s.Mapping >= len(ff.Mappings) || s.Group < -1 || s.Group >= len(ff.Groups) {
			t.Fatalf("string %d: bad indices m=%d g=%d", i, s.Mapping, s.Group)
		}
		if (s.Role == facts.RoleMember || s.Role == facts.RoleCase) != (s.Group >= 0) {
			t.Fatalf("string %d: role %s with group %d", i, s.Role, s.Group)
		}
		if s.Role == facts.RoleKey && s.Mapping < 0 {
			t.Fatalf("string %d: key without mapping", i)
		}
	}
	for gi, g := range ff.Groups {
		if len(g.Members) == 0 {
			t.Fatalf("group %d is empty", gi)
		}
		for k, m := range g.Members {
			if m < 0 || m >= len(ff.Strings) || ff.Strings[m].Group != gi {
				t.Fatalf("group %d member %d = %d does not point back", gi, k, m)
			}
			if k > 0 && g.Members[k-1] >= m {
				t.Fatalf("group %d members out of order: %v", gi, g.Members)
			}
		}
		if gi > 0 && ff.Groups[gi-1].Pos.Offset > g.Pos.Offset {
			t.Fatalf("groups %d and %d out of order", gi-1, gi)
		}
	}
	for mi, m := range ff.Mappings {
		for _, e := range m.Entries {
			if e.KeyPos.Offset > len(src) || e.ValPos.Offset > len(src) {
				t.Fatalf("mapping %d: entry %q out of range", mi, e.Key)
			}
		}
		if mi > 0 && ff.Mappings[mi-1].Pos.Offset > m.Pos.Offset {
			t.Fatalf("mappings %d and %d out of order", mi-1, mi)
		}
	}
	for i, tt := range ff.Tests {
		if tt.Collection == "" || tt.Key == "" || tt.Pos.Line < 1 || tt.Pos.Offset > len(src) {
			t.Fatalf("test %d: %+v", i, tt)
		}
		if i > 0 && ff.Tests[i-1].Pos.Offset > tt.Pos.Offset {
			t.Fatalf("tests %d and %d out of order", i-1, i)
		}
	}
	for mi, m := range ff.Mappings {
		if m.Scope != "" && m.Name == "" {
			t.Fatalf("mapping %d: scope without name", mi)
		}
	}
	checkFunctions(t, src, ff)
}
