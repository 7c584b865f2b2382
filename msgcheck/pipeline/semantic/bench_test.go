package semantic_test

import (
	"context"
	"testing"

	"github.com/protoscan/protoscan/msgcheck"
	"github.com/protoscan/protoscan/msgcheck/pipeline"
	"github.com/protoscan/protoscan/msgcheck/pipeline/semantic"
)

// BenchmarkBuiltin runs each built-in validator, and all three in turn, on
// a clean NEXUS handoff: the semantic stage of msgcheck/pipeline's
// BenchmarkPipeline, validator by validator.
func BenchmarkBuiltin(b *testing.B) {
	snap, err := semantic.FromFS(repoFS, semantic.SnapshotOptions{Root: "/repo"})
	if err != nil {
		b.Fatal(err)
	}
	a := &pipeline.Artifact{Kind: "nexus_handoff_v2", Spec: msgcheck.DefaultSpec(), Message: map[string]any{
		"step":                 "2/5",
		"agent":                "Builder",
		"status":               "SUCCESS",
		"confidence":           0.85,
		"confidence_breakdown": map[string]any{"task_completion": 0.9, "output_quality": 0.8, "next_step_clarity": 0.85},
		"summary":              "Built the parser in internal/queue/api.go and its tests.",
		"next_agent":           "Radar",
		"next_action":          "CONTINUE",
		"artifacts":            []any{"internal/queue/api.go"},
	}}
	all := semantic.Builtin(snap)
	ctx := context.Background()
	for _, v := range all {
		b.Run(v.Name(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if rs, err := v.Validate(ctx, a); len(rs) > 0 || err != nil {
					b.Fatal(rs, err)
				}
			}
		})
	}
	b.Run("all", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, v := range all {
				if rs, err := v.Validate(ctx, a); len(rs) > 0 || err != nil {
					b.Fatal(rs, err)
				}
			}
		}
	})
}
