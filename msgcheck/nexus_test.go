package msgcheck

import (
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"cel.dev/cel-go/cel"
)

// The nexus_handoff_v2 kind of the embedded nexus-handoff-v2.yaml: every
// field rule and every consistency rule, each with a passing and a failing
// message and the exact text of the finding.

func nexusValidator(t testing.TB) (*Spec, *Validator) {
	t.Helper()
	s, err := EmbeddedSpec("nexus-handoff-v2.yaml")
	if err != nil {
		t.Fatal(err)
	}
	v, err := New(Options{}, s)
	if err != nil {
		t.Fatal(err)
	}
	return s, v
}

func nexusBase() map[string]any {
	return map[string]any{
		"step":       "2/5",
		"agent":      "Builder",
		"status":     "SUCCESS",
		"confidence": 0.85,
		"confidence_breakdown": map[string]any{
			"task_completion": 0.9, "output_quality": 0.8, "next_step_clarity": 0.85,
		},
		"summary":     "Built the parser and its tests.",
		"next_agent":  "Radar",
		"next_action": "CONTINUE",
	}
}

// with returns the base handoff with fields set (nil deletes one).
func with(fields map[string]any) map[string]any {
	m := nexusBase()
	for k, v := range fields {
		if v == nil {
			delete(m, k)
			continue
		}
		m[k] = v
	}
	return m
}

func breakdown(tc, oq, nsc any) map[string]any {
	return map[string]any{"task_completion": tc, "output_quality": oq, "next_step_clarity": nsc}
}

func TestNexusHandoffRules(t *testing.T) {
	_, v := nexusValidator(t)
	const k = "msgcheck/nexus_handoff_v2-"
	tests := []struct {
		name   string
		pass   map[string]any // a message the rule accepts
		fail   map[string]any // one it rejects
		rule   string
		errMsg string
	}{
		{"step required", with(nil), with(map[string]any{"step": nil}),
			k + "step-required", "step: required field is missing"},
		{"step X/Y format", with(map[string]any{"step": "12/12"}), with(map[string]any{"step": "step 2 of 5"}),
			k + "step-format", `step: must be "X/Y" format (got 'step 2 of 5')`},
		{"step X <= Y", with(map[string]any{"step": "5/5"}), with(map[string]any{"step": "6/5"}),
			k + "step-order", "step: X must not exceed Y in X/Y"},
		{"agent valid", with(map[string]any{"agent": "Sentinel"}), with(map[string]any{"agent": "Bob"}),
			k + "agent-enum", "agent: invalid agent 'Bob' (must be one of [Nexus, Architect, Builder, Compass, Darwin, Judge, Lore, Radar, Scout, Sentinel])"},
		{"status enum", with(map[string]any{"status": "PARTIAL", "confidence": 0.6, "confidence_breakdown": breakdown(0.6, 0.6, 0.6)}), with(map[string]any{"status": "DONE"}),
			k + "status-enum", "status: invalid status 'DONE' (must be one of [SUCCESS, PARTIAL, BLOCKED, FAILED])"},
		{"confidence range", with(map[string]any{"confidence": int64(1), "confidence_breakdown": breakdown(int64(1), int64(1), int64(1))}), with(map[string]any{"confidence": 1.04, "confidence_breakdown": breakdown(1.0, 1.0, 1.0)}),
			k + "confidence-range", "confidence: must be 0.0-1.0 (got 1.04)"},
		{"breakdown present", with(nil), with(map[string]any{"confidence_breakdown": nil}),
			k + "confidence-breakdown-required", "confidence_breakdown: required field is missing"},
		{"breakdown all three axes", with(nil), with(map[string]any{"confidence_breakdown": map[string]any{"task_completion": 0.9, "output_quality": 0.8}}),
			k + "confidence-breakdown-next-step-clarity-required", "confidence_breakdown.next_step_clarity: required field is missing"},
		{"breakdown axis range", with(nil), with(map[string]any{"status": "PARTIAL", "confidence": 0.65, "confidence_breakdown": breakdown(1.0, -0.01, 1.0)}),
			k + "confidence-breakdown-output-quality-range", "confidence_breakdown.output_quality: must be 0.0-1.0 (got -0.01)"},
		{"summary non-empty", with(map[string]any{"summary": "Done."}), with(map[string]any{"summary": "   "}),
			k + "summary-words", "summary: must be a non-empty string (got '   ')"},
		{"next_agent valid or DONE", with(map[string]any{"next_agent": "DONE"}), with(map[string]any{"next_agent": "Nobody"}),
			k + "next-agent-any-of", "next_agent: must be a valid agent name or DONE (got 'Nobody')"},
		{"next_action enum", with(map[string]any{"next_action": "MERGE"}), with(map[string]any{"next_action": "GO"}),
			k + "next-action-enum", "next_action: invalid next_action 'GO' (must be one of [CONTINUE, MERGE, VERIFY, ESCALATE, ABORT])"},
		{"SUCCESS implies confidence >= 0.70",
			with(map[string]any{"confidence": 0.70, "confidence_breakdown": breakdown(0.7, 0.7, 0.7)}),
			with(map[string]any{"confidence": 0.69, "confidence_breakdown": breakdown(0.7, 0.7, 0.65)}),
			k + "success-confidence", "confidence: inconsistent with status SUCCESS (SUCCESS needs confidence >= 0.70)"},
		{"FAILED implies ESCALATE or ABORT",
			with(map[string]any{"status": "FAILED", "next_action": "ABORT", "confidence": 0.2, "confidence_breakdown": breakdown(0.2, 0.2, 0.2)}),
			with(map[string]any{"status": "FAILED", "next_action": "CONTINUE", "confidence": 0.2, "confidence_breakdown": breakdown(0.2, 0.2, 0.2)}),
			k + "failed-next-action", "next_action: status FAILED needs next_action ESCALATE or ABORT"},
		{"BLOCKED implies pending_confirmations",
			with(map[string]any{"status": "BLOCKED", "confidence": 0.4, "confidence_breakdown": breakdown(0.4, 0.4, 0.4),
				"pending_confirmations": []any{map[string]any{"question": "Which database?"}}}),
			with(map[string]any{"status": "BLOCKED", "confidence": 0.4, "confidence_breakdown": breakdown(0.4, 0.4, 0.4), "pending_confirmations": []any{}}),
			k + "blocked-confirmations", "pending_confirmations: status BLOCKED needs pending_confirmations (the questions for the user)"},
		{"weighted breakdown within 0.05 (upper edge)",
			// 0.40*1 + 0.35*0.8 + 0.25*0.6 = 0.83; 0.88 is 0.05 above
			with(map[string]any{"confidence": 0.88, "confidence_breakdown": breakdown(1.0, 0.8, 0.6)}),
			with(map[string]any{"confidence": 0.89, "confidence_breakdown": breakdown(1.0, 0.8, 0.6)}),
			k + "breakdown-average", "confidence_breakdown: weighted average (0.40 task_completion + 0.35 output_quality + 0.25 next_step_clarity) must be within 0.05 of confidence"},
		{"weighted breakdown within 0.05 (lower edge)",
			with(map[string]any{"confidence": 0.78, "confidence_breakdown": breakdown(1.0, 0.8, 0.6)}),
			with(map[string]any{"confidence": 0.77, "confidence_breakdown": breakdown(1.0, 0.8, 0.6)}),
			k + "breakdown-average", "confidence_breakdown: weighted average (0.40 task_completion + 0.35 output_quality + 0.25 next_step_clarity) must be within 0.05 of confidence"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if res := v.Validate("nexus_handoff_v2", tc.pass); !res.Valid || len(res.Warnings) > 0 {
				t.Errorf("passing case: errors %v, warnings %v", res.Errors, res.Warnings)
			}
			res := v.Validate("nexus_handoff_v2", tc.fail)
			if res.Valid || len(res.Errors) != 1 {
				t.Fatalf("failing case: want exactly one error, got %v", res.Errors)
			}
			if got := res.Errors[0]; got.Rule != tc.rule || got.Message != tc.errMsg {
				t.Errorf("failing case:\ngot  %s: %s\nwant %s: %s", got.Rule, got.Message, tc.rule, tc.errMsg)
			}
		})
	}
}

// A high confidence never repairs a missing field.
func TestNexusHighConfidenceMissingField(t *testing.T) {
	_, v := nexusValidator(t)
	m := with(map[string]any{"summary": nil, "confidence": 0.99, "confidence_breakdown": breakdown(1.0, 1.0, 0.97)})
	res := v.Validate("", m) // the kind told by its signature
	if res.Kind != "nexus_handoff_v2" || res.Valid || len(res.Errors) != 1 || res.Errors[0].Message != "summary: required field is missing" {
		t.Errorf("got kind %q, valid %v, errors %v", res.Kind, res.Valid, res.Errors)
	}
}

// Extension fields are loose and unknown fields warn, as for every kind.
func TestNexusExtensionsAndUnknown(t *testing.T) {
	_, v := nexusValidator(t)
	res := v.Validate("nexus_handoff_v2", with(map[string]any{"artifacts": "a.go", "mood": "good"}))
	var got []string
	for _, f := range res.Warnings {
		got = append(got, f.Message)
	}
	want := []string{"artifacts: must be an array (got string)", "Unknown field 'mood' in NEXUS_HANDOFF_V2 (will be ignored)"}
	if !res.Valid || !slices.Equal(got, want) {
		t.Errorf("valid %v, warnings %q; want %q", res.Valid, got, want)
	}
}

func TestSpecExtensionAndRules(t *testing.T) {
	s, _ := nexusValidator(t)
	raw, ok := s.Extension("nexus_handoff_v2", "x-nexus-handoff")
	pol, isMap := raw.(map[string]any)
	if !ok || !isMap {
		t.Fatalf("Extension = %v, %v", raw, ok)
	}
	if got := slices.Sorted(maps.Keys(pol)); !slices.Equal(got, []string{"auto_correct", "inferred_confidence", "routing", "weights"}) {
		t.Errorf("policy keys %v", got)
	}
	if _, ok := s.Extension("nexus_handoff_v2", "x-nope"); ok {
		t.Error("an absent annotation was found")
	}
	if _, ok := s.Extension("nope", "x-nexus-handoff"); ok {
		t.Error("an annotation of an unknown kind was found")
	}
	var ids []string
	for _, r := range s.Rules("nexus_handoff_v2") {
		ids = append(ids, strings.TrimPrefix(r.ID, "msgcheck/nexus_handoff_v2-")+"@"+r.FieldPath)
	}
	want := []string{"step-order@step", "success-confidence@confidence", "failed-next-action@next_action",
		"blocked-confirmations@pending_confirmations", "breakdown-average@confidence_breakdown"}
	if !slices.Equal(ids, want) {
		t.Errorf("Rules = %v, want %v", ids, want)
	}
	if DefaultSpec().Rules("nope") != nil {
		t.Error("Rules of an unknown kind")
	}
}

// The weights of the policy block are the weights of the CEL rule: a
// handoff whose confidence is the policy's weighted average passes, one
// 0.06 off fails, for several breakdowns.
func TestNexusWeightsAgree(t *testing.T) {
	s, v := nexusValidator(t)
	raw, _ := s.Extension("nexus_handoff_v2", "x-nexus-handoff")
	w := raw.(map[string]any)["weights"].(map[string]any)
	for _, b := range [][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.9, 0.5, 0.2}, {0.3, 0.9, 0.6}} {
		avg := w["task_completion"].(float64)*b[0] + w["output_quality"].(float64)*b[1] + w["next_step_clarity"].(float64)*b[2]
		for _, off := range []float64{0, 0.06, -0.06} {
			c := avg + off
			if c < 0 || c > 1 {
				continue
			}
			m := with(map[string]any{"status": "PARTIAL", "confidence": c, "confidence_breakdown": breakdown(b[0], b[1], b[2])})
			if res := v.Validate("nexus_handoff_v2", m); res.Valid != (off == 0) {
				t.Errorf("breakdown %v, confidence %.3f (avg %+.2f): valid %v, errors %v", b, c, off, res.Valid, res.Errors)
			}
		}
	}
}

// errorMessage on a schema with anyOf/oneOf replaces the generic
// "must match one of the alternatives".
func TestAlternativesErrorMessage(t *testing.T) {
	s, err := ParseSpec("alt.yaml", []byte(`version: "1"
thing:
  core_fields:
    a:
      oneOf: [{type: integer}, {const: none}]
      errorMessage: "must be a count or none"
    b:
      oneOf: [{type: integer}, {const: none}]
`))
	if err != nil {
		t.Fatal(err)
	}
	v, _ := New(Options{}, s)
	res := v.Validate("thing", map[string]any{"a": "x", "b": "x"})
	var got []string
	for _, f := range res.Errors {
		got = append(got, f.Rule+" "+f.Message)
	}
	want := []string{"msgcheck/thing-a-one-of a: must be a count or none (got 'x')", "msgcheck/thing-b-const b: must be 'none'"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// The embedded specs compile their CEL rules on first use (see celRule):
// every one of them must compile, as ParseSpec would require of a file.
func TestEmbeddedSpecsCompile(t *testing.T) {
	entries, err := embedded.ReadDir("specs")
	if err != nil || len(entries) == 0 {
		t.Fatalf("embedded specs: %v", err)
	}
	for _, e := range entries {
		data, err := embedded.ReadFile("specs/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseSpec(e.Name(), data); err != nil {
			t.Errorf("%s: %v", e.Name(), err)
		}
		lazy, err := EmbeddedSpec(e.Name())
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		for _, k := range lazy.kinds {
			for _, r := range k.rules {
				if _, err := r.program(); err != nil {
					t.Errorf("%s: %v", e.Name(), err)
				}
			}
		}
	}
}

// A lazy rule that turns out not to compile is a warning on the message,
// never a panic or a silent pass.
func TestLazyRuleThatDoesNotCompile(t *testing.T) {
	src := "version: \"1\"\nmsg:\n  signature: [v]\n  core_fields:\n    v: {}\n  x-protoscan-validations:\n    - rule: \"self.v ===\"\n"
	if _, err := ParseSpec("bad.yaml", []byte(src)); err == nil {
		t.Fatal("ParseSpec accepted a rule that does not compile")
	}
	s, err := parseSpec("bad.yaml", []byte(src), true)
	if err != nil {
		t.Fatal(err)
	}
	v, err := New(Options{}, s)
	if err != nil {
		t.Fatal(err)
	}
	res := v.Validate("msg", map[string]any{"v": int64(1)})
	if !res.Valid || len(res.Warnings) != 1 || !strings.HasPrefix(res.Warnings[0].Message, `CEL rule "self.v ===" does not compile: `) {
		t.Errorf("valid=%v errors=%v warnings=%v", res.Valid, res.Errors, res.Warnings)
	}
}

// Workers of a scan reach a lazy rule at the same time: it is compiled
// once and every one of them evaluates it (run with -race).
func TestLazyRuleConcurrentFirstUse(t *testing.T) {
	src := "version: \"1\"\nmsg:\n  signature: [v]\n  core_fields:\n    v: {}\n  x-protoscan-validations:\n    - rule: \"self.v > 1\"\n      message: too small\n"
	s, err := parseSpec("lazy.yaml", []byte(src), true)
	if err != nil {
		t.Fatal(err)
	}
	v, err := New(Options{}, s)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			res := v.Validate("msg", map[string]any{"v": int64(i % 3)})
			if res.Valid != (i%3 > 1) {
				t.Errorf("v=%d: valid=%v errors=%v", i%3, res.Valid, res.Errors)
			}
		})
	}
	wg.Wait()
}

// BenchmarkNexusRules evaluates each CEL rule of the NEXUS spec alone on
// a valid handoff, under cost tracking and untracked (see
// kind.untracked): most of what the handoff's payload stage costs.
func BenchmarkNexusRules(b *testing.B) {
	s, _ := nexusValidator(b)
	act := selfActivation{nexusBase()}
	for _, r := range s.kind("nexus_handoff_v2").rules {
		c, err := r.compiled()
		if err != nil {
			b.Fatal(err)
		}
		if c.untracked == nil {
			b.Fatalf("%s has no untracked program", r.rule)
		}
		for _, p := range []struct {
			name string
			prg  cel.Program
		}{{"tracked", c.prg}, {"untracked", c.untracked}} {
			b.Run(strings.TrimPrefix(r.rule, "msgcheck/nexus_handoff_v2-")+"/"+p.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if out, _, err := p.prg.Eval(act); err != nil || out.Value() != true {
						b.Fatal(out, err)
					}
				}
			})
		}
	}
}
