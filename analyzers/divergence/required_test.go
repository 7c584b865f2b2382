package divergence

import (
	"strconv"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/languages/extract"
)

// scanPairs runs the scan face over source files: path, source, path,
// source...
func scanPairs(t *testing.T, m *Model, files ...string) []finding.Finding {
	t.Helper()
	var cands []Candidate
	for i := 0; i+1 < len(files); i += 2 {
		f, err := extract.File(files[i], []byte(files[i+1]))
		if err != nil {
			t.Fatal(err)
		}
		cands = append(cands, Candidates(f, m)...)
	}
	return Cluster(cands, m)
}

func only(fs []finding.Finding, rule string) []finding.Finding {
	var out []finding.Finding
	for _, f := range fs {
		if f.Rule == rule {
			out = append(out, f)
		}
	}
	return out
}

// TestRequiredFields: validations compared on the fields they require,
// with the spec (task_id, status, output, metrics for a HANDBACK; agent,
// formerly role, among a DELEGATE's) and with each other.
func TestRequiredFields(t *testing.T) {
	m := testModel(Options{})
	for _, tc := range []struct {
		name  string
		files []string
		want  []string // severity@path:line and words of the message, one per finding
	}{
		{"a field the protocol does not define", []string{"workers/check.py", `
REQUIRED_FIELDS = ["task_id", "status", "output", "metrics", "deliverables"]

def validate_handback(msg):
    for f in REQUIRED_FIELDS:
        if f not in msg:
            raise ValueError(f"missing {f}")
`}, []string{"error@workers/check.py:2|validate_handback requires deliverables, which the protocol does not define: a spec-valid HANDBACK fails this check"}},
		{"an optional field and a missing one", []string{"workers/check.py", `
def check_handback(msg):
    if "task_id" not in msg:
        raise ValueError("task_id")
    if msg.get("status") is None:
        raise ValueError("status")
    if "retry_count" not in msg:
        raise ValueError("retry_count")
`}, []string{
			"warning@workers/check.py:2|check_handback does not require output and metrics, which the spec requires: a HANDBACK without output passes this check",
			"error@workers/check.py:7|requires retry_count, which the spec makes optional: a spec-valid HANDBACK fails this check",
		}},
		{"a legacy name", []string{"api/delegate.py", `
class DelegateChecker:
    REQUIRED = ("task_id", "skill", "role", "scope", "success_criteria", "plan", "context")

    def validate(self, delegate):
        missing = [f for f in self.REQUIRED if f not in delegate]
        if missing:
            raise ValueError(missing)
`}, []string{"error@api/delegate.py:3|requires role, the former name of agent: a spec-valid DELEGATE fails this check (one that carries agent)"}},
		{"a model with a score", []string{"workers/model.py", `
@dataclass
class Handback:
    task_id: str
    status: str
    output: dict
    metrics: dict
    quality_score: float

def validate_handback(msg):
    return Handback(**msg)
`}, []string{"error@workers/model.py:8|requires quality_score, which the protocol does not define"}},
		{"copies that require different fields", []string{
			"validators/handback.py", `
def validate_handback(msg):
    for f in ("task_id", "status", "output", "metrics"):
        if f not in msg:
            raise ValueError(f)
`, "workers/worker.py", `
HANDBACK_REQUIRED = {"task_id", "status", "output", "metrics", "tests"}

def check_handback(h):
    missing = HANDBACK_REQUIRED - set(h.keys())
    if missing:
        return False
    return True
`}, []string{
			"warning@validators/handback.py:2|HANDBACK validation implemented 2 times",
			"error@workers/worker.py:2|check_handback requires tests, which the protocol does not define",
			"warning@workers/worker.py:4|copies of one HANDBACK validation require different fields: task_id, status, output, metrics in validate_handback (validators/handback.py:2, agrees with the spec); task_id, status, output, metrics, tests in check_handback",
		}},
		{"Go: a map checked in a loop", []string{"router/check.go", `package router

import "errors"

var handbackRequired = []string{"task_id", "status", "output", "deliverables"}

func ValidateHandback(m map[string]any) error {
	for _, f := range handbackRequired {
		if _, ok := m[f]; !ok {
			return errors.New("missing " + f)
		}
	}
	return nil
}
`}, []string{
			"error@router/check.go:5|ValidateHandback requires deliverables, which the protocol does not define",
			"warning@router/check.go:7|does not require metrics, which the spec requires: a HANDBACK without metrics passes this check",
		}},

		// negatives: silent
		{"optional fields checked only when present", []string{"workers/check.py", `
def validate_handback(msg):
    for f in ("task_id", "status", "output", "metrics"):
        if f not in msg:
            raise ValueError(f)
    if "retry_count" in msg and not isinstance(msg["retry_count"], int):
        raise ValueError("retry_count")
`}, nil},
		{"the other fields checked elsewhere in the function", []string{"workers/check.py", `
def validate_handback(msg):
    for f in ("task_id", "status"):
        if f not in msg:
            raise ValueError(f)
    if not isinstance(msg["output"], dict):
        raise ValueError("output")
    if msg["metrics"]["quality"] > 1:
        raise ValueError("quality")
`}, nil},
		{"an event with task_id and status", []string{"events/check.py", `
def validate_event(evt):
    for f in ("task_id", "status", "timestamp", "source"):
        if f not in evt:
            raise ValueError(f)
`}, nil},
		{"a tool reply", []string{"tools/reply.py", `
def check_tool_result(reply):
    for f in ("status", "output", "error", "tool_name"):
        if f not in reply:
            return False
    return True
`}, nil},
		{"an HTTP body", []string{"api/http.go", `package api

import "errors"

func validateBody(body map[string]any) error {
	for _, f := range []string{"status", "output", "request_id"} {
		if body[f] == nil {
			return errors.New(f)
		}
	}
	return nil
}
`}, nil},
		{"one function validating both kinds", []string{"workers/any.py", `
DELEGATE_REQUIRED = ["task_id", "skill", "agent", "scope", "success_criteria", "plan", "context"]
HANDBACK_REQUIRED = ["task_id", "status", "output", "metrics"]

def validate_delegate(msg):
    for f in DELEGATE_REQUIRED:
        if f not in msg:
            raise ValueError(f)
    if "status" in msg:
        for f in HANDBACK_REQUIRED:
            if f not in msg:
                raise ValueError(f)
`}, nil},
		{"a handback of another protocol", []string{"tools/proof.py", `
REQUIRED_COMMON_FIELDS = {"task_id", "tracking_issue", "release_head_ref_oid", "executed_at", "artifacts"}

def validate_handback(handback, queue):
    errors = []
    missing = REQUIRED_COMMON_FIELDS - set(handback)
    if missing:
        errors.append(f"missing common fields: {sorted(missing)}")
    if handback.get("status") not in ("passed", "proven"):
        errors.append("status")
    return errors
`}, nil},
		{"a sub-record of the message", []string{"workers/out.py", `
def validate_handback_output(out):
    for f in ("deliverables", "tests"):
        if f not in out:
            raise ValueError(f)
`}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := scanPairs(t, m, tc.files...)
			var got []finding.Finding
			for _, f := range fs {
				if f.Rule == RuleRequiredFields || f.Rule == RuleDuplicateValidation {
					got = append(got, f)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%d findings, want %d:\n%s", len(got), len(tc.want), render(got))
			}
			for i, w := range tc.want {
				place, words, _ := strings.Cut(w, "|")
				f := got[i]
				if at := f.Severity.String() + "@" + f.Path + ":" + strconv.Itoa(f.Line); at != place || !strings.Contains(f.Message, words) {
					t.Errorf("finding %d: %s %s\nwant %s %s", i, at, f.Message, place, words)
				}
			}
		})
	}
}

func render(fs []finding.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.Rule + " " + f.Severity.String() + "@" + f.Path + ":" + strconv.Itoa(f.Line) + " " + f.Message + "\n")
	}
	return b.String()
}
