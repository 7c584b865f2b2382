package phase

// Fuzz targets. Run one at a time, e.g.
//
//	go test -run=^$ -fuzz=FuzzConditions -fuzztime=1m ./phase
//	go test -run=^$ -fuzz=FuzzHandoff -fuzztime=1m ./phase

import (
	"strings"
	"testing"
)

// FuzzConditions: any bytes either parse into well-formed conditions or
// give an error with the file name; never a panic or a hang.
func FuzzConditions(f *testing.F) {
	for _, s := range []string{
		"- file_exists: src/x.ts\n- command_passes: npm test\n",
		"- metric_threshold: coverage >= 80%\n- visual_verify: /auth\n- manual: ok\n",
		"Campaign: a\nPhase: 3 — x\nExit conditions:\n- manual: m\n",
		"- \"manual: a: b\"\n", "- file_exists:\n", "&a [*a]\n", "- [[[[[[[[[1]]]]]]]]]\n", "\xff\x00",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		exit, err := ParseConditions("c.yaml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "c.yaml") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		if len(exit.Conditions) == 0 || len(exit.Conditions) > MaxConditions {
			t.Fatalf("%d conditions", len(exit.Conditions))
		}
		if exit.Campaign != "" && !ValidSlug(exit.Campaign) {
			t.Fatalf("campaign %q is not a slug", exit.Campaign)
		}
		for _, c := range exit.Conditions {
			if c.Arg == "" || strings.ContainsAny(c.Arg, "\r\n") {
				t.Fatalf("bad argument %q", c.Arg)
			}
			if c.Kind == MetricThreshold && (c.Metric == "" || c.Op == "") {
				t.Fatalf("metric without name or operator: %+v", c)
			}
		}
	})
}

// FuzzHandoff: any HANDOFF text is judged without a panic, twice to the
// same bytes, into a verdict that fits the contract.
func FuzzHandoff(f *testing.F) {
	for _, s := range []string{
		"---HANDOFF---\n## Files changed\n- src/x.ts\nTests: 3 passed, 0 failed\ncoverage: 85%\nScreenshot of /auth: a.png\n---\n",
		"Lint not run. Tests should pass. coverage ~ 80 → 90 to 1\n",
		"**Built:** a, b\n  - [x] c\n1) d\nVerification: 46/47\n",
		"", "---HANDOFF---\n---HANDOFF---\n", "\xff\xfe exit code 0 \u2705",
	} {
		f.Add([]byte(s))
	}
	exit, err := ParseConditions("c.yaml", []byte("- file_exists: src/x.ts\n- command_passes: npm test\n- metric_threshold: coverage >= 80\n- visual_verify: /auth\n- manual: m\n"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := ParseHandoff(data)
		if err != nil {
			return
		}
		v := Judge(exit, h, Options{})
		out := v.JSON()
		if string(out) != string(Judge(exit, h, Options{}).JSON()) {
			t.Fatal("not deterministic")
		}
		c := CheckVerdicts("v.json", out)
		if len(c) != 1 || !c[0].Result.Valid || c[0].Effective() != v.Verdict {
			t.Fatalf("verdict does not fit the contract: %+v\n%s", c[0].Result.Errors, out)
		}
		if len(v.ConditionsMet)+len(v.ConditionsFailed) != len(exit.Conditions) && !(len(v.ConditionsFailed) == 1 && v.ConditionsFailed[0] == NoHandoff) {
			t.Fatalf("conditions lost:\n%s", out)
		}
	})
}
