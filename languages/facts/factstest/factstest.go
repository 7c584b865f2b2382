// Package factstest prints facts compactly, one per line, for the table
// tests of the extractors that share a rendering (Python, TypeScript).
package factstest

import (
	"fmt"
	"sort"
	"strings"

	"github.com/protoscan-dev/protoscan/languages/facts"
)

// Render prints facts compactly, one per line, for table tests.
func Render(f *facts.File) string {
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
			fmt.Fprintf(&b, " %s@%d:%d=%s@%d:%d", e.Key, e.KeyPos.Line, e.KeyPos.Col, RenderValue(e.Value), e.ValPos.Line, e.ValPos.Col)
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
			fmt.Fprintf(&b, " %s", BranchName(t.Branch))
		}
		fmt.Fprintf(&b, " @%d:%d\n", t.Pos.Line, t.Pos.Col)
	}
	return b.String()
}

// RenderValue prints a mapping entry's value: "?" for a computed one.
func RenderValue(v any) string {
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
			parts[i] = RenderValue(e)
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
			parts[i] = k + ":" + RenderValue(v[k])
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	return fmt.Sprintf("!%T", v)
}

// checkInvariants verifies what every result must satisfy, whatever the

// BranchName names a Test's branch as the renderings write it.
func BranchName(b facts.Branch) string {
	switch b {
	case facts.BranchReject:
		return "reject"
	case facts.BranchAccept:
		return "accept"
	}
	return "unknown"
}
