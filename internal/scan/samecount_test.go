package scan_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/audit"
	"github.com/protoscan-dev/protoscan/internal/scan"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// TestScanAndAuditCountAlike: the scan and the audit count the same
// messages in the same YAML, JSON and JSON Lines files, among them
// HANDBACKs whose marker names their kind and whose custom fields
// outnumber the protocol's (the scan once skipped them as no message
// while the audit reported them invalid).
func TestScanAndAuditCountAlike(t *testing.T) {
	custom := "worker: w1\nhost: h1\nqueue: q\nattempt: 2\ntrace: t-9\nregion: eu\n"
	files := map[string]string{
		"queue/h1.yaml": "handoff_type: HANDBACK\ntask_id: t-1\nstatus: done\n" + custom,
		"queue/h2.json": `{"handoff_type": "HANDBACK", "task_id": "t-2", "status": "success", "output": {}, "metrics": {"quality": 0.9, "tokens": 1, "cost": 0, "duration_seconds": 1}}`,
		"queue/all.jsonl": `{"handoff_type": "handback", "task_id": "t-3", "status": "failed", "worker": "w", "host": "h", "queue": "q", "attempt": 1}` + "\n" +
			`{"handoff_type": "DELEGATE", "task_id": "t-4", "skill": "s", "agent": "engineer", "scope": "x"}` + "\n",
		"queue/d.yaml": "task_id: t-5\nskill: s\nagent: engineer\nscope: fix the parser of the queue files today for everyone\n",
		// named for the kind: its records are the kind's, custom fields
		// and all; a list of records is one message each
		"queue/HANDBACK-t6.yaml": "task_id: t-6\nstatus: success\n" + custom,
		"queue/handbacks.yaml":   "- task_id: t-7\n  status: success\n  worker: w\n- task_id: t-8\n  status: failure\n  worker: w\n",
		// "type" names the kind, with its id field
		"queue/events.jsonl": `{"type": "HANDBACK", "task_id": "t-9", "status": "success", "worker": "w", "host": "h", "queue": "q"}` + "\n",
		// a JSON Schema document is no message, though named for a kind
		"queue/handback.schema.json": `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {"task_id": {"type": "string"}, "status": {"enum": ["success"]}}}`,
		"queue/HANDBACK-schema.yaml": "type: object\nproperties:\n  task_id: {type: string}\n  status: {type: string}\n",
	}
	dir := writeTree(t, files)
	res, err := scan.Run(context.Background(), dir, fullOptions(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	v, err := msgcheck.New(msgcheck.Options{Root: dir}, msgcheck.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	sum, err := audit.Run(context.Background(), []audit.Input{"queue"}, strings.NewReader(""), audit.Options{Validator: v, Spec: msgcheck.DefaultSpec()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Messages) != 9 || sum.Messages != 9 || sum.Schemas != 2 {
		t.Errorf("scan counted %d messages, audit %d (and %d JSON Schema documents); want 9 each (and 2)", len(res.Messages), sum.Messages, sum.Schemas)
	}
}

// TestNamedForAKindButNoMessage: a file named for a kind holds its
// messages only when its records have a field of the kind; a JSON Schema
// document is never a message.
func TestNamedForAKindButNoMessage(t *testing.T) {
	files := map[string]string{
		"config/delegate_settings.json": `{"timeout": 3, "retries": 2}`,
		"schemas/handback.schema.json":  `{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"task_id": {"type": "string"}, "status": {"type": "string"}}, "required": ["task_id"]}`,
		"schemas/handback.yaml":         "type: object\nproperties:\n  task_id: {type: string}\n  status: {type: string}\n",
	}
	dir := writeTree(t, files)
	res, err := scan.Run(context.Background(), dir, fullOptions(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Messages) != 0 || len(res.Findings) != 0 {
		t.Errorf("%d messages, findings %v; want none", len(res.Messages), res.Findings)
	}
}

// TestRejectedInputsAreNoMessages: a test's inputs that it expects to be
// refused are neither validated nor judged; the messages it accepts are.
func TestRejectedInputsAreNoMessages(t *testing.T) {
	dir := writeTree(t, map[string]string{"tests/test_delegate.py": `import pytest

@pytest.mark.parametrize("ext,ok", [
    ({"handoff_type": "DELEGATE", "task_id": "t-1", "scope": "too short", "effort": "extreme"}, False),
    ({"handoff_type": "DELEGATE", "task_id": "t-2", "scope": "also short"}, True),
])
def test_extensions(ext, ok):
    assert validate(ext) is ok
`})
	res, err := scan.Run(context.Background(), dir, fullOptions(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Messages) != 1 {
		t.Errorf("%d messages, want 1 (the accepted row)", len(res.Messages))
	}
	for _, f := range res.Findings {
		if f.Line == 4 {
			t.Errorf("a finding on the rejected row: %v", f)
		}
	}
}
