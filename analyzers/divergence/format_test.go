package divergence

import (
	"cmp"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/languages/extract"
)

func formatFindings(t *testing.T, path, src string) []finding.Finding {
	t.Helper()
	f, broken := extract.Parse(path, []byte(src))
	if len(broken) > 0 {
		t.Fatalf("%s does not parse: %v", path, broken[0].Err)
	}
	return Formats(f, testModel(Options{}))
}

const pyHeader = "import re\n\n"

func TestFormats(t *testing.T) {
	for _, tc := range []struct {
		name, path, src string
		// want are substrings of the one finding's message; none: silent
		want []string
		sev  finding.Severity
		rule string // RuleFormat unless given
	}{
		{name: "a stricter pattern rejects a valid id", path: "agents/validate.py", src: pyHeader + `
TASK_ID_RE = re.compile(r"^\d{4}-\d{2}-\d{2}-[a-z0-9-]+$")

def validate_delegate(d):
    if not TASK_ID_RE.fullmatch(d["task_id"]):
        raise ValueError("bad task_id")
    if len(d["scope"].split()) < 15:
        raise ValueError("scope")
    return d["skill"]
`, want: []string{"`aaa` is a valid task_id that validate_delegate rejects", "TASK_ID_RE `^\\d{4}", "(fullmatch)",
			"the spec's format is `^[a-z0-9][a-z0-9\\-]{1,48}[a-z0-9]$` (embedded:protocol-core-v1.0.yaml:17)"}, sev: finding.Error},
		{name: "a laxer pattern accepts an invalid id", path: "agents/validate.py", src: pyHeader + `
def validate_handback(h):
    if re.match(r"[a-z0-9_-]+", h["task_id"]) is None:
        return False
    return h["status"] in ("success", "failure") and h["output"] is not None
`, want: []string{"validate_handback accepts the task_id", "which the spec rejects", "(re.match: anchored at the start only)"}, sev: finding.Error},
		{name: "a length bound beside the pattern", path: "agents/validate.py", src: pyHeader + `
ID = re.compile(r"^[a-z0-9][a-z0-9-]{1,98}[a-z0-9]$")

def validate_delegate(d):
    tid = d.get("task_id", "")
    if len(tid) > 40 or not ID.match(tid):
        raise ValueError("bad task_id")
    return d["scope"], d["skill"]
`, want: []string{"`" + strings.Repeat("a", 41) + "` is a valid task_id", "and at most 40 characters"}, sev: finding.Error},
		{name: "the spec's pattern, however called", path: "agents/validate.py", src: pyHeader + `
ID = re.compile(r"^[a-z0-9][a-z0-9\-]{1,48}[a-z0-9]$")

def validate_delegate(d):
    if not ID.match(d["task_id"]) or not re.search(r"^[a-z0-9][a-z0-9-]{1,48}[a-z0-9]\Z", d["task_id"]):
        raise ValueError("bad task_id")
    return d["scope"], d["skill"]
`},
		{name: "a pattern RE2 cannot read is a note", path: "agents/validate.py", src: pyHeader + `
def validate_delegate(d):
    if not re.fullmatch(r"(?!-)[a-z0-9-]{3,50}(?<!-)", d["task_id"]):
        raise ValueError("bad task_id")
    return d["scope"], d["skill"]
`, want: []string{"validate_delegate's pattern for task_id is not compared with the spec's: RE2 has no Perl syntax: `(?!`"}, sev: finding.Note, rule: RuleFormatUnchecked},
		{name: "go: a pattern of its own", path: "pkg/check.go", src: `package pkg

import (
	"errors"
	"regexp"
)

var taskIDRe = regexp.MustCompile(` + "`^[a-z][a-z0-9-]{1,48}[a-z0-9]$`" + `)

func ValidateDelegate(d Delegate) error {
	if !taskIDRe.MatchString(d.TaskID) {
		return errors.New("bad task_id")
	}
	if d.Skill == "" || d.Scope == "" {
		return errors.New("missing")
	}
	return nil
}
`, want: []string{"is a valid task_id that ValidateDelegate rejects", "taskIDRe `^[a-z][a-z0-9-]{1,48}[a-z0-9]$` (MatchString: anywhere in the value)"}, sev: finding.Error},
		{name: "go: the spec's pattern", path: "pkg/check.go", src: `package pkg

import (
	"errors"
	"regexp"
)

var taskIDRe = regexp.MustCompile(` + "`^[a-z0-9][a-z0-9\\-]{1,48}[a-z0-9]$`" + `)

func ValidateDelegate(d Delegate) error {
	if !taskIDRe.MatchString(d.TaskID) {
		return errors.New("bad task_id")
	}
	return check(d.Skill, d.Scope)
}
`},
		{name: "a JSON schema in code", path: "agents/schema.py", src: `
DELEGATE_SCHEMA = {
    "type": "object",
    "required": ["task_id", "skill", "scope"],
    "properties": {
        "task_id": {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]{1,48}[a-z0-9]$", "maxLength": 20},
        "scope": {"type": "string", "pattern": "^.+$"},
    },
}
`, want: []string{"`" + strings.Repeat("a", 21) + "` is a valid task_id that the JSON schema rejects",
			"(a JSON schema's pattern: anywhere in the value) and at most 20 characters"}, sev: finding.Error},
		{name: "go: a JSON schema in code", path: "pkg/schema.go", src: `package pkg

// the DELEGATE schema
func DelegateSchema() map[string]any {
	return map[string]any{
		"title":    "DELEGATE",
		"required": []string{"task_id", "skill", "scope"},
		"properties": map[string]any{
			"task_id": map[string]any{"type": "string", "pattern": "[a-z0-9-]{3,50}"},
		},
	}
}
`, want: []string{"the JSON schema in DelegateSchema accepts the task_id `aa-`, which the spec rejects"}, sev: finding.Error},
		// negatives: no protocol field, no evidence, no validation, tests
		{name: "an email pattern", path: "agents/validate.py", src: pyHeader + `
def validate_delegate(d):
    if not re.fullmatch(r"[^@]+@[^@]+", d["email"]):
        raise ValueError("bad email")
    return d["task_id"], d["scope"], d["skill"]
`},
		{name: "another record's task_id, no evidence", path: "worker/jobs.py", src: pyHeader + `
JOB_RE = re.compile(r"^[0-9a-f]{32}$")

def check_job(job):
    if not JOB_RE.fullmatch(job.task_id):
        raise ValueError("not a celery task id")
    return job.result
`},
		{name: "a routing by pattern", path: "agents/route.py", src: pyHeader + `
LEGACY = re.compile(r"^T\d+$")

def route_delegate(d):
    if LEGACY.match(d["task_id"]):
        return convert(d["task_id"], d["scope"], d["skill"])
    return d
`},
		{name: "a job queue's schema", path: "worker/schema.py", src: `
JOB_SCHEMA = {
    "type": "object",
    "properties": {"task_id": {"type": "string", "pattern": "^[0-9a-f]{32}$"}, "queue": {"type": "string"}},
}
`},
		{name: "a pattern that is no property", path: "agents/schema.py", src: `
DELEGATE_RULES = {"task_id": {"pattern": "^[0-9a-f]{32}$"}, "scope": {"min_words": 15}}
`},
		{name: "a test file", path: "tests/test_validate.py", src: pyHeader + `
def validate_delegate(d):
    if not re.fullmatch(r"[A-Z]+", d["task_id"]):
        raise ValueError("bad")
    return d["scope"], d["skill"]
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := formatFindings(t, tc.path, tc.src)
			if len(tc.want) == 0 {
				if len(got) != 0 {
					t.Fatalf("want silence, got %v", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("want one finding, got %v", got)
			}
			fd := got[0]
			if rule := cmp.Or(tc.rule, RuleFormat); fd.Rule != rule || fd.Severity != tc.sev {
				t.Errorf("got %s %s, want %s %s", fd.Rule, fd.Severity, rule, tc.sev)
			}
			for _, w := range tc.want {
				if !strings.Contains(fd.Message, w) {
					t.Errorf("message lacks %q:\n%s", w, fd.Message)
				}
			}
		})
	}
}
