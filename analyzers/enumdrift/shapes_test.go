package enumdrift_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/analyzers/enumdrift"
	"github.com/protoscan-dev/protoscan/languages/extract"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// shapesVocabulary is the vocabulary of testdata/shapes/custom-spec.yaml
// (protocol-core with effort and handoff_type enums) and the embedded
// NEXUS and phase-verdict specs.
func shapesVocabulary(t testing.TB) *enumdrift.Vocabulary {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "shapes", "custom-spec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	sp, err := msgcheck.ParseSpec("custom-spec.yaml", b)
	if err != nil {
		t.Fatal(err)
	}
	var more []*msgcheck.Spec
	for _, n := range []string{"nexus-handoff-v2.yaml", "phase-verdict-v1.yaml"} {
		o, err := msgcheck.EmbeddedSpec(n)
		if err != nil {
			t.Fatal(err)
		}
		more = append(more, o)
	}
	v, err := enumdrift.NewVocabulary(sp, nil, more...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// analyze returns the findings of Analyze on src as "line:col rule
// literal->canonical", plus " @table" when the finding points at an
// alias table.
func analyze(t *testing.T, v *enumdrift.Vocabulary, path, src string) []string {
	t.Helper()
	f, err := extract.File(path, []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var got []string
	for _, fd := range enumdrift.Analyze(f, v).Findings {
		s := fmt.Sprintf("%d:%d %s %s->%s", fd.Line, fd.Col, fd.Rule, fd.Literal, fd.Canonical)
		for _, r := range fd.Related {
			s += fmt.Sprintf(" @%d", r.Line)
		}
		if fd.Canonical != "" && fd.Fix == nil {
			s += " nofix"
		}
		got = append(got, s)
	}
	return got
}

// TestShapes: every shape a vocabulary takes, for every enum of the
// specs, in each language; and the look-alikes that must stay silent.
func TestShapes(t *testing.T) {
	v := shapesVocabulary(t)
	for _, c := range []struct {
		name, path, src string
		want            []string
	}{
		// ---- aliases learned from the file's own table
		{"py alias table explains a comparison", "worker.py", `
STATUS_ALIASES = {"complete": "success", "done": "success", "failed": "failure"}

def route(handback):
    if handback["status"] == "done":
        return 1
    if handback["status"] == "success":
        return 2
`, []string{"5:30 enumdrift/legacy-status done->success @2"}},
		{"go alias table explains a switch", "router.go", `package router

var legacy = map[string]string{"finished": "success", "errored": "failure"}

func route(h Handback) int {
	switch h.Status {
	case "success", "failure":
		return 1
	case "finished":
		return 2
	}
	return 0
}
`, []string{"9:7 enumdrift/legacy-status finished->success @3"}},
		{"yaml alias table explains a route list", "routes.yaml", `
status_aliases:
  finished: success
  errored: failure
routes:
  - status: success
    action: archive
  - status: failure
    action: retry
  - status: finished
    action: archive
  - status: errored
    action: retry
`, []string{"10:13 enumdrift/legacy-status finished->success @3", "12:13 enumdrift/legacy-status errored->failure @3"}},
		{"json alias table is no finding", "aliases.json", `{"legacy": {"finished": "success", "errored": "failure", "done": "success"}}`, nil},

		// ---- collections tested against the field
		{"py set in a membership test", "worker.py", `
TERMINAL = {"success", "Failure", "blocked"}

def done(handback):
    return handback["status"] in TERMINAL
`, []string{"2:24 enumdrift/status-case Failure->failure"}},
		{"py class constant tested in a method", "router.py", `
class Router:
    TERMINAL = frozenset({"success", "FAILURE"})

    def done(self, handback):
        return handback["status"] in self.TERMINAL
`, []string{"3:38 enumdrift/status-case FAILURE->failure"}},
		{"py local list in a membership test", "worker.py", `
def done(handback):
    finished = ["success", "complete"]
    return handback.status not in finished
`, []string{"3:28 enumdrift/legacy-status complete->success"}},
		{"markdown python block with a set tested by name", "docs/worker.md", "# Worker\n\n```python\nTERMINAL = {\"success\", \"Failure\"}\n\ndef done(handback):\n    return handback[\"status\"] in TERMINAL\n```\n",
			[]string{"4:24 enumdrift/status-case Failure->failure"}},
		{"json route list", "routes.json", `{"routes": [{"status": "success", "action": "archive"}, {"status": "failure", "action": "retry"}, {"status": "Escalated", "action": "page"}]}`,
			[]string{"1:110 enumdrift/legacy-status Escalated->escalate"}},
		{"json NEXUS handoff with a drifted status", "handoffs/h.json", `{"step": "1/3", "agent": "Builder", "status": "Success", "confidence": 0.8, "summary": "built", "next_agent": "Judge", "next_action": "CONTINUE"}`,
			[]string{"1:47 enumdrift/value-case Success->SUCCESS"}},
		{"go verdict switch", "phase_verdict.go", `package judge

type PhaseVerdict struct{ Verdict string }

func passed(v PhaseVerdict) bool {
	switch v.Verdict {
	case "pass":
		return true
	case "Fail":
		return false
	}
	return false
}

var _ = PhaseVerdict{Verdict: "pass"}
`, []string{"9:7 enumdrift/value-case Fail->fail"}},
		{"py tuple literal in a membership test", "worker.py", `
def done(handback):
    return handback.status in ("success", "failed")
`, []string{"3:43 enumdrift/legacy-status failed->failure"}},
		{"py schema fragment", "schema.py", `
HANDBACK_SCHEMA = {
    "type": "object",
    "properties": {"status": {"type": "string", "enum": ["success", "failure", "finished", "partial"]}},
}
`, []string{`4:57 enumdrift/missing-status ->`, `4:80 enumdrift/unknown-status finished->`}},
		{"yaml schema file", "schemas/handback.yaml", `
type: object
properties:
  status:
    type: string
    enum: [success, failure, Partial, escalated]
`, []string{"6:30 enumdrift/status-case Partial->partial", "6:39 enumdrift/legacy-status escalated->escalate"}},
		{"json schema file", "schemas/handback.json", `{"properties": {"status": {"enum": ["success", "failed", "partial"]}}}`,
			[]string{"1:48 enumdrift/legacy-status failed->failure"}},
		{"yaml route list", "routes.yaml", `
routes:
  - status: success
    action: archive
  - status: partial
    action: resume
  - status: failed
    action: retry
  - status: Blocked
    action: wait
`, []string{"7:13 enumdrift/legacy-status failed->failure", "9:13 enumdrift/status-case Blocked->blocked"}},
		{"markdown route list", "docs/routing.md", "# Routing\n\n```yaml\nroutes:\n  - status: success\n    action: archive\n  - status: blocked\n    action: wait\n  - status: ESCALATE\n    action: page\n```\n",
			[]string{"9:13 enumdrift/status-case ESCALATE->escalate"}},
		{"progress log is no route list", "progress.yaml", `
agents_contributed:
  - agent: frontend-lead
    status: complete
  - agent: frontend-tester
    status: complete
  - agent: reviewer
    status: in-progress
`, nil},

		// ---- every enum of the specs
		{"py delegate agent", "dispatch.py", `
def pick(delegate):
    if delegate.get("agent") == "senior_engineer":
        return 1
    if delegate.get("agent") == "engineer":
        return 2
`, []string{"3:33 enumdrift/value-case senior_engineer->senior-engineer"}},
		{"py delegate agent in a DELEGATE", "dispatch.py", `
def make(tid, scope):
    return {"task_id": tid, "agent": "Lead_Engineer", "scope": scope}
`, []string{"3:38 enumdrift/value-case Lead_Engineer->lead-engineer"}},
		{"py effort tiers", "dispatch.py", `
EFFORT_LEVELS = ["low", "med", "high"]

def ok(delegate):
    return delegate["effort"] in EFFORT_LEVELS
`, []string{"2:25 enumdrift/unknown-value med->"}}, // no nearest value is guessed
		{"yaml handoff_type in a DELEGATE", "queue/d.yaml", `
task_id: t-1
agent: engineer
scope: fix the parser
handoff_type: Delegate
effort: hi
`, []string{"5:15 enumdrift/value-case Delegate->DELEGATE", "6:9 enumdrift/unknown-value hi->"}},
		{"py NEXUS next_action", "chain.py", `
def next_step(handoff):
    if handoff["next_action"] == "Continue":
        return 1
    if handoff["next_action"] == "MERGE":
        return 2
    if handoff["next_action"] == "ABORT":
        return 3
`, []string{"3:34 enumdrift/value-case Continue->CONTINUE"}},
		{"py verdict", "phase_verdict.py", `
def passed(verdict):
    if verdict["verdict"] == "PASS":
        return True
    return verdict["verdict"] == "fail"
`, []string{"3:30 enumdrift/value-case PASS->pass"}},
		{"go NEXUS status const block", "nexus.go", `package chain

type NexusStatus string

const (
	NexusSuccess NexusStatus = "SUCCESS"
	NexusPartial NexusStatus = "PARTIAL"
	NexusBlocked NexusStatus = "Blocked"
	NexusFailed  NexusStatus = "FAILED"
)
`, []string{"8:29 enumdrift/value-case Blocked->BLOCKED"}},

		// ---- an unknown value beside two canonical ones, in a file that
		// says nothing else of HANDBACKs
		{"go switch with a word beside two statuses", "worker.go", `package worker

func route(hb Result) int {
	switch hb.Status {
	case "success":
		return 1
	case "done":
		return 2
	case "failure":
		return 3
	}
	return 0
}
`, []string{"7:7 enumdrift/unknown-status done->"}},
		{"py comparisons of one subject in one function", "worker.py", `
def route(hb):
    if hb["status"] == "success":
        return 1
    if hb["status"] == "escalate":
        return 2
    if hb["status"] == "done":
        return 3
`, []string{"7:24 enumdrift/unknown-status done->"}},
		{"py hi is no high without an alias", "dispatch.py", `
def ok(d):
    if d["effort"] == "low" or d["effort"] == "high":
        return 1
    return d["effort"] == "hi"
`, []string{"5:27 enumdrift/unknown-value hi->"}},
		{"py JSend statuses share one word with the protocol", "client.py", `
def ok(resp):
    return resp["status"] in ("success", "fail", "error")
`, nil},
		{"go HTTP status words", "api.go", `package api

func ok(r Response) bool {
	switch r.Status {
	case "200 OK", "success":
		return true
	case "error":
		return false
	}
	return false
}
`, nil},
		{"py CI job states", "ci.py", `
def done(job):
    if job.status == "success":
        return True
    if job.status in ("failed", "canceled", "running", "pending"):
        return False
`, nil},
		// ---- what is not drift: alias tables, rejected test rows,
		// another scale
		{"py legacy set beside the canonical one is an alias table", "accept.py", `
VALID = {"success", "failure", "partial", "blocked", "escalate"}
LEGACY_STATUSES = {"done", "complete", "failed"}

def accept(h):
    return h["status"] in VALID or h["status"] in LEGACY_STATUSES
`, nil},
		{"py test rows that expect rejection", "test_validate.py", `
import pytest

CASES = [
    ({"task_id": "t-1", "status": "success"}, True),
    ({"task_id": "t-2", "status": "done"}, False),
]

def test_rejects(validate):
    with pytest.raises(ValueError):
        validate({"task_id": "t", "status": "finished"})
`, nil},
		{"py enum on another scale", "tiers.py", `
from enum import Enum

class Tier(str, Enum):
    CRITICAL = "critical"
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"
`, nil},
		// ---- look-alikes: no protocol field, no finding
		{"another protocol's verdict words", "docs/phase-15.md", "## Evaluate\n\n```python\nif adherence.met and verdict == \"PASS\":\n    proceed()\nelif verdict == \"FAIL\":\n    loop()\n```\n", nil},
		{"health check", "health.py", `
def health():
    return {"status": "ok", "uptime": 3}

def check(resp):
    return resp.status in ("healthy", "degraded", "ok")
`, nil},
		{"job states with a canonical word", "jobs.py", `
def finished(job):
    return job["status"] in ("done", "failure")
`, nil},
		{"kubernetes conditions", "deploy.yaml", `
status:
  conditions:
    - type: Ready
      status: "True"
    - type: Progressing
      status: "False"
`, nil},
		{"tool reply with a task_id", "events.py", `
def reply(task_id):
    return {"task_id": task_id, "status": "running", "tool": "grep"}
`, nil},
		{"user agents", "client.py", `
def ua(headers):
    if headers.get("agent") == "Mozilla":
        return 1
    return headers.get("agent") == "curl"
`, nil},
		{"unrelated set", "colors.py", `
COLORS = {"red", "green", "blue"}

def ok(x):
    return x.color in COLORS
`, nil},
		{"workflow steps list", ".github/workflows/ci.yaml", `
steps:
  - name: build
    run: make
  - name: test
    run: make test
`, nil},
		// vocabularies of their own that share words with the HANDBACK
		// status, in files that handle no HANDBACK
		{"py schema of a code run's status", "runner/schema.py", `
RUN_SCHEMA = {"type": "object", "properties": {"status": {"type": "string", "enum": ["success", "failure", "none"]}}}
`, nil},
		{"json schema of a code run's status", "runner/round.schema.json",
			`{"properties": {"execution": {"type": "object", "properties": {"status": {"type": "string", "enum": ["success", "failure", "none"]}}}}}`, nil},
		{"py task board looked up with task.status", "board.py", `
from enum import Enum

class JobState(str, Enum):
    waiting = "waiting"
    running = "running"
    completed = "completed"
    failed = "failed"
    blocked = "blocked"

MARKS = {"waiting": ".", "running": "~", "completed": "x", "failed": "!", "blocked": "#"}

def mark(job):
    return MARKS.get(job.status, "?")
`, nil},
		{"py scheduler run statuses, one compared twice", "scheduler.py", `
def check(run):
    if run["status"] in {"success", "failed", "paused", "timeout"}:
        if run["status"] != "success":
            raise RuntimeError(run["status"])
`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := analyze(t, v, c.path, c.src)
			if !slices.Equal(got, c.want) {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
			}
		})
	}
}

// TestDataKeysAsWritten: a data document's record is a message only with
// the fields spelled as the spec spells them, as msgcheck reads it; code
// names them in its language's style.
func TestDataKeysAsWritten(t *testing.T) {
	v, err := enumdrift.NewVocabulary(msgcheck.DefaultSpec(), nil)
	if err != nil {
		t.Fatal(err)
	}
	block := func(id string) string {
		return "## Result\n\n```json\n{\"type\": \"result\", \"payload\": {\"" + id + "\": \"T001\", \"status\": \"completed\", \"artifacts\": [], \"metrics\": {\"duration\": 5}}}\n```\n"
	}
	for _, c := range []struct {
		name, path, src string
		want            []string
	}{
		{"another protocol's bus message, camelCase", "docs/agents/Communication.md", block("taskId"), nil},
		{"the protocol's spelling", "docs/agents/Communication.md", block("task_id"), []string{"4:61 enumdrift/unknown-status completed->"}},
		{"code in its own style", "worker.go", "package w\n\nfunc f() Result { return Result{TaskID: \"t-1\", Status: \"completed\", Output: \"o\", Metrics: m} }\n",
			[]string{"3:56 enumdrift/unknown-status completed->"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := analyze(t, v, c.path, c.src); !slices.Equal(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestMarkerIsNoEnum: a spec that gives handoff_type an enum per kind
// ([DELEGATE], [HANDBACK]) judges a message's own marker, never code that
// tells the kinds apart by comparing the marker with every kind's name.
func TestMarkerIsNoEnum(t *testing.T) {
	spec := `protocol: protocol-core
version: "1.0"
handback:
  signature: [task_id, status]
  core_fields:
    handoff_type: {type: string, enum: [HANDBACK]}
    task_id: {type: string}
    status: {type: string, enum: [success, failure, partial, blocked, escalate]}
delegate:
  signature: [task_id, scope]
  core_fields:
    handoff_type: {type: string, enum: [DELEGATE]}
    task_id: {type: string}
    scope: {type: string}
`
	sp, err := msgcheck.ParseSpec("spec.yaml", []byte(spec))
	if err != nil {
		t.Fatal(err)
	}
	v, err := enumdrift.NewVocabulary(sp, nil)
	if err != nil {
		t.Fatal(err)
	}
	src := `
def check(data):
    handoff_type = data.get("handoff_type")
    if handoff_type == "DELEGATE":
        return 1
    elif handoff_type == "HANDBACK":
        return 2
    elif data["status"] == "done":
        return 3
`
	if got := analyze(t, v, "scripts/check.py", src); len(got) != 0 {
		t.Errorf("got %q, want nothing", got)
	}
}

// TestRejectedTestInputs: a test's inputs that it expects to be refused
// (a row holding False, a literal under pytest.raises or assertRaises, a
// test named for invalid input) are no drift; the rows it accepts are.
func TestRejectedTestInputs(t *testing.T) {
	v, err := enumdrift.NewVocabulary(msgcheck.DefaultSpec(), nil)
	if err != nil {
		t.Fatal(err)
	}
	src := `import pytest

@pytest.mark.parametrize("msg,ok", [
    ({"handoff_type": "HANDBACK", "task_id": "t-1", "status": "success"}, True),
    ({"handoff_type": "HANDBACK", "task_id": "t-2", "status": "done"}, False),
    ({"handoff_type": "HANDBACK", "task_id": "t-3", "status": "SUCCESS"}, True),
])
def test_validate(msg, ok):
    assert validate(msg) is ok

def test_raises():
    with pytest.raises(ValueError):
        validate({"handoff_type": "HANDBACK", "task_id": "t", "status": "finished"})

class TestHandback(unittest.TestCase):
    def test_bad(self):
        with self.assertRaises(ValueError):
            validate({"handoff_type": "HANDBACK", "task_id": "t", "status": "Failed"})

def test_rejects_unknown_status():
    validate({"handoff_type": "HANDBACK", "task_id": "t", "status": "okay"}, expect_errors=1)

def test_scope_too_short():
    ok, errors = validate({"handoff_type": "HANDBACK", "task_id": "t", "status": "Done"})
    assert not ok and errors

def test_status_accepted():
    ok, errors = validate({"handoff_type": "HANDBACK", "task_id": "t", "status": "Success"})
    assert ok
`
	got := analyze(t, v, "tests/test_handback.py", src)
	want := []string{"6:63 enumdrift/status-case SUCCESS->success", "28:82 enumdrift/status-case Success->success"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
