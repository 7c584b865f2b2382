package enumdrift_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/protoscan-dev/protoscan/analyzers/enumdrift"
	"github.com/protoscan-dev/protoscan/languages/extract"
)

// missingOf returns the missing-status and missing-value findings of
// Analyze on src as "line:col rule severity: message".
func missingOf(t *testing.T, v *enumdrift.Vocabulary, path, src string) []string {
	t.Helper()
	f, err := extract.File(path, []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var got []string
	for _, fd := range enumdrift.Analyze(f, v).Findings {
		if fd.Rule == enumdrift.RuleMissing || fd.Rule == enumdrift.RuleValueMissing {
			got = append(got, fmt.Sprintf("%d:%d %s %s: %s", fd.Line, fd.Col, fd.Rule, fd.Severity, fd.Message))
		}
	}
	return got
}

// TestRejectsValid: a set, list or schema enum that gates the acceptance
// of an enum's field and lacks canonical values rejects valid messages;
// a subset that routes, a set of terminal states, a legacy set, another
// protocol's set and a test's table do not.
func TestRejectsValid(t *testing.T) {
	v := shapesVocabulary(t)
	const statuses = "the statuses are success, failure, partial, blocked, escalate"
	for _, c := range []struct {
		name, path, src string
		want            []string
	}{
		{"py not in, raise", "validate.py", `
VALID_STATUSES = {"success", "failure", "partial", "blocked"}

def validate_handback(hb):
    if hb["status"] not in VALID_STATUSES:
        raise ValueError(hb["status"])
`, []string{"2:1 enumdrift/missing-status error: set VALID_STATUSES rejects the valid HANDBACK status escalate (tested against hb.status; " + statuses + ")"}},
		{"py return False, two missing", "validate.py", `
ALLOWED = ["success", "failure", "partial"]

def check(handback):
    if handback.status not in ALLOWED:
        return False
    return True
`, []string{"2:1 enumdrift/missing-status error: set ALLOWED rejects the valid HANDBACK statuses blocked, escalate (tested against handback.status; " + statuses + ")"}},
		{"py an old HANDBACK set, in legacy spellings", "handback_validator.py", `
VALID_HANDBACK_STATUSES = {"complete", "failed", "partial"}

def validate(hb):
    if hb["status"] not in VALID_HANDBACK_STATUSES:
        raise ValueError(hb["status"])
`, []string{
			"2:1 enumdrift/missing-status error: set VALID_HANDBACK_STATUSES rejects the valid HANDBACK statuses success, failure, blocked, escalate (tested against hb.status; " + statuses + ")",
		}},
		{"py a validator's findings.append", "handback_validator.py", `
VALID = {"success", "failure", "partial", "blocked"}

def layer3(handback, findings):
    status = handback.get("status")
    if status not in VALID:
        findings.append(Finding(field="status", severity="error"))
`, []string{"2:1 enumdrift/missing-status error: set VALID rejects the valid HANDBACK status escalate (tested against handback.status; " + statuses + ")"}},
		{"py errors.append", "validate.py", `
OK = ("success", "failure", "partial", "escalate")

def validate(hb):
    errors = []
    if hb.get("status") not in OK:
        errors.append("bad status")
    return errors
`, []string{"2:1 enumdrift/missing-status error: set OK rejects the valid HANDBACK status blocked (tested against hb.status; " + statuses + ")"}},
		{"py assert in", "validate.py", `
ALLOWED = frozenset({"success", "failure", "partial", "blocked"})

def accept(hb):
    assert hb["status"] in ALLOWED, "bad status"
`, []string{"2:1 enumdrift/missing-status error: set ALLOWED rejects the valid HANDBACK status escalate (tested against hb.status; " + statuses + ")"}},
		{"py agent set without orchestrator", "delegate.py", `
VALID_AGENTS = {"engineer", "senior-engineer", "lead-engineer"}

def validate_delegate(delegate):
    if delegate["agent"] not in VALID_AGENTS:
        raise ValueError("unknown agent")
`, []string{"2:1 enumdrift/missing-value error: set VALID_AGENTS rejects the valid DELEGATE agent orchestrator (tested against delegate.agent; the values are orchestrator, engineer, senior-engineer, lead-engineer)"}},
		{"py schema enum in code", "schema.py", `
HANDBACK_SCHEMA = {
    "type": "object",
    "properties": {
        "task_id": {"type": "string"},
        "status": {"type": "string", "enum": ["success", "failure", "partial", "blocked"]},
    },
}
`, []string{"6:46 enumdrift/missing-status error: the enum of the schema of status rejects the valid HANDBACK status escalate (a JSON schema in code; " + statuses + ")"}},
		{"go slices.Contains, return error", "validate.go", `package p

import (
	"errors"
	"slices"
)

type Handback struct {
	TaskID string ` + "`json:\"task_id\"`" + `
	Status string ` + "`json:\"status\"`" + `
}

var validStatuses = []string{"success", "failure", "partial", "blocked"}

func Validate(h Handback) error {
	if !slices.Contains(validStatuses, h.Status) {
		return errors.New("bad status")
	}
	return nil
}
`, []string{"13:21 enumdrift/missing-status error: set validStatuses rejects the valid HANDBACK status escalate (tested against h.Status; " + statuses + ")"}},
		{"go map of valid values, if !valid[s]", "validate.go", `package p

import "fmt"

type Delegate struct {
	TaskID string ` + "`json:\"task_id\"`" + `
	Agent  string ` + "`json:\"agent\"`" + `
}

var validAgents = map[string]bool{"engineer": true, "senior-engineer": true, "lead-engineer": true}

func ValidateDelegate(d Delegate) error {
	if !validAgents[d.Agent] {
		return fmt.Errorf("unknown agent %q", d.Agent)
	}
	return nil
}
`, []string{"10:19 enumdrift/missing-value error: table validAgents rejects the valid DELEGATE agent orchestrator (tested against d.Agent; the values are orchestrator, engineer, senior-engineer, lead-engineer)"}},
		{"py dict of valid statuses", "validate.py", `
STATUS_LABELS = {"success": "Done", "failure": "Failed", "partial": "Partly done", "blocked": "Blocked"}

def validate_handback(hb):
    if hb["status"] not in STATUS_LABELS:
        raise ValueError(hb["status"])
`, []string{"2:17 enumdrift/missing-status error: table STATUS_LABELS rejects the valid HANDBACK status escalate (tested against hb.status; " + statuses + ")"}},
		{"go map looked up to route", "route.go", `package p

type Handback struct {
	TaskID string ` + "`json:\"task_id\"`" + `
	Status string ` + "`json:\"status\"`" + `
}

var next = map[string]string{"success": "merge", "failure": "retry"}

func Route(h Handback) string {
	return next[h.Status]
}
`, nil},
		{"complete set is silent", "validate.py", `
VALID_STATUSES = {"success", "failure", "partial", "blocked", "escalate"}

def validate_handback(hb):
    if hb["status"] not in VALID_STATUSES:
        raise ValueError(hb["status"])
`, nil},

		// ---- negatives
		{"routing subset", "route.py", `
ENGINEERS = {"engineer", "senior-engineer"}

def route(delegate):
    if delegate["agent"] in ENGINEERS:
        assign(delegate)
`, nil},
		{"terminal statuses", "worker.py", `
TERMINAL = {"success", "failure"}

def poll(handback):
    if handback["status"] in TERMINAL:
        finish(handback)
`, nil},
		{"legacy set", "validate.py", `
LEGACY_STATUSES = {"success", "failure", "complete", "failed"}

def accept_old(hb):
    if hb["status"] not in LEGACY_STATUSES:
        raise ValueError(hb["status"])
`, nil},
		{"another protocol's statuses (JSend)", "client.py", `
JSEND_STATUSES = ("success", "fail", "error")

def read_handback_response(resp):
    if resp["status"] not in JSEND_STATUSES:
        raise ValueError(resp["status"])
`, nil},
		{"CI job statuses: one exact value", "handback_worker.py", `
PIPELINE_DONE = ("success", "failed", "canceled", "skipped")

def wait_for(job):
    if job["status"] not in PIPELINE_DONE:
        raise RuntimeError(job["status"])
`, nil},
		{"a predicate of terminal statuses", "worker.py", `
TERMINAL = {"success", "failure"}

def is_finished(handback):
    if handback["status"] in TERMINAL:
        return True
    return False
`, nil},
		{"a task board's statuses in a HANDBACK worker", "handback_worker.py", `
TASK_STATES = {"pending", "in_progress", "success", "failure"}

def update_task(task):
    if task["status"] not in TASK_STATES:
        raise ValueError(task["status"])
`, nil},
		{"statuses with a stray word still gate", "handback_validator.py", `
VALID_STATUSES = {"success", "failure", "partial", "blocked", "done"}

def validate(item):
    if item["status"] not in VALID_STATUSES:
        raise ValueError(item["status"])
`, []string{"2:1 enumdrift/missing-status error: set VALID_STATUSES rejects the valid HANDBACK status escalate (tested against item.status; " + statuses + ")"}},
		{"a test's table", "tests/test_validator.py", `
ACCEPTED = {"success", "failure"}

def test_accepts(handback):
    assert handback["status"] in ACCEPTED
`, nil},
		{"a blocklist", "validate.py", `
REFUSED = {"success", "failure"}

def validate_handback(hb):
    if hb["status"] in REFUSED:
        raise ValueError(hb["status"])
`, nil},
		{"an enum outside a schema's properties", "search.py", `
HANDBACK_FILTERS = {
    "status": {"type": "string", "enum": ["success", "failure", "partial"]},
}
`, nil},
		{"go routing subset", "route.go", `package p

import "slices"

type Delegate struct {
	TaskID string ` + "`json:\"task_id\"`" + `
	Agent  string ` + "`json:\"agent\"`" + `
}

var engineers = []string{"engineer", "senior-engineer"}

func Route(d Delegate) {
	if slices.Contains(engineers, d.Agent) {
		assign(d)
	}
}
`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := missingOf(t, v, c.path, c.src)
			if !slices.Equal(got, c.want) {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// TestAnalyzerValidators: the Go face reports the sets that gate a
// field's values and lack canonical ones, and not the sets that route.
func TestAnalyzerValidators(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), enumdrift.Analyzer, "validators")
}

// TestInlineGates: a collection written in the test itself gates as a
// named one does; one that routes, or that holds every value, does not.
func TestInlineGates(t *testing.T) {
	v := shapesVocabulary(t)
	src := `
def validate_handback(hb):
    if hb["status"] not in ("success", "failure", "partial"):
        raise ValueError(hb["status"])
    if hb["status"] in ("success", "failure"):
        archive(hb)
    if hb["status"] not in ["success", "failure", "partial", "blocked", "escalate"]:
        raise ValueError(hb["status"])
`
	var got []string
	for _, s := range analyze(t, v, "handback_validator.py", src) {
		if strings.Contains(s, "missing-") {
			got = append(got, s)
		}
	}
	want := []string{"3:29 enumdrift/missing-status ->"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestEnumConversionGates: converting the field to an Enum class that
// lacks values refuses valid messages (the conversion raises ValueError).
func TestEnumConversionGates(t *testing.T) {
	v := shapesVocabulary(t)
	src := `from enum import Enum

class Status(str, Enum):
    SUCCESS = "success"
    FAILURE = "failure"
    PARTIAL = "partial"

def parse(hb):
    return Status(hb["status"])
`
	f, err := extract.File("handback_parser.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, fd := range enumdrift.Analyze(f, v).Findings {
		got = append(got, fmt.Sprintf("%d:%d %s %s: %s", fd.Line, fd.Col, fd.Rule, fd.Severity, fd.Message))
	}
	want := []string{"3:7 enumdrift/missing-status error: enum Status rejects the valid HANDBACK statuses blocked, escalate (tested against hb.status; the statuses are success, failure, partial, blocked, escalate)"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
