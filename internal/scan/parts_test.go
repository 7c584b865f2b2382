package scan_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/internal/scan"
)

// TestParseProblemsHideNothing: a part of a file that does not parse (a
// YAML document, a JSON value, a JSON Lines line, a Markdown block) costs
// only itself. The file's other findings are reported; the broken part is
// reported once, at its line, as an error when its text looks like a
// message and as a warning when not; a Markdown block of prose that does
// not parse is nothing, and a YAML template is not reported.
func TestParseProblemsHideNothing(t *testing.T) {
	deep := strings.Repeat("[", 1001) + strings.Repeat("]", 1001)
	const wrong = `{"task_id": "bad-1", "status": "FAILED", "output": {}, "metrics": {"quality": 0.5, "tokens": 1, "cost": 0, "duration_seconds": 1}}`
	const yamlWrong = "task_id: bad-2\nstatus: FAILED\noutput: {}\nmetrics: {quality: 0.5, tokens: 1, cost: 0, duration_seconds: 1}\n"
	files := map[string]string{
		// the four cases of the issue
		"deep.json":   wrong + "\n" + deep + "\n",
		"lines.jsonl": wrong + "\n" + `{"note": oops}` + "\n" + wrong + "\n",
		"first.yaml":  "notes: [unclosed\n---\n" + yamlWrong,
		"fence.md":    "# HANDBACK\n\n```yaml\ntask_id: deep-1\nstatus: success\noutput:\n  x: " + deep + "\n```\n",
		// broken parts that look like messages
		"marker.jsonl":   wrong + "\n" + `{"handoff_type": "HANDBACK", "task_id": "t-2",, "status": "success"}` + "\n",
		"handback.yaml":  yamlWrong + "---\ntask_id: t-3\nstatus: success\noutput: [unclosed\n",
		"deepdoc.yaml":   "task_id: t-4\nstatus: success\noutput:\n  x: " + deep + "\n---\n" + yamlWrong,
		"aliasbomb.yaml": "handoff_type: HANDBACK\ntask_id: t-5\nstatus: success\noutput:\n" + bomb("  "),
		// broken parts that do not: broken data stays a warning, prose
		// nothing, templates are exempt; a block without a language is
		// prose when it does not parse, whatever it holds
		"unlabelled.md": "```\n{\"handoff_type\": \"DELEGATE\", \"task_id\": [oops}\n```\n",
		"ci.yaml":       "jobs:\n  build:\n    matrix: {outcome: [success, failure, partial]}\n    steps: [oops\n",
		"prose.md":      "```yaml\nstatus: success\nsteps: [run, {oops\n```\n\n```json\n{\"outcome\": [\"success\", \"failure\", \"partial\"],}\n```\n",
		"chart.yaml":    "{{- if .Values.on }}\ntask_id: t-6\nstatus: [FAILED\noutput: {}\n{{- end }}\n",
	}
	dir := writeTree(t, files)
	res, err := scan.Run(context.Background(), dir, fullOptions(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Findings {
		if f.Rule == scan.RuleParseError || f.Rule == "enumdrift/legacy-status" {
			got = append(got, fmt.Sprintf("%s:%d:%d %s %s", f.Path, f.Line, f.Col, f.Severity, f.Rule))
		}
	}
	want := []string{
		"aliasbomb.yaml:11:14 error protoscan/parse-error",
		"deep.json:1:32 error enumdrift/legacy-status",
		"deep.json:2:1001 warning protoscan/parse-error",
		"deepdoc.yaml:4:1004 error protoscan/parse-error",
		"deepdoc.yaml:7:9 error enumdrift/legacy-status",
		"fence.md:7:1004 error protoscan/parse-error",
		"first.yaml:1:0 warning protoscan/parse-error",
		"first.yaml:4:9 error enumdrift/legacy-status",
		"handback.yaml:2:9 error enumdrift/legacy-status",
		"handback.yaml:7:0 error protoscan/parse-error",
		"lines.jsonl:1:32 error enumdrift/legacy-status",
		"lines.jsonl:2:10 warning protoscan/parse-error",
		"lines.jsonl:3:32 error enumdrift/legacy-status",
		"marker.jsonl:1:32 error enumdrift/legacy-status",
		"marker.jsonl:2:47 error protoscan/parse-error",
		"ci.yaml:3:0 warning protoscan/parse-error",
	}
	// sorted as the scan sorts: by path
	if g, w := sortedLines(got), sortedLines(want); g != w {
		t.Errorf("got:\n%s\nwant:\n%s", g, w)
	}
}

func sortedLines(lines []string) string {
	s := slices.Clone(lines)
	slices.Sort(s)
	return strings.Join(s, "\n")
}

// bomb is a YAML mapping, indented by indent, whose aliases expand to 9^7
// nodes.
func bomb(indent string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%sa: &a [x, x, x, x, x, x, x, x, x]\n", indent)
	prev := "a"
	for _, name := range []string{"b", "c", "d", "e", "f", "g"} {
		fmt.Fprintf(&b, "%s%s: &%s [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n", indent, name, name, prev, prev, prev, prev, prev, prev, prev, prev, prev)
		prev = name
	}
	return b.String()
}

// TestBrokenBlockOfRecords: a document's broken block of records that
// carry a task_id and a status, but no marker or kind name, is an
// example in prose (a checklist of tasks, an event list) and stays
// silent; the same block naming HANDBACK is a message.
func TestBrokenBlockOfRecords(t *testing.T) {
	records := "```yaml\nchecklist:\n  - task_id: \"T001\"\n    title: \"Update the hook\"\n    file: \"src/hook.ts\"\n    criteria:\n      - \"fetches on mount\" -> VERIFY\n    status: \"pending\"\n```\n"
	for _, tc := range []struct {
		name, doc string
		want      int
	}{
		{"records", "# Plan\n\n" + records, 0},
		{"a HANDBACK", "# Plan\n\n" + strings.Replace(records, "checklist:", "handoff_type: HANDBACK\nchecklist:", 1), 1},
	} {
		got := partFindings(t, "docs/plan.md", tc.doc)
		if len(got) != tc.want {
			t.Errorf("%s: %d findings %v, want %d", tc.name, len(got), got, tc.want)
		}
	}
}

// partFindings scans a tree of one file, name with content, and returns
// its parse problems as "line severity".
func partFindings(t *testing.T, name, content string) []string {
	t.Helper()
	dir := writeTree(t, map[string]string{name: content})
	res, err := scan.Run(context.Background(), dir, fullOptions(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range res.Findings {
		if f.Rule == scan.RuleParseError {
			out = append(out, fmt.Sprintf("%d %s", f.Line, f.Severity))
		}
	}
	return out
}
