package phase

import (
	"reflect"
	"testing"
)

func TestParseConditions(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     *Exit
	}{
		{"list form", "- file_exists: src/x.ts\n- command_passes: npx tsc --noEmit\n- manual: PM signs off\n",
			&Exit{Conditions: []Condition{
				{Kind: FileExists, Arg: "src/x.ts", Line: 1, Column: 3},
				{Kind: CommandPasses, Arg: "npx tsc --noEmit", Line: 2, Column: 3},
				{Kind: Manual, Arg: "PM signs off", Line: 3, Column: 3}}}},
		{"metric operators", "- metric_threshold: coverage >= 80%\n- metric_threshold: p95 latency<200ms\n- metric_threshold: bundle_kb <= 250\n- metric_threshold: errors == 0\n- metric_threshold: score > 0.9\n- metric_threshold: flaky != 1\n",
			&Exit{Conditions: []Condition{
				{Kind: MetricThreshold, Arg: "coverage >= 80%", Line: 1, Column: 3, Metric: "coverage", Op: ">=", Value: 80},
				{Kind: MetricThreshold, Arg: "p95 latency<200ms", Line: 2, Column: 3, Metric: "p95 latency", Op: "<", Value: 200},
				{Kind: MetricThreshold, Arg: "bundle_kb <= 250", Line: 3, Column: 3, Metric: "bundle_kb", Op: "<=", Value: 250},
				{Kind: MetricThreshold, Arg: "errors == 0", Line: 4, Column: 3, Metric: "errors", Op: "==", Value: 0},
				{Kind: MetricThreshold, Arg: "score > 0.9", Line: 5, Column: 3, Metric: "score", Op: ">", Value: 0.9},
				{Kind: MetricThreshold, Arg: "flaky != 1", Line: 6, Column: 3, Metric: "flaky", Op: "!=", Value: 1}}}},
		{"quoted whole", "- \"manual: ask: the PM\"\n- 'visual_verify: /auth'\n",
			&Exit{Conditions: []Condition{
				{Kind: Manual, Arg: "ask: the PM", Line: 1, Column: 3},
				{Kind: VisualVerify, Arg: "/auth", Line: 2, Column: 3}}}},
		{"kind case and url", "- Visual_Verify: http://localhost:3000/auth\n",
			&Exit{Conditions: []Condition{{Kind: VisualVerify, Arg: "http://localhost:3000/auth", Line: 1, Column: 3}}}},
		{"header form", "Campaign: auth-rewrite\nPhase: 3 — Auth handler\nExit conditions:\n- file_exists: src/auth/handler.ts\n",
			&Exit{Campaign: "auth-rewrite", Phase: 3, HasPhase: true, Conditions: []Condition{
				{Kind: FileExists, Arg: "src/auth/handler.ts", Line: 4, Column: 3}}}},
		{"header keys spelled otherwise", "exit_conditions:\n  - manual: x\nphase: 0\n",
			&Exit{Phase: 0, HasPhase: true, Conditions: []Condition{{Kind: Manual, Arg: "x", Line: 2, Column: 5}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseConditions("c.yaml", []byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestParseConditionsErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", "c.yaml: no exit conditions in it"},
		{"comment only", "# nothing\n", "c.yaml: no exit conditions in it"},
		{"empty list", "[]\n", "c.yaml: no exit conditions in it"},
		{"scalar", "file_exists src/x.ts\n", "c.yaml:1:1: want a list of exit conditions (- file_exists: PATH, one a line)"},
		{"unknown kind", "- file_exist: src/x.ts\n", `c.yaml:1:3: unknown condition kind "file_exist" (want file_exists, command_passes, metric_threshold, visual_verify or manual)`},
		{"no colon", "- file_exists src/x.ts\n", `c.yaml:1:3: want 'kind: argument' (got "file_exists src/x.ts")`},
		{"empty argument", "- file_exists:\n", "c.yaml:1:15: file_exists: empty argument"},
		{"blank argument", "- command_passes: '  '\n", "c.yaml:1:19: command_passes: empty argument"},
		{"two keys", "- file_exists: a\n  manual: b\n", "c.yaml:1:3: want one condition per list item (kind: argument), got 2 keys"},
		{"list argument", "- file_exists: [a, b]\n", "c.yaml:1:16: file_exists: the argument must be one line of text"},
		{"multiline argument", "- manual: |\n    one\n    two\n", "c.yaml:1:11: manual: the argument must be one line of text"},
		{"nested list", "- - file_exists: a\n", "c.yaml:1:3: want 'kind: argument' (file_exists, command_passes, metric_threshold, visual_verify or manual)"},
		{"bad metric", "- metric_threshold: coverage is high\n", `c.yaml:1:21: metric_threshold: want 'METRIC OP VALUE' with OP one of >=, <=, ==, !=, >, < and VALUE a number (got "coverage is high")`},
		{"metric without name", "- metric_threshold: '>= 80'\n", `c.yaml:1:21: metric_threshold: want 'METRIC OP VALUE' with OP one of >=, <=, ==, !=, >, < and VALUE a number (got ">= 80")`},
		{"metric single =", "- metric_threshold: coverage = 80\n", `c.yaml:1:21: metric_threshold: want 'METRIC OP VALUE' with OP one of >=, <=, ==, !=, >, < and VALUE a number (got "coverage = 80")`},
		{"unquoted colon", "- manual: ask: the PM\n", "c.yaml: mapping values are not allowed in this context (a condition holding ': ' must be quoted whole: - \"manual: ask: the PM\")"},
		{"two documents", "- manual: a\n---\n- manual: b\n", "c.yaml:3:1: more than one YAML document; give one list of exit conditions"},
		{"unknown header key", "Campaign: x\nOwner: me\nExit conditions:\n- manual: a\n", `c.yaml:2:1: unknown key "Owner" (want Campaign, Phase and Exit conditions)`},
		{"bad campaign", "Campaign: Auth Rewrite\nExit conditions:\n- manual: a\n", `c.yaml:1:11: campaign: must be a slug: lowercase letters and digits, words joined by '-', '_' or '.' (got "Auth Rewrite")`},
		{"bad phase", "Phase: three\nExit conditions:\n- manual: a\n", `c.yaml:1:8: phase: must start with the phase number (got "three")`},
		{"header without list", "Campaign: x\n", "c.yaml:1:1: no Exit conditions list"},
		{"conditions not a list", "Exit conditions: file_exists\n", "c.yaml:1:18: Exit conditions: must be a list of exit conditions"},
		{"alias", "Campaign: &c x\nPhase: *c\nExit conditions:\n- manual: a\n", "c.yaml:2:8: aliases are not allowed in exit conditions"},
		{"too deep", "- [[[[[[[[[[1]]]]]]]]]]\n", "c.yaml:1:10: nesting deeper than 8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseConditions("c.yaml", []byte(tc.in))
			if err == nil {
				t.Fatalf("got %+v, want error %q", got, tc.want)
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got %q\nwant %q", err.Error(), tc.want)
			}
		})
	}
}

func TestParseConditionsLimits(t *testing.T) {
	big := make([]byte, MaxConditionsBytes+1)
	for i := range big {
		big[i] = ' '
	}
	if _, err := ParseConditions("c.yaml", big); err == nil || err.Error() != "c.yaml: input is 1048577 bytes, more than the limit of 1048576" {
		t.Errorf("oversized input: %v", err)
	}
	var many []byte
	for i := 0; i <= MaxConditions; i++ {
		many = append(many, "- manual: x\n"...)
	}
	if _, err := ParseConditions("c.yaml", many); err == nil || err.Error() != "c.yaml:1:1: more than 1000 exit conditions" {
		t.Errorf("too many conditions: %v", err)
	}
}

func TestConditionString(t *testing.T) {
	c := Condition{Kind: CommandPasses, Arg: "npx tsc --noEmit"}
	if got := c.String(); got != "command_passes: npx tsc --noEmit" {
		t.Errorf("String() = %q", got)
	}
}

func TestCompare(t *testing.T) {
	for _, tc := range []struct {
		got  float64
		op   string
		want float64
		ok   bool
	}{
		{80, ">=", 80, true}, {79.9, ">=", 80, false}, {80, "<=", 80, true}, {81, "<=", 80, false},
		{81, ">", 80, true}, {80, ">", 80, false}, {79, "<", 80, true}, {80, "<", 80, false},
		{0, "==", 0, true}, {1, "==", 0, false}, {1, "!=", 0, true}, {0, "!=", 0, false}, {1, "=", 1, false},
	} {
		if got := compare(tc.got, tc.op, tc.want); got != tc.ok {
			t.Errorf("compare(%v %s %v) = %v", tc.got, tc.op, tc.want, got)
		}
	}
}
