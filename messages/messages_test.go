package messages_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/protoscan/protoscan/languages/extract"
	"github.com/protoscan/protoscan/messages"
	"github.com/protoscan/protoscan/msgcheck"
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
		{"missing field in a document", "fixtures/a.yaml", "task_id: feature-x-001\nstatus: success\n",
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
			"hb = {\"task_id\": \"Bad_ID\", \"status\": \"success\"}\n",
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
		{"a.yaml", "task_id: x\nstatus: success\n", true},
		{"a.yaml", "name: x\nstatus: ok\n", false},
		{"HANDBACK-1.yaml", "status: ok\n", true},
		{"a.json", `{"handoff_type": "HANDBACK"}`, true},
	} {
		if got := c.MayHaveMessages(tc.rel, []byte(strings.ToLower(tc.src))); got != tc.want {
			t.Errorf("MayHaveMessages(%s, %q) = %v, want %v", tc.rel, tc.src, got, tc.want)
		}
	}
}
