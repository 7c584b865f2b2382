package messages_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/handoff"
	"github.com/protoscan-dev/protoscan/internal/messages"
	"github.com/protoscan-dev/protoscan/languages/extract"
	"github.com/protoscan-dev/protoscan/msgcheck"
	"github.com/protoscan-dev/protoscan/phase"
)

func checker(t *testing.T) *messages.Checker {
	t.Helper()
	v, err := msgcheck.New(msgcheck.Options{}, msgcheck.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	return messages.New(v, msgcheck.DefaultSpec())
}

const goodHandback = `task_id: feature-x-001
status: success
output: {summary: done}
metrics: {quality: 0.9, tokens: 10, cost: 0.1, duration_seconds: 3}
`

// TestCheck: each case is a file; want lists the findings as
// "line:col rule", and kinds the kinds of the messages found.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name, path, src string
		want            []string
		kinds           string
	}{
		{"valid handback by signature", "fixtures/a.yaml", goodHandback, nil, "handback"},
		{"nested metrics is part of the message", "fixtures/a.yaml",
			strings.Replace(goodHandback, "quality: 0.9", "quality: 1.5", 1),
			[]string{"4:20 msgcheck/handback-metrics-quality-range"}, "handback"},
		{"missing field in a document", "fixtures/a.yaml", "task_id: feature-x-001\nstatus: success\noutput: {}\n",
			[]string{"1:1 msgcheck/handback-metrics-required"}, "handback"},
		{"two keys are no message", "fixtures/a.yaml", "task_id: feature-x-001\nstatus: success\n", nil, ""},
		{"two keys in a file named after the kind", "fixtures/handback-a.yaml", "task_id: feature-x-001\nstatus: success\n",
			[]string{"1:1 msgcheck/handback-metrics-required", "1:1 msgcheck/handback-output-required"}, "handback"},
		{"unknown field at its key", "fixtures/a.yaml", goodHandback + "surprise: 1\n",
			[]string{"5:1 msgcheck/handback-unknown-field"}, "handback"},
		{"several documents", "fixtures/a.yaml", goodHandback + "---\n" + strings.Replace(goodHandback, "feature-x-001", "Bad_ID", 1),
			[]string{"6:10 msgcheck/handback-task-id-format"}, "handback handback"},
		{"kind from handoff_type", "fixtures/a.json", `{"handoff_type": "DELEGATE", "task_id": "x-001", "skill": "s"}`,
			nil, ""}, // handled below: required fields missing make it invalid
		{"kind from the file name", "queue/handback-7.yaml", "task_id: feature-x-001\nmetrics: {quality: 2}\n",
			[]string{"1:1 msgcheck/handback-output-required", "1:1 msgcheck/handback-status-required",
				"2:10 msgcheck/handback-metrics-cost-required", "2:10 msgcheck/handback-metrics-duration-seconds-required",
				"2:10 msgcheck/handback-metrics-tokens-required", "2:20 msgcheck/handback-metrics-quality-range"}, "handback"},
		{"not a message", "config/app.yaml", "name: api\nstatus: ok\nreplicas: 3\n", nil, ""},
		{"python literal: computed values and missing fields are not judged", "agents/worker.py",
			"def done(tid, q):\n    return {\"task_id\": tid, \"status\": \"success\", \"metrics\": {\"quality\": q, \"tokens\": -1}}\n",
			[]string{"2:86 msgcheck/handback-metrics-tokens-range"}, "handback"},
		{"python literal with a literal error", "agents/worker.py",
			"hb = {\"task_id\": \"Bad_ID\", \"status\": \"success\", \"output\": None}\n",
			[]string{"1:18 msgcheck/handback-task-id-format"}, "handback"},
		{"markdown front matter and blocks", "docs/example.md",
			"# Example\n\n```yaml\n" + strings.Replace(goodHandback, "success", "complete", 1) + "```\n",
			[]string{"5:9 msgcheck/handback-status-enum"}, "handback"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := extract.File(tc.path, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			fs, outcomes := checker(t).Check(f)
			if tc.name == "kind from handoff_type" {
				if len(outcomes) != 1 || outcomes[0].Kind != "delegate" || outcomes[0].Valid {
					t.Errorf("outcomes %+v", outcomes)
				}
				return
			}
			var got []string
			for _, fd := range fs {
				got = append(got, fmt.Sprintf("%d:%d %s", fd.Line, fd.Col, fd.Rule))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			var kinds []string
			for _, o := range outcomes {
				kinds = append(kinds, o.Kind)
			}
			if strings.Join(kinds, " ") != tc.kinds {
				t.Errorf("kinds %q, want %q", strings.Join(kinds, " "), tc.kinds)
			}
		})
	}
}

func TestMayHaveMessages(t *testing.T) {
	c := checker(t)
	for _, tc := range []struct {
		rel, src string
		want     bool
	}{
		{"a.yaml", "task_id: x\nstatus: success\noutput: y\n", true},
		{"a.yaml", "task_id: x\nstatus: success\n", false},
		{"a.py", "make_handback(task_id=x, status=y)\n", true},
		{"a.yaml", "name: x\nstatus: ok\n", false},
		{"HANDBACK-1.yaml", "status: ok\n", true},
		{"a.json", `{"handoff_type": "HANDBACK"}`, true},
	} {
		if got := c.MayHaveMessages(tc.rel, []byte(strings.ToLower(tc.src))); got != tc.want {
			t.Errorf("MayHaveMessages(%s, %q) = %v, want %v", tc.rel, tc.src, got, tc.want)
		}
	}
}

// protocolsChecker checks protocol-core, NEXUS handoffs and phase
// verdicts, each with its embedded spec.
func protocolsChecker(t *testing.T) *messages.Checker {
	t.Helper()
	v, err := msgcheck.New(msgcheck.Options{}, msgcheck.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	hs, err := handoff.DefaultSpec()
	if err != nil {
		t.Fatal(err)
	}
	ev, err := handoff.New(hs)
	if err != nil {
		t.Fatal(err)
	}
	vv, err := phase.Validator()
	if err != nil {
		t.Fatal(err)
	}
	return messages.New(v, msgcheck.DefaultSpec(), messages.Handoffs(ev), messages.Verdicts(vv))
}

const goodHandoff = `step: 2/4
agent: Builder
status: SUCCESS
confidence: 0.85
confidence_breakdown: {task_completion: 0.9, output_quality: 0.8, next_step_clarity: 0.85}
summary: Built it.
next_agent: Sentinel
next_action: VERIFY
`

const goodVerdict = `{"verdict": "pass", "phase": 1, "campaign": "c", "conditions_checked": 1,
 "conditions_met": ["file_exists: a"], "conditions_failed": [], "warnings": [], "suggestions": []}
`

// TestProtocols: NEXUS handoffs and phase verdicts are found where a
// signature or a wrapper key says so, judged as validate --handoff and
// validate --verdict judge them, and placed at their fields; lookalikes
// stay silent.
func TestProtocols(t *testing.T) {
	indent := func(s string) string {
		return "  " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n  ") + "\n"
	}
	for _, tc := range []struct {
		name, path, src string
		want            []string
		kinds           string
	}{
		{"bare handoff by its signature", "chain/step2.yaml", goodHandoff, nil, "nexus_handoff_v2"},
		{"handoff under its wrapper key", "chain/step2.yaml", "NEXUS_HANDOFF_V2:\n" + indent(goodHandoff), nil, "nexus_handoff_v2"},
		{"SUCCESS with a low confidence, at the confidence", "chain/step2.yaml",
			strings.NewReplacer("confidence: 0.85", "confidence: 0.5", "0.9, output_quality: 0.8, next_step_clarity: 0.85", "0.5, output_quality: 0.5, next_step_clarity: 0.5").Replace(goodHandoff),
			[]string{"4:13 msgcheck/nexus_handoff_v2-success-confidence"}, "nexus_handoff_v2"},
		{"V1 handoff migrated: a warning at its status, no missing fields", "chain/v1.yaml",
			"NEXUS_HANDOFF:\n  step: 1/2\n  agent: Scout\n  status: PARTIAL\n  summary: Half done.\n  next_agent: Builder\n  next_action: CONTINUE\n",
			[]string{"4:11 msgcheck/handoff-v1-migration"}, "nexus_handoff_v2"},
		{"a wrapped handoff without its signature is still judged", "chain/x.json", `{"NEXUS_HANDOFF_V2": {"agent": "Builder"}}`,
			[]string{"1:22 msgcheck/nexus_handoff_v2-confidence-breakdown-required", "1:22 msgcheck/nexus_handoff_v2-confidence-required",
				"1:22 msgcheck/nexus_handoff_v2-next-action-required", "1:22 msgcheck/nexus_handoff_v2-next-agent-required",
				"1:22 msgcheck/nexus_handoff_v2-status-required", "1:22 msgcheck/nexus_handoff_v2-step-required",
				"1:22 msgcheck/nexus_handoff_v2-summary-required"}, "nexus_handoff_v2"},
		{"a wrapper key without a mapping is a mention", "docs/x.yaml", "NEXUS_HANDOFF_V2: see the chain log\n", nil, ""},
		{"numbered steps without agent and next_agent", "ci/pipeline.yaml", "steps:\n  - step: 1/2\n    name: build\n    status: required\n", nil, ""},
		{"a handoff-shaped dict in code is not read", "agents/nexus.py",
			"h = {\"step\": \"1/2\", \"agent\": \"Nobody\", \"next_agent\": \"x\"}\n", nil, ""},
		{"a labelled Markdown handoff block", "docs/chain.md", "# Log\n\n```nexus_handoff_v2\n" + strings.Replace(goodHandoff, "Sentinel", "Someone", 1) + "```\n",
			[]string{"10:13 msgcheck/nexus_handoff_v2-next-agent-any-of"}, "nexus_handoff_v2"},
		{"a valid verdict", "out/verdict.json", goodVerdict, nil, "phase_verdict"},
		{"a pass with failed conditions, at the verdict", "out/verdict.json",
			strings.Replace(goodVerdict, `"conditions_failed": []`, `"conditions_failed": ["x"]`, 1),
			[]string{"1:13 msgcheck/phase_verdict-pass-failed", "1:72 msgcheck/phase_verdict-miscount"}, "phase_verdict"},
		{"verdicts are JSON documents only", "out/verdict.yaml",
			"verdict: pass\nconditions_checked: 1\nconditions_met: []\nconditions_failed: [x]\n", nil, ""},
		{"an API response with a verdict key", "api/review.json", `{"id": "r-1", "verdict": "approved", "conditions": ["ci"]}`, nil, ""},
		{"protocol-core first", "fixtures/a.yaml", goodHandback, nil, "handback"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := extract.File(tc.path, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			fs, outcomes := protocolsChecker(t).Check(f)
			var got []string
			for _, fd := range fs {
				got = append(got, fmt.Sprintf("%d:%d %s", fd.Line, fd.Col, fd.Rule))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			var kinds []string
			for _, o := range outcomes {
				kinds = append(kinds, o.Kind)
			}
			if strings.Join(kinds, " ") != tc.kinds {
				t.Errorf("kinds %q, want %q", strings.Join(kinds, " "), tc.kinds)
			}
		})
	}
}

func TestProtocolsPrefilter(t *testing.T) {
	c := protocolsChecker(t)
	if got := strings.Join(c.Kinds(), " "); got != "delegate handback nexus_handoff_v2 phase_verdict" {
		t.Errorf("Kinds() = %q", got)
	}
	for _, tc := range []struct {
		rel, src string
		want     bool
	}{
		{"a.yaml", goodHandoff, true},
		{"a.yaml", "NEXUS_HANDOFF:\n  status: PARTIAL\n", true},
		{"a.json", goodVerdict, true},
		{"a.yaml", "step: 1/2\nname: build\n", false},
		{"a.json", `{"verdict": "approved"}`, false},
		{"nexus_handoff_v2.yaml", "name: x\n", false}, // only protocol-core kinds name files
	} {
		if got := c.MayHaveMessages(tc.rel, []byte(strings.ToLower(tc.src))); got != tc.want {
			t.Errorf("MayHaveMessages(%s, %q) = %v, want %v", tc.rel, tc.src, got, tc.want)
		}
	}
}

// TestResults: Results finds the messages Check finds and reports the
// same findings at the same places, grouped by message, with msgcheck's
// result (kind, validity) on each.
func TestResults(t *testing.T) {
	for _, tc := range []struct{ path, src string }{
		{"fixtures/a.yaml", goodHandback + "---\n" + strings.Replace(goodHandback, "feature-x-001", "Bad_ID", 1) + "surprise: 1\n"},
		{"queue/handback-7.yaml", "task_id: feature-x-001\nmetrics: {quality: 2}\n"},
		{"config/app.yaml", "name: api\nstatus: ok\nreplicas: 3\n"},
		{"agents/worker.py", "def done(tid, q):\n    return {\"task_id\": tid, \"status\": \"success\", \"metrics\": {\"quality\": q, \"tokens\": -1}}\n"},
		{"docs/example.md", "# Example\n\n```yaml\n" + strings.Replace(goodHandback, "success", "complete", 1) + "```\n\n```json\n{\"task_id\": \"t-1\", \"status\": \"success\", \"output\": {}, \"metrics\": {}}\n```\n"},
	} {
		f, err := extract.File(tc.path, []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		c := checker(t)
		fs, outcomes := c.Check(f)
		var want []string
		for _, f := range fs {
			want = append(want, fmt.Sprintf("%d:%d %s", f.Line, f.Col, f.Rule))
		}
		results := c.Results(f)
		if len(results) != len(outcomes) {
			t.Fatalf("%s: %d results, %d outcomes", tc.path, len(results), len(outcomes))
		}
		var got []string
		for i, r := range results {
			o := outcomes[i]
			if r.Result.Kind != o.Kind || r.Result.Valid != o.Valid || r.Location != o.Location {
				t.Errorf("%s: result %d: %s valid=%v at %v; outcome %s valid=%v at %v", tc.path, i,
					r.Result.Kind, r.Result.Valid, r.Location, o.Kind, o.Valid, o.Location)
			}
			for _, e := range append(r.Result.Errors, r.Result.Warnings...) {
				got = append(got, fmt.Sprintf("%d:%d %s", e.Line, e.Column, e.Rule))
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: results\n%s\ncheck\n%s", tc.path, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestLooksLikeMessage: the text of a part that does not parse is a
// message's when it holds a kind's marker or the fields that make one,
// as whole words; broken data of any other kind (a CI file with a typo)
// is not.
func TestLooksLikeMessage(t *testing.T) {
	c := protocolsChecker(t)
	for _, tc := range []struct {
		name, raw string
		want      bool
	}{
		{"marker", "handoff_type: HANDBACK\ntask_id: [\n", true},
		{"marker in JSON", `{"handoff_type": "DELEGATE", "x": }`, true},
		{"kind in capitals", "type: HANDBACK\nplan: [oops\n", true},
		{"NEXUS V2 key", "NEXUS_HANDOFF_V2:\n  step: [\n", true},
		{"NEXUS V1 key", "NEXUS_HANDOFF:\n  step: [\n", true},
		{"handback fields", "task_id: t-1\nstatus: [success\noutput: x\n", true},
		{"delegate fields", `{"task_id": "t", "skill": "s", "agent": "a", }`, true},
		{"kind and id", "kind: handback\ntask_id: [\n", true},
		{"verdict signature", `{"verdict": "pass", "conditions_checked": 3, "conditions_met": 3, "conditions_failed": [}`, true},
		{"nexus signature", "step: 3\nagent: a\nnext_agent: [b\n", true},

		{"CI file", "on: push\njobs:\n  build:\n    runs-on: [ubuntu\n    steps: x\n", false},
		{"two fields", "task_id: t-1\nstatus: [success\n", false},
		{"kind in prose", "# delegate the build\nkey: [\n", false},
		{"kind inside a word", "type: HANDBACKS\nx: [\n", false},
		{"fields inside words", "subtask_id: 1\nstatus_code: 2\noutputs: 3\nmetrics_x: [\n", false},
		{"marker inside a word", "my_handoff_type: x\ny: [\n", false},
		{"empty", "", false},
	} {
		if got := c.LooksLikeMessage([]byte(tc.raw)); got != tc.want {
			t.Errorf("%s: LooksLikeMessage(%q) = %v, want %v", tc.name, tc.raw, got, tc.want)
		}
	}
	// a document's block: the fields count as its own keys only
	for _, tc := range []struct {
		name, raw string
		want      bool
	}{
		{"handback fields at the top", "task_id: t-1\nstatus: [success\noutput: x\n", true},
		{"marker, nested fields", "handoff_type: HANDBACK\nitems:\n  - task_id: [\n", true},
		{"records with a task and a status", "checklist:\n  - task_id: T001\n    title: x\n    file: a.ts\n    status: [pending\n", false},
		{"keys inside a line", "note: task_id: t, status: s, output: o [\n", false},
	} {
		if got := c.LooksLikeMessageAtTop([]byte(tc.raw)); got != tc.want {
			t.Errorf("%s: LooksLikeMessageAtTop(%q) = %v, want %v", tc.name, tc.raw, got, tc.want)
		}
	}
}
