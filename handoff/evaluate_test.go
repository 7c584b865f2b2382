package handoff

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/msgcheck"
)

func evaluator(t testing.TB) *Evaluator {
	t.Helper()
	s, err := DefaultSpec()
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func base() map[string]any {
	return map[string]any{
		"step":                 "2/5",
		"agent":                "Builder",
		"status":               "SUCCESS",
		"confidence":           0.85,
		"confidence_breakdown": bd(0.9, 0.8, 0.85),
		"summary":              "Built the parser and its tests.",
		"next_agent":           "Radar",
		"next_action":          "CONTINUE",
	}
}

func bd(tc, oq, nsc float64) map[string]any {
	return map[string]any{"task_completion": tc, "output_quality": oq, "next_step_clarity": nsc}
}

// set returns the base handoff with fields set (nil deletes one).
func set(fields map[string]any) map[string]any {
	m := base()
	for k, v := range fields {
		if v == nil {
			delete(m, k)
			continue
		}
		m[k] = v
	}
	return m
}

const pass = "PASS"

// TestEvaluate checks every rule of the event, each with a passing and a
// failing (or warning) handoff, and the exact texts.
func TestEvaluate(t *testing.T) {
	e := evaluator(t)
	tests := []struct {
		name    string
		msg     map[string]any
		result  Result
		checks  Checks
		action  Action
		routing Routing
		reason  string
		notes   []string
		conf    float64 // the confidence routing used; -1 for none
		level   int
	}{
		{name: "pass: auto-route at >= 0.75", msg: base(), result: Pass,
			checks: Checks{pass, pass, pass}, action: Proceed, routing: AutoRoute,
			reason: "confidence 0.85 >= 0.75: auto-route to Radar", conf: 0.85, level: 3},
		{name: "pass: exactly 0.75 auto-routes", msg: set(map[string]any{"confidence": 0.75, "confidence_breakdown": bd(0.75, 0.75, 0.75)}), result: Pass,
			checks: Checks{pass, pass, pass}, action: Proceed, routing: AutoRoute,
			reason: "confidence 0.75 >= 0.75: auto-route to Radar", conf: 0.75, level: 3},
		{name: "pass: 0.74 routes with a logged assumption", msg: set(map[string]any{"confidence": 0.74, "confidence_breakdown": bd(0.74, 0.74, 0.74)}), result: Pass,
			checks: Checks{pass, pass, pass}, action: Proceed, routing: RouteWithAssumption,
			reason: "confidence 0.74 is below 0.75: route to Radar with a logged assumption",
			notes:  []string{"assumption logged: routed to Radar at confidence 0.74 (below 0.75)"}, conf: 0.74, level: 3},
		{name: "pass: 0.50 routes with a logged assumption", msg: set(map[string]any{"status": "PARTIAL", "confidence": 0.5, "confidence_breakdown": bd(0.5, 0.5, 0.5)}), result: Pass,
			checks: Checks{pass, pass, pass}, action: Proceed, routing: RouteWithAssumption,
			reason: "confidence 0.50 is below 0.75: route to Radar with a logged assumption",
			notes:  []string{"assumption logged: routed to Radar at confidence 0.50 (below 0.75)"}, conf: 0.5, level: 3},
		{name: "pass: 0.49 pauses for the user", msg: set(map[string]any{"status": "PARTIAL", "confidence": 0.49, "confidence_breakdown": bd(0.49, 0.49, 0.49)}), result: Pass,
			checks: Checks{pass, pass, pass}, action: Proceed, routing: PauseForUser,
			reason: "confidence 0.49 < 0.50: pause for user input", conf: 0.49, level: 3},
		{name: "pass: BLOCKED pauses whatever the confidence", msg: set(map[string]any{"status": "BLOCKED", "confidence": 0.9, "confidence_breakdown": bd(0.9, 0.9, 0.9),
			"pending_confirmations": []any{map[string]any{"question": "Which database?"}}}), result: Pass,
			checks: Checks{pass, pass, pass}, action: Proceed, routing: PauseForUser,
			reason: "status BLOCKED pauses for the user's answer to pending_confirmations", conf: 0.9, level: 3},
		{name: "pass: a pending confirmation pauses", msg: set(map[string]any{"pending_confirmations": []any{map[string]any{"question": "Ship it?"}}}), result: Pass,
			checks: Checks{pass, pass, pass}, action: Proceed, routing: PauseForUser,
			reason: "pending_confirmations awaits the user", conf: 0.85, level: 3},
		{name: "pass: FAILED escalates", msg: set(map[string]any{"status": "FAILED", "next_action": "ABORT", "confidence": 0.2, "confidence_breakdown": bd(0.2, 0.2, 0.2)}), result: Pass,
			checks: Checks{pass, pass, pass}, action: Proceed, routing: Escalate,
			reason: "status FAILED escalates", conf: 0.2, level: 3},
		{name: "pass: next_action ESCALATE escalates", msg: set(map[string]any{"next_action": "ESCALATE"}), result: Pass,
			checks: Checks{pass, pass, pass}, action: Proceed, routing: Escalate,
			reason: "next_action ESCALATE escalates", conf: 0.85, level: 3},
		{name: "fail: high confidence never repairs a missing field", msg: set(map[string]any{"summary": nil, "confidence": 0.99, "confidence_breakdown": bd(1, 1, 0.97)}), result: Fail,
			checks: Checks{"FAIL: summary: required field is missing", pass, pass}, action: RequestResubmit, routing: PauseForUser,
			reason: "validation failed: not routed until Builder resubmits the handoff",
			notes:  []string{"Handoff missing required field: summary"}, conf: 0.99, level: 3},
		{name: "fail: bad agent", msg: set(map[string]any{"agent": "Bob"}), result: Fail,
			checks: Checks{"FAIL: agent: invalid agent 'Bob' (must be one of [Nexus, Architect, Builder, Compass, Darwin, Judge, Lore, Radar, Scout, Sentinel])", pass, pass},
			action: RequestResubmit, routing: PauseForUser, reason: "validation failed: not routed until Bob resubmits the handoff", conf: 0.85, level: 3},
		{name: "fail: confidence out of range", msg: set(map[string]any{"confidence": 1.04, "confidence_breakdown": bd(1, 1, 1)}), result: Fail,
			checks: Checks{pass, "FAIL: confidence: must be 0.0-1.0 (got 1.04)", pass},
			action: RequestResubmit, routing: PauseForUser, reason: "validation failed: not routed until Builder resubmits the handoff", conf: 1.04, level: 3},
		{name: "fail: SUCCESS below 0.70", msg: set(map[string]any{"confidence": 0.6, "confidence_breakdown": bd(0.6, 0.6, 0.6)}), result: Fail,
			checks: Checks{pass, "FAIL: confidence: inconsistent with status SUCCESS (SUCCESS needs confidence >= 0.70)", pass},
			action: RequestResubmit, routing: PauseForUser, reason: "validation failed: not routed until Builder resubmits the handoff",
			notes: []string{"Confidence score 0.60 inconsistent with status SUCCESS"}, conf: 0.6, level: 3},
		{name: "fail: FAILED without ESCALATE or ABORT", msg: set(map[string]any{"status": "FAILED", "confidence": 0.2, "confidence_breakdown": bd(0.2, 0.2, 0.2)}), result: Fail,
			checks: Checks{pass, pass, "FAIL: next_action: status FAILED needs next_action ESCALATE or ABORT"},
			action: RequestResubmit, routing: PauseForUser, reason: "validation failed: not routed until Builder resubmits the handoff", conf: 0.2, level: 3},
		{name: "fail: BLOCKED without pending_confirmations", msg: set(map[string]any{"status": "BLOCKED", "confidence": 0.4, "confidence_breakdown": bd(0.4, 0.4, 0.4)}), result: Fail,
			checks: Checks{pass, pass, "FAIL: pending_confirmations: status BLOCKED needs pending_confirmations (the questions for the user)"},
			action: RequestResubmit, routing: PauseForUser, reason: "validation failed: not routed until Builder resubmits the handoff", conf: 0.4, level: 3},
		{name: "fail: step X > Y", msg: set(map[string]any{"step": "6/5"}), result: Fail,
			checks: Checks{pass, pass, "FAIL: step: X must not exceed Y in X/Y"},
			action: RequestResubmit, routing: PauseForUser, reason: "validation failed: not routed until Builder resubmits the handoff", conf: 0.85, level: 3},
		{name: "warn: minor discrepancy auto-corrected", msg: set(map[string]any{"confidence": 0.80, "confidence_breakdown": bd(0.75, 0.7, 0.8)}), result: Warn,
			// 0.40*0.75 + 0.35*0.7 + 0.25*0.8 = 0.745
			checks: Checks{pass, pass, "WARN: confidence 0.80 auto-corrected to 0.75, the weighted average of confidence_breakdown (a minor discrepancy of 0.055, at most 0.10)"},
			action: AutoCorrect, routing: AutoRoute, reason: "confidence 0.75 >= 0.75: auto-route to Radar",
			notes: []string{"confidence 0.80 auto-corrected to 0.75, the weighted average of confidence_breakdown (a minor discrepancy of 0.055, at most 0.10)"}, conf: 0.75, level: 3},
		{name: "fail: discrepancy too large to auto-correct", msg: set(map[string]any{"confidence": 0.95, "confidence_breakdown": bd(0.75, 0.7, 0.8)}), result: Fail,
			checks: Checks{pass, pass, "FAIL: confidence_breakdown: weighted average (0.40 task_completion + 0.35 output_quality + 0.25 next_step_clarity) must be within 0.05 of confidence"},
			action: RequestResubmit, routing: PauseForUser, reason: "validation failed: not routed until Builder resubmits the handoff",
			notes: []string{"confidence 0.95 is 0.205 from the weighted breakdown average 0.745: too far to auto-correct (more than 0.10)"}, conf: 0.95, level: 3},
		{name: "fail: correction that would break SUCCESS >= 0.70", msg: set(map[string]any{"confidence": 0.76, "confidence_breakdown": bd(0.67, 0.67, 0.67)}), result: Fail,
			checks: Checks{pass, pass, "FAIL: confidence_breakdown: weighted average (0.40 task_completion + 0.35 output_quality + 0.25 next_step_clarity) must be within 0.05 of confidence"},
			action: RequestResubmit, routing: PauseForUser, reason: "validation failed: not routed until Builder resubmits the handoff",
			notes: []string{"confidence 0.76 corrected to the weighted breakdown average 0.67 would break another rule: not auto-corrected"}, conf: 0.76, level: 3},
		{name: "warn: V1 handoff migrated (level 1)", msg: set(map[string]any{"status": "PARTIAL", "confidence": nil, "confidence_breakdown": nil}), result: Warn,
			checks: Checks{pass, "WARN: V1 handoff from Builder: confidence 0.60 inferred from status PARTIAL and set on every confidence_breakdown axis; Builder should move to NEXUS_HANDOFF_V2", pass},
			action: Proceed, routing: RouteWithAssumption, reason: "confidence 0.60 is below 0.75: route to Radar with a logged assumption",
			notes: []string{"V1 handoff from Builder: confidence 0.60 inferred from status PARTIAL and set on every confidence_breakdown axis; Builder should move to NEXUS_HANDOFF_V2",
				"assumption logged: routed to Radar at confidence 0.60 (below 0.75)"}, conf: 0.6, level: 1},
		{name: "warn: no breakdown (level 2)", msg: set(map[string]any{"confidence": 0.82, "confidence_breakdown": nil}), result: Warn,
			checks: Checks{pass, "WARN: handoff from Builder has no confidence_breakdown (compliance level 2): every axis set to confidence 0.82; Builder should move to NEXUS_HANDOFF_V2 with the full breakdown", pass},
			action: Proceed, routing: AutoRoute, reason: "confidence 0.82 >= 0.75: auto-route to Radar",
			notes: []string{"handoff from Builder has no confidence_breakdown (compliance level 2): every axis set to confidence 0.82; Builder should move to NEXUS_HANDOFF_V2 with the full breakdown"}, conf: 0.82, level: 2},
		{name: "fail: V1 migration never repairs a missing field", msg: set(map[string]any{"confidence": nil, "confidence_breakdown": nil, "next_action": nil}), result: Fail,
			checks: Checks{"FAIL: next_action: required field is missing",
				"WARN: V1 handoff from Builder: confidence 0.80 inferred from status SUCCESS and set on every confidence_breakdown axis; Builder should move to NEXUS_HANDOFF_V2", pass},
			action: RequestResubmit, routing: PauseForUser, reason: "validation failed: not routed until Builder resubmits the handoff",
			notes: []string{"Handoff missing required field: next_action",
				"V1 handoff from Builder: confidence 0.80 inferred from status SUCCESS and set on every confidence_breakdown axis; Builder should move to NEXUS_HANDOFF_V2"}, conf: 0.8, level: 1},
		{name: "fail: V1 with a status to infer nothing from", msg: set(map[string]any{"status": "DONE", "confidence": nil, "confidence_breakdown": nil}), result: Fail,
			checks: Checks{"FAIL: status: invalid status 'DONE' (must be one of [SUCCESS, PARTIAL, BLOCKED, FAILED]); confidence: required field is missing; confidence_breakdown: required field is missing",
				pass, pass},
			action: RequestResubmit, routing: PauseForUser, reason: "validation failed: not routed until Builder resubmits the handoff",
			notes: []string{"Handoff missing required field: confidence", "Handoff missing required field: confidence_breakdown"}, conf: -1, level: 1},
		{name: "warn: unknown field", msg: set(map[string]any{"mood": "good"}), result: Warn,
			checks: Checks{"WARN: Unknown field 'mood' in NEXUS_HANDOFF_V2 (will be ignored)", pass, pass},
			action: Proceed, routing: AutoRoute, reason: "confidence 0.85 >= 0.75: auto-route to Radar",
			notes: []string{"Unknown field 'mood' in NEXUS_HANDOFF_V2 (will be ignored)"}, conf: 0.85, level: 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ev := e.EvaluateValue(tc.msg)
			if ev.ValidationResult != tc.result || ev.ActionTaken != tc.action || ev.Routing != tc.routing || ev.ComplianceLevel != tc.level {
				t.Errorf("got %s/%s/%s level %d, want %s/%s/%s level %d", ev.ValidationResult, ev.ActionTaken, ev.Routing, ev.ComplianceLevel,
					tc.result, tc.action, tc.routing, tc.level)
			}
			if ev.Checks != tc.checks {
				t.Errorf("checks:\ngot  %+v\nwant %+v", ev.Checks, tc.checks)
			}
			if ev.RoutingReason != tc.reason {
				t.Errorf("routing reason:\ngot  %q\nwant %q", ev.RoutingReason, tc.reason)
			}
			if want := tc.notes; !slices.Equal(ev.Notes, append([]string{}, want...)) {
				t.Errorf("notes:\ngot  %q\nwant %q", ev.Notes, want)
			}
			switch {
			case tc.conf < 0 && ev.Confidence != nil:
				t.Errorf("confidence %v, want none", *ev.Confidence)
			case tc.conf >= 0 && (ev.Confidence == nil || *ev.Confidence != tc.conf):
				t.Errorf("confidence %v, want %v", ev.Confidence, tc.conf)
			}
			if ev.HandoffFrom != tc.msg["agent"] || ev.Step != tc.msg["step"] {
				t.Errorf("handoff_from %q step %q", ev.HandoffFrom, ev.Step)
			}
		})
	}
}

// The evaluation never changes the handoff it is given.
func TestEvaluateDoesNotMutate(t *testing.T) {
	e := evaluator(t)
	m := set(map[string]any{"confidence": nil, "confidence_breakdown": nil})
	e.EvaluateValue(m)
	m2 := set(map[string]any{"confidence": 0.80, "confidence_breakdown": bd(0.75, 0.7, 0.8)})
	e.EvaluateValue(m2)
	if _, ok := m["confidence"]; ok || m2["confidence"] != 0.80 {
		t.Errorf("handoff changed: %v, %v", m, m2)
	}
}

func TestEvaluateNotAMapping(t *testing.T) {
	ev := evaluator(t).EvaluateValue([]any{1})
	if ev.ValidationResult != Fail || ev.ComplianceLevel != 0 || ev.Routing != PauseForUser ||
		ev.Checks.RequiredFields != "FAIL: message must be a mapping of fields (got array)" {
		t.Errorf("got %+v", ev)
	}
}

// A repository's spec extends the agents and enums.
func TestDiscoverRepositorySpec(t *testing.T) {
	s, err := Discover("testdata/repo")
	if err != nil {
		t.Fatal(err)
	}
	if s.Version != "2.1" {
		t.Fatalf("discovered version %s", s.Version)
	}
	e, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	m := set(map[string]any{"agent": "Quill", "next_action": "RETRY"})
	if ev := e.EvaluateValue(m); ev.ValidationResult != Pass {
		t.Errorf("repository spec: %s %+v", ev.ValidationResult, ev.Checks)
	}
	if ev := evaluator(t).EvaluateValue(m); ev.ValidationResult != Fail {
		t.Errorf("embedded spec accepts the repository's agent: %+v", ev.Checks)
	}
	if s, err := Discover(t.TempDir()); err != nil || s.Source != "embedded:"+SpecName {
		t.Errorf("no repository spec: %v, %v", s, err)
	}
}

// A repository's handoff spec is read only from inside the repository.
func TestDiscoverRefusesLinkOutOfRoot(t *testing.T) {
	outside, err := filepath.Abs("testdata/repo/docs/specs/nexus-handoff-v2.1.yaml")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "docs", "specs"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "docs", "specs", "nexus-handoff-v2.yaml")
	if err := os.Symlink(outside, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if _, err := Discover(root); err == nil || !strings.HasPrefix(err.Error(), link+": ") {
		t.Errorf("err = %v, want one naming %s", err, link)
	}
}

func TestNewRejects(t *testing.T) {
	if _, err := New(msgcheck.DefaultSpec()); err == nil || !strings.Contains(err.Error(), "spec defines no nexus_handoff_v2 kind (it defines delegate, handback") {
		t.Errorf("protocol-core spec: %v", err)
	}
	src, err := msgcheck.EmbeddedSpecSource(SpecName)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ from, to, want string }{
		{"  x-nexus-handoff:", "  x-other:", "kind nexus_handoff_v2 has no x-nexus-handoff block"},
		{"      task_completion: 0.40", "      task_completion: 0.50", "weights must add up to 1 (they add up to 1.10)"},
		{"      rule: breakdown-average", "      rule: nope", `auto_correct.rule "nope" is not the reason of a rule of nexus_handoff_v2`},
		{"      auto_route: 0.75 ", "      auto_route: 0.45 ", "routing.route_with_assumption (0.50) is above routing.auto_route (0.45)"},
		{"      SUCCESS: 0.80", "      SUCCESS: high", "inferred_confidence.SUCCESS must be a number from 0 to 1 (got high)"},
	} {
		changed := strings.Replace(string(src), tc.from, tc.to, 1)
		if changed == string(src) {
			t.Fatalf("%q not in the spec", tc.from)
		}
		s, err := msgcheck.ParseSpec("bad.yaml", []byte(changed))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := New(s); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.to, err, tc.want)
		}
	}
}

func TestFmtScore(t *testing.T) {
	for in, want := range map[float64]string{0.6: "0.60", 1: "1.00", 0.745: "0.745", 0.05: "0.05"} {
		if got := fmtScore(in); got != want {
			t.Errorf("fmtScore(%v) = %s, want %s", in, got, want)
		}
	}
}
