package msgcheck

import (
	"strings"
	"testing"
)

// TestKindField checks the lookup by name length against the kind's map,
// for every field of every embedded spec and for names that are not
// fields (prefixes, other cases, longer than any field).
func TestKindField(t *testing.T) {
	for _, name := range []string{DefaultSpecName, "nexus-handoff-v2.yaml", "phase-verdict-v1.yaml"} {
		s, err := EmbeddedSpec(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range s.kinds {
			probes := []string{"", "x", strings.Repeat("y", 200)}
			for fname, f := range k.fields {
				if got := k.field(fname); got != f {
					t.Errorf("%s %s: field(%q) = %v", name, k.name, fname, got)
				}
				probes = append(probes, fname[:len(fname)-1], strings.ToUpper(fname), fname+"_", "_"+fname[1:])
			}
			for _, p := range probes {
				if got, want := k.field(p), k.fields[p]; got != want {
					t.Errorf("%s %s: field(%q) = %v, the map has %v", name, k.name, p, got, want)
				}
			}
		}
	}
}
