package semantic_test

import (
	"context"
	"testing"

	"github.com/protoscan-dev/protoscan/msgcheck"
	"github.com/protoscan-dev/protoscan/msgcheck/pipeline"
	"github.com/protoscan-dev/protoscan/msgcheck/pipeline/semantic"
)

// BenchmarkBuiltin runs each built-in check alone, the three in turn, and
// Builtin (the three in one walk) on a clean NEXUS handoff: the semantic
// stage of msgcheck/pipeline's BenchmarkPipeline.
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
	checks := []pipeline.SemanticValidator{semantic.NewPaths(snap), semantic.NewCommands(), semantic.NewClaims()}
	ctx := context.Background()
	run := func(name string, vs []pipeline.SemanticValidator) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, v := range vs {
					if rs, err := v.Validate(ctx, a); len(rs) > 0 || err != nil {
						b.Fatal(rs, err)
					}
				}
			}
		})
	}
	for _, c := range checks {
		run(c.Name(), []pipeline.SemanticValidator{c})
	}
	run("in-turn", checks)
	run("builtin", semantic.Builtin(snap)) // the three in one walk
}
