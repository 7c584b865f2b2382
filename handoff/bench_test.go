package handoff

import (
	"testing"
)

// BenchmarkEvaluate evaluates a decoded handoff: validation with the CEL
// rules compiled at spec load, the checks and the routing decision.
func BenchmarkEvaluate(b *testing.B) {
	e := evaluator(b)
	for _, bc := range []struct {
		name string
		msg  map[string]any
	}{
		{"pass", base()},
		{"v1-migrated", set(map[string]any{"status": "PARTIAL", "confidence": nil, "confidence_breakdown": nil})},
		{"auto-corrected", set(map[string]any{"confidence": 0.80, "confidence_breakdown": bd(0.75, 0.7, 0.8)})},
		{"fail", set(map[string]any{"summary": nil, "confidence": 0.99, "confidence_breakdown": bd(1, 1, 0.97)})},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				e.EvaluateValue(bc.msg)
			}
		})
	}
}

// BenchmarkReadEvaluate is a handoff from its YAML bytes to its event, as
// the CLI does it.
func BenchmarkReadEvaluate(b *testing.B) {
	e := evaluator(b)
	src := []byte("NEXUS_HANDOFF_V2:\n" + indent(v2Body, "  "))
	b.ReportAllocs()
	for b.Loop() {
		hs, err := Read("h.yaml", src)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := e.Evaluate(hs[0]); err != nil {
			b.Fatal(err)
		}
	}
}
