package divergence

import (
	"strings"
	"testing"
)

// FuzzBands: a document's bands are read from any bytes without a panic,
// deterministically, and every band is a threshold at a place inside the
// document.
func FuzzBands(f *testing.F) {
	for _, s := range []string{
		"| Quality score | Action |\n|---|---|\n| < 60 | Escalate to a senior engineer |\n| 60-79 | Review |\n| 80+ | Accept |\n",
		"escalation:\n  quality_score:\n    \"<60\": Escalate to human review\n    \">=60\": Accept\n",
		"```yaml\nescalate_below: 60\n```\n",
		"| Quality | Grade |\n|---|---|\n| 90-100 | A |\n",
		"| < | |\n|-|\n| ≤ 1e308% | escalate |\n",
	} {
		f.Add("docs/policy.md", []byte(s))
		f.Add("docs/policy.yaml", []byte(s))
	}
	f.Fuzz(func(t *testing.T, name string, src []byte) {
		if !strings.HasSuffix(name, ".md") && !strings.HasSuffix(name, ".yaml") {
			name += ".md"
		}
		a, b := Bands(name, src), Bands(name, src)
		if len(a) != len(b) {
			t.Fatalf("not deterministic: %d then %d bands", len(a), len(b))
		}
		lines := strings.Count(string(src), "\n") + 1
		for _, c := range a {
			if !c.Doc || c.Concept != Escalation {
				t.Fatalf("band candidate %+v is no document's escalation", c)
			}
			for _, k := range c.Fn.Consts {
				if k.Pos.Line < 1 || k.Pos.Line > lines {
					t.Fatalf("threshold at line %d of a %d-line document", k.Pos.Line, lines)
				}
			}
		}
	})
}
