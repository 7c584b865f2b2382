package pipeline_test

import (
	"context"
	"io"
	"testing"

	"github.com/protoscan-dev/protoscan/msgcheck"
	"github.com/protoscan-dev/protoscan/msgcheck/pipeline"
	"github.com/protoscan-dev/protoscan/msgcheck/pipeline/semantic"
)

// nexusHandoff is a valid NEXUS_HANDOFF_V2 (seed 002) with artifacts the
// fixture repository has.
func nexusHandoff() map[string]any {
	return map[string]any{
		"step":                 "2/5",
		"agent":                "Builder",
		"status":               "SUCCESS",
		"confidence":           0.85,
		"confidence_breakdown": map[string]any{"task_completion": 0.9, "output_quality": 0.8, "next_step_clarity": 0.85},
		"summary":              "Built the parser in internal/queue/api.go and its tests.",
		"next_agent":           "Radar",
		"next_action":          "CONTINUE",
		"artifacts":            []any{"internal/queue/api.go"},
	}
}

// BenchmarkPipeline runs one message through all four stages with the
// built-in semantic validators, the clock read around every stage, and
// both events built: dropped (events=none) or written as JSON Lines to
// io.Discard (events=jsonl). The target is under 5 µs/op. The payload-only
// runs are msgcheck's Validate alone, measured in the same run, so the
// pipeline's own cost can be told apart on a busy machine.
func BenchmarkPipeline(b *testing.B) {
	type bench struct {
		name string
		spec *msgcheck.Spec
		in   pipeline.Input
	}
	benches := []bench{
		{"delegate", msgcheck.DefaultSpec(), pipeline.Input{Kind: "delegate", From: "start", Message: delegate()}},
		{"handback", msgcheck.DefaultSpec(), pipeline.Input{Kind: "handback", From: "delegate", Message: handback()}},
	}
	if nexus, err := msgcheck.EmbeddedSpec("nexus-handoff-v2.yaml"); err == nil {
		benches = append(benches, bench{"nexus_handoff_v2", nexus, pipeline.Input{Kind: "nexus_handoff_v2", Message: nexusHandoff()}})
	} else {
		b.Logf("no NEXUS_HANDOFF_V2 spec embedded (%v): DELEGATE and HANDBACK only", err)
	}
	snap := snapshot(b)
	for _, m := range benches {
		v, err := msgcheck.New(msgcheck.Options{Root: repo}, m.spec)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(m.name+"/payload-only", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if res := v.Validate(m.in.Kind, m.in.Message); !res.Valid {
					b.Fatal(res.Errors)
				}
			}
		})
		for _, s := range []struct {
			name string
			sink pipeline.Sink
		}{{"events=none", nil}, {"events=jsonl", pipeline.NewJSONL(io.Discard)}} {
			p, err := pipeline.New(pipeline.Options{Validator: v, Semantic: semantic.Builtin(snap), Sink: s.sink})
			if err != nil {
				b.Fatal(err)
			}
			b.Run(m.name+"/"+s.name, func(b *testing.B) {
				ctx := context.Background()
				b.ReportAllocs()
				for b.Loop() {
					if d := p.Run(ctx, m.in); d.Outcome != pipeline.Passed {
						b.Fatal(summary(d))
					}
				}
			})
		}
	}
}
