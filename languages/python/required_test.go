package python

import (
	"fmt"
	"strings"
	"testing"
)

// requiredOf renders the required fields of every function of src:
// "name: field@line/how/receiver ...", one line per function that has any.
func requiredOf(t *testing.T, src string) string {
	t.Helper()
	f, err := Extract("x.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, fn := range f.Functions {
		if len(fn.Required) == 0 {
			continue
		}
		var parts []string
		for _, r := range fn.Required {
			parts = append(parts, fmt.Sprintf("%s@%d/%s/%s", r.Field, r.Pos.Line, r.How, r.Receiver))
		}
		lines = append(lines, fn.Name+": "+strings.Join(parts, " "))
	}
	return strings.Join(lines, "\n")
}

// TestRequired: the ways a validation says a field is required, and the
// look-alikes that say nothing of it.
func TestRequired(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"chain of tests", `
def validate_handback(msg):
    if "task_id" not in msg:
        raise ValueError("task_id")
    if msg.get("status") is None:
        return False
    if not msg.get("output") or "metrics" not in msg:
        errors.append("output")
`, `validate_handback: task_id@3/test/msg status@5/test/msg output@7/test/msg metrics@7/test/msg`},
		{"a module constant in a loop", `
REQUIRED_FIELDS = ["task_id", "status", "deliverables"]

def validate_handback(msg):
    for f in REQUIRED_FIELDS:
        if f not in msg:
            raise ValueError(f)
`, `validate_handback: task_id@2/list/msg status@2/list/msg deliverables@2/list/msg`},
		{"a class attribute, missing collected", `
class Validator:
    REQUIRED = {"task_id", "role"}

    def check_delegate(self, d):
        missing = []
        for f in self.REQUIRED:
            if f not in d:
                missing.append(f)
        if missing:
            raise ValueError(missing)
`, `Validator.check_delegate: task_id@3/list/d role@3/list/d`},
		{"a comprehension and a set difference", `
def validate_handback(msg):
    missing = [f for f in ("task_id", "status") if f not in msg]
    if missing:
        raise ValueError(missing)

def check_handback(raw):
    data = json.loads(raw)
    missing_fields = {"task_id", "output"} - set(data.keys())
    if missing_fields:
        return False
`, "validate_handback: task_id@3/list/msg status@3/list/msg\ncheck_handback: task_id@9/list/data output@9/list/data"},
		{"any over a generator", `
def validate(msg):
    if any(k not in msg for k in ["task_id", "status"]):
        raise ValueError("incomplete")
`, `validate: task_id@3/list/msg status@3/list/msg`},
		{"not all, not issubset", `
REQUIRED = ("task_id", "status")

def validate_handback(msg):
    if not all(k in msg for k in REQUIRED):
        raise ValueError("incomplete")

def check_delegate(d):
    if not {"task_id", "scope"}.issubset(d.keys()):
        return False
`, "validate_handback: task_id@2/list/msg status@2/list/msg\ncheck_delegate: task_id@9/list/d scope@9/list/d"},
		{"an assert", `
def validate_delegate(d):
    assert "task_id" in d and "scope" in d
`, `validate_delegate: task_id@3/test/d scope@3/test/d`},
		{"a dataclass and a pydantic model", `
@dataclass
class Handback:
    task_id: str
    tests: list
    notes: str = ""

class Report(BaseModel):
    task_id: str
    quality_score: float = Field(...)
    summary: Optional[str]
    extra: str = "x"

def validate_handback(msg):
    return Handback(**msg)

def check_report(msg):
    return Report.model_validate(msg)
`, "validate_handback: task_id@4/model/msg tests@5/model/msg\ncheck_report: task_id@9/model/msg quality_score@10/model/msg"},
		{"a JSON schema in code", `
SCHEMA = {"type": "object", "required": ["task_id", "status"], "properties": {}}

def validate_handback(msg):
    jsonschema.validate(instance=msg, schema=SCHEMA)

def check_handback(msg):
    Draft7Validator(SCHEMA).validate(msg)
`, "validate_handback: task_id@2/schema/msg status@2/schema/msg\ncheck_handback: task_id@2/schema/msg status@2/schema/msg"},

		// negatives
		{"optional fields checked only when present", `
def validate_handback(msg):
    if "retry_count" in msg and not isinstance(msg["retry_count"], int):
        raise ValueError("retry_count")
    if msg.get("flags") is not None and not msg["flags"]:
        raise ValueError("flags")
`, ``},
		{"a test whose branch does not reject", `
def validate_handback(msg):
    if "notes" not in msg:
        msg["notes"] = ""
    if "task_id" not in msg:
        log.info("no id")
`, ``},
		{"a function not named for validation", `
def route(msg):
    if "task_id" not in msg:
        raise ValueError("task_id")
`, ``},
		{"a sub-record, not the input", `
def validate_handback(msg):
    out = msg["output"]
    if "tests" not in out:
        raise ValueError("tests")
    if "quality" not in msg["metrics"]:
        raise ValueError("quality")
`, ``},
		{"a loop that does not test absence", `
REQUIRED = ["task_id", "status"]

def validate_handback(msg):
    for f in REQUIRED:
        print(f)
    for g in REQUIRED:
        if not isinstance(msg[g], str):
            raise TypeError(g)
`, ``},
		{"missing fields only logged", `
def validate_handback(msg):
    missing = [f for f in ("task_id", "status") if f not in msg]
    if missing:
        log.warning("missing %s", missing)
    return True
`, ``},
		{"a model class not built from the input", `
@dataclass
class Handback:
    task_id: str

def validate_handback(msg):
    h = Handback(task_id="x")
    return h
`, ``},
		{"a dict with required that is no schema", `
CONFIG = {"required": ["task_id"]}

def validate_handback(msg):
    jsonschema.validate(msg, CONFIG)
`, ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := requiredOf(t, tc.src); got != strings.TrimSpace(tc.want) {
				t.Errorf("required:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestRequiredBudget: a function whose loops nest so deep that looking
// again at their bodies would cost quadratic time is read within a budget,
// and a reading cut short reports nothing (a field it missed would be
// judged missing).
func TestRequiredBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("def validate_handback(msg):\n    for f in (\"task_id\", \"status\"):\n        if f not in msg:\n            raise ValueError(f)\n")
	indent := "    "
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "%sfor v%d in msg:\n", indent, i)
		indent += " "
	}
	b.WriteString(indent + "y = [" + strings.Repeat("1, ", 400) + "]\n")
	if got := requiredOf(t, b.String()); got != "" {
		t.Errorf("required %q, want nothing from a reading cut short", got)
	}
	// the same function without the nest is read
	short := "def validate_handback(msg):\n    for f in (\"task_id\", \"status\"):\n        if f not in msg:\n            raise ValueError(f)\n"
	if got := requiredOf(t, short); got != "validate_handback: task_id@2/list/msg status@2/list/msg" {
		t.Errorf("required %q", got)
	}
}
