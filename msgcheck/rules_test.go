package msgcheck_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/msgcheck"
)

// ---------------------------------------------------------------------------
// helpers shared by the msgcheck_test files

// words returns n distinct-looking words separated by single spaces.
func words(n int) string {
	return wordsSep(n, " ")
}

// wordsSep returns n words joined by sep.
func wordsSep(n int, sep string) string {
	w := make([]string, n)
	for i := range w {
		w[i] = "w" + string(rune('a'+i%26))
	}
	return strings.Join(w, sep)
}

// repoRoot makes a repository with skills both as directories and as .md
// files, under skills/ and src/skills/, plus a non-skill file.
func repoRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	mkdir(t, root, "skills/queue-management")
	touch(t, root, "skills/docs-helper.md")
	touch(t, root, "skills/notes.txt")
	mkdir(t, root, "src/skills/infra-tools")
	touch(t, root, "src/skills/other.md")
	return root
}

func mkdir(t *testing.T, root, rel string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(root, filepath.FromSlash(rel)), 0o755); err != nil {
		t.Fatal(err)
	}
}

func touch(t *testing.T, root, rel string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("# skill\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func newValidator(t testing.TB, root string, specs ...*msgcheck.Spec) *msgcheck.Validator {
	t.Helper()
	if len(specs) == 0 {
		specs = []*msgcheck.Spec{msgcheck.DefaultSpec()}
	}
	v, err := msgcheck.New(msgcheck.Options{Root: root}, specs...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// describe renders findings as "rule | message" for exact comparison.
func describe(fs []msgcheck.Finding) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, f.Rule+" | "+f.Message)
	}
	return out
}

// located renders findings as "line:col rule | message".
func located(fs []msgcheck.Finding) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, itoa(f.Line)+":"+itoa(f.Column)+" "+f.Rule+" | "+f.Message)
	}
	return out
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// expect checks the exact errors and warnings of a result, and that Valid
// agrees with the errors.
func expect(t *testing.T, res msgcheck.Result, errs, warns []string) {
	t.Helper()
	if errs == nil {
		errs = []string{}
	}
	if warns == nil {
		warns = []string{}
	}
	if got := describe(res.Errors); !slices.Equal(got, errs) {
		t.Errorf("errors:\n got  %q\n want %q", got, errs)
	}
	if got := describe(res.Warnings); !slices.Equal(got, warns) {
		t.Errorf("warnings:\n got  %q\n want %q", got, warns)
	}
	if res.Valid != (len(errs) == 0) {
		t.Errorf("Valid = %v, want %v", res.Valid, len(errs) == 0)
	}
}

// validDelegate is the seed's DELEGATE, with scope, plan and context long
// enough to meet the seed's own rules.
func validDelegate() map[string]any {
	return map[string]any{
		"task_id":          "feature-x-001",
		"skill":            "queue-management",
		"agent":            "senior-engineer",
		"scope":            "Implement feature X with comprehensive testing and documentation across all modules of the queue service today",
		"success_criteria": []any{"All tests pass", "Code reviewed and approved"},
		"plan":             []any{"Design the API", "Implement core logic", "Write the tests", "Document the feature"},
		"context":          "Feature X is critical for the Q3 roadmap. See SPEC.md for the detailed requirements and the acceptance criteria of every module.",
	}
}

// validHandback is the seed's HANDBACK, verbatim.
func validHandback() map[string]any {
	return map[string]any{
		"task_id": "feature-x-001",
		"status":  "success",
		"output":  map[string]any{"feature_implemented": true, "tests_passing": int64(1203)},
		"metrics": map[string]any{
			"quality":          0.96,
			"tokens":           int64(45000),
			"cost":             0.32,
			"duration_seconds": int64(3600),
		},
	}
}

func metrics(m map[string]any) map[string]any { return m["metrics"].(map[string]any) }

const agentList = "[orchestrator, engineer, senior-engineer, lead-engineer, principal-engineer, security-engineer, quality-engineer, model-engineer]"
const statusList = "[success, failure, partial, blocked, escalate]"

type row struct {
	name   string
	mutate func(m map[string]any)
	errs   []string
	warns  []string
}

func set(field string, v any) func(map[string]any) {
	return func(m map[string]any) { m[field] = v }
}

func rename(from, to string) func(map[string]any) {
	return func(m map[string]any) { m[to] = m[from]; delete(m, from) }
}

func del(field string) func(map[string]any) {
	return func(m map[string]any) { delete(m, field) }
}

func setMetric(field string, v any) func(map[string]any) {
	return func(m map[string]any) { metrics(m)[field] = v }
}

func delMetric(field string) func(map[string]any) {
	return func(m map[string]any) { delete(metrics(m), field) }
}

// ---------------------------------------------------------------------------
// DELEGATE

func TestDelegateRules(t *testing.T) {
	v := newValidator(t, repoRoot(t))
	long50 := "a" + strings.Repeat("b", 48) + "c"
	long51 := "a" + strings.Repeat("b", 49) + "c"
	long80 := "a" + strings.Repeat("b", 78) + "c"
	taskIDErr := func(got string) string {
		return "msgcheck/delegate-task-id-format | task_id: must be kebab-case, 3-50 chars (got '" + got + "')"
	}
	rows := []row{
		{name: "valid", mutate: func(map[string]any) {}},

		// required fields
		{name: "missing task_id", mutate: del("task_id"), errs: []string{"msgcheck/delegate-task-id-required | task_id: required field is missing"}},
		{name: "missing skill", mutate: del("skill"), errs: []string{"msgcheck/delegate-skill-required | skill: required field is missing"}},
		{name: "missing agent", mutate: del("agent"), errs: []string{"msgcheck/delegate-agent-required | agent: required field is missing"}},
		{name: "missing scope", mutate: del("scope"), errs: []string{"msgcheck/delegate-scope-required | scope: required field is missing"}},
		{name: "missing success_criteria", mutate: del("success_criteria"), errs: []string{"msgcheck/delegate-success-criteria-required | success_criteria: required field is missing"}},
		{name: "missing plan", mutate: del("plan"), errs: []string{"msgcheck/delegate-plan-required | plan: required field is missing"}},
		{name: "missing context", mutate: del("context"), errs: []string{"msgcheck/delegate-context-required | context: required field is missing"}},
		{name: "missing two fields in spec order", mutate: func(m map[string]any) { delete(m, "context"); delete(m, "task_id") }, errs: []string{
			"msgcheck/delegate-task-id-required | task_id: required field is missing",
			"msgcheck/delegate-context-required | context: required field is missing",
		}},
		{name: "null task_id is present, not missing", mutate: set("task_id", nil), errs: []string{"msgcheck/delegate-task-id-type | task_id: must be a string (got null)"}},

		// task_id format
		{name: "task_id not kebab-case", mutate: set("task_id", "TaskID001"), errs: []string{taskIDErr("TaskID001")}},
		{name: "task_id 2 chars", mutate: set("task_id", "ab"), errs: []string{taskIDErr("ab")}},
		{name: "task_id 51 chars", mutate: set("task_id", long51), errs: []string{taskIDErr(long51)}},
		{name: "task_id 3 chars", mutate: set("task_id", "abc")},
		{name: "task_id 50 chars", mutate: set("task_id", long50)},
		{name: "task_id digits only", mutate: set("task_id", "123")},
		{name: "task_id inner double hyphen", mutate: set("task_id", "a--b")},
		{name: "task_id leading hyphen", mutate: set("task_id", "-abc"), errs: []string{taskIDErr("-abc")}},
		{name: "task_id trailing hyphen", mutate: set("task_id", "abc-"), errs: []string{taskIDErr("abc-")}},
		{name: "task_id underscore", mutate: set("task_id", "feature_x"), errs: []string{taskIDErr("feature_x")}},
		{name: "task_id trailing newline", mutate: set("task_id", "feature-x\n"), errs: []string{taskIDErr("feature-x\n")}},
		{name: "task_id non-ascii", mutate: set("task_id", "tâche-1"), errs: []string{taskIDErr("tâche-1")}},
		{name: "task_id long value shortened in message", mutate: set("task_id", long80), errs: []string{taskIDErr(long80[:57] + "...")}},
		{name: "task_id integer", mutate: set("task_id", int64(123)), errs: []string{"msgcheck/delegate-task-id-type | task_id: must be a string (got integer)"}},

		// skill existence
		{name: "skill dir under skills", mutate: set("skill", "queue-management")},
		{name: "skill md under skills", mutate: set("skill", "docs-helper")},
		{name: "skill md under src/skills", mutate: set("skill", "other")},
		{name: "skill dir under src/skills", mutate: set("skill", "infra-tools")},
		{name: "unknown skill", mutate: set("skill", "foo-bar"), errs: []string{"msgcheck/delegate-skill-exists | skill: unknown skill 'foo-bar' (not found in skills/ or src/skills/)"}},
		{name: "skill named with .md suffix", mutate: set("skill", "docs-helper.md"), errs: []string{"msgcheck/delegate-skill-exists | skill: unknown skill 'docs-helper.md' (not found in skills/ or src/skills/)"}},
		{name: "non-md file is not a skill", mutate: set("skill", "notes"), errs: []string{"msgcheck/delegate-skill-exists | skill: unknown skill 'notes' (not found in skills/ or src/skills/)"}},
		{name: "skill as a path", mutate: set("skill", "skills/queue-management"), errs: []string{"msgcheck/delegate-skill-exists | skill: invalid skill 'skills/queue-management' (a name in skills/ or src/skills/, without /, \\ or ..)"}},
		{name: "skill wrong case", mutate: set("skill", "Queue-Management"), errs: []string{"msgcheck/delegate-skill-exists | skill: unknown skill 'Queue-Management' (not found in skills/ or src/skills/)"}},
		{name: "skill boolean", mutate: set("skill", true), errs: []string{"msgcheck/delegate-skill-type | skill: must be a string (got boolean)"}},

		// agent enum
		{name: "agent unknown", mutate: set("agent", "agent-xyz"), errs: []string{"msgcheck/delegate-agent-enum | agent: invalid agent 'agent-xyz' (must be one of " + agentList + ")"}},
		{name: "agent wrong case", mutate: set("agent", "Engineer"), errs: []string{"msgcheck/delegate-agent-enum | agent: invalid agent 'Engineer' (must be one of " + agentList + ")"}},
		{name: "agent integer", mutate: set("agent", int64(7)), errs: []string{"msgcheck/delegate-agent-type | agent: must be a string (got integer)"}},

		// role, agent's former name (formerly in the spec): one finding
		// at role, no unknown field, no missing agent; the value is
		// checked as agent's
		{name: "role for agent", mutate: rename("agent", "role"), errs: []string{"msgcheck/delegate-agent-renamed | role: the protocol calls this field agent"}},
		{name: "role for agent with a drifted value", mutate: func(m map[string]any) { rename("agent", "role")(m); m["role"] = "senior_engineer" }, errs: []string{
			"msgcheck/delegate-agent-renamed | role: the protocol calls this field agent",
			"msgcheck/delegate-agent-enum | role: invalid agent 'senior_engineer' (must be one of " + agentList + ")",
		}},
		{name: "role for agent of the wrong type", mutate: func(m map[string]any) { rename("agent", "role")(m); m["role"] = int64(3) }, errs: []string{
			"msgcheck/delegate-agent-renamed | role: the protocol calls this field agent",
			"msgcheck/delegate-agent-type | role: must be a string (got integer)",
		}},
		{name: "role beside agent", mutate: set("role", "engineer"), warns: []string{"msgcheck/delegate-agent-renamed | role: the protocol calls this field agent, and agent holds it already in this DELEGATE (role is ignored)"}},
		{name: "role beside agent, agent's value checked", mutate: func(m map[string]any) { m["role"] = "engineer"; m["agent"] = "wizard" },
			errs:  []string{"msgcheck/delegate-agent-enum | agent: invalid agent 'wizard' (must be one of " + agentList + ")"},
			warns: []string{"msgcheck/delegate-agent-renamed | role: the protocol calls this field agent, and agent holds it already in this DELEGATE (role is ignored)"}},
		{name: "Role is not role", mutate: rename("agent", "Role"),
			errs:  []string{"msgcheck/delegate-agent-required | agent: required field is missing"},
			warns: []string{"msgcheck/delegate-unknown-field | Unknown field 'Role' in DELEGATE (will be ignored)"}},

		// scope words
		{name: "scope 13 words", mutate: set("scope", words(13)), errs: []string{"msgcheck/delegate-scope-words | scope: must be >=15 words (13 provided)"}},
		{name: "scope 14 words", mutate: set("scope", words(14)), errs: []string{"msgcheck/delegate-scope-words | scope: must be >=15 words (14 provided)"}},
		{name: "scope exactly 15 words", mutate: set("scope", words(15))},
		{name: "scope empty", mutate: set("scope", ""), errs: []string{"msgcheck/delegate-scope-words | scope: must be >=15 words (0 provided)"}},
		{name: "scope extra spaces do not add words", mutate: set("scope", "  "+wordsSep(14, "  \t ")+"\n"), errs: []string{"msgcheck/delegate-scope-words | scope: must be >=15 words (14 provided)"}},
		{name: "scope words split by newlines", mutate: set("scope", wordsSep(15, "\n"))},
		{name: "scope NBSP separates words", mutate: set("scope", wordsSep(15, "\u00a0"))},
		{name: "scope EM SPACE separates words", mutate: set("scope", wordsSep(15, "\u2003"))},
		{name: "scope IDEOGRAPHIC SPACE separates words", mutate: set("scope", wordsSep(15, "\u3000"))},
		{name: "scope NBSP 13 words counted as 13", mutate: set("scope", wordsSep(13, "\u00a0")), errs: []string{"msgcheck/delegate-scope-words | scope: must be >=15 words (13 provided)"}},
		{name: "scope punctuation tokens count", mutate: set("scope", words(13)+" - —")},
		{name: "scope punctuation token counts once", mutate: set("scope", words(12)+" — !"), errs: []string{"msgcheck/delegate-scope-words | scope: must be >=15 words (14 provided)"}},
		{name: "scope list", mutate: set("scope", []any{words(15)}), errs: []string{"msgcheck/delegate-scope-type | scope: must be a string (got array)"}},

		// success_criteria
		{name: "success_criteria one item", mutate: set("success_criteria", []any{"All tests pass"})},
		{name: "success_criteria empty", mutate: set("success_criteria", []any{}), errs: []string{"msgcheck/delegate-success-criteria-items | success_criteria: must have >=1 items (0 provided)"}},
		{name: "success_criteria non-string item", mutate: set("success_criteria", []any{"All tests pass", int64(5)}), errs: []string{"msgcheck/delegate-success-criteria-type | success_criteria[1]: must be a string (got integer)"}},
		{name: "success_criteria blank item", mutate: set("success_criteria", []any{"All tests pass", "  "}), errs: []string{"msgcheck/delegate-success-criteria-words | success_criteria[1]: each criterion must be a non-empty string (got '  ')"}},
		{name: "success_criteria empty item", mutate: set("success_criteria", []any{""}), errs: []string{"msgcheck/delegate-success-criteria-words | success_criteria[0]: each criterion must be a non-empty string (got '')"}},
		{name: "success_criteria string", mutate: set("success_criteria", "All tests pass"), errs: []string{"msgcheck/delegate-success-criteria-type | success_criteria: must be an array (got string)"}},

		// plan
		{name: "plan one item", mutate: set("plan", []any{"Design the API"}), errs: []string{"msgcheck/delegate-plan-items | plan: must have >=2 items (1 provided)"}},
		{name: "plan empty", mutate: set("plan", []any{}), errs: []string{"msgcheck/delegate-plan-items | plan: must have >=2 items (0 provided)"}},
		{name: "plan two items", mutate: set("plan", []any{"Design the API", "Write the tests"})},
		{name: "plan step too few words", mutate: set("plan", []any{"Design the API", "Test it"}), errs: []string{"msgcheck/delegate-plan-words | plan[1]: each step must be >=3 words (got 'Test it')"}},
		{name: "plan step 3 words under 9 chars", mutate: set("plan", []any{"Design the API", "Do a b"}), errs: []string{"msgcheck/delegate-plan-length | plan[1]: each step must be >=3 words (got 'Do a b')"}},
		{name: "plan step 3 words exactly 9 chars", mutate: set("plan", []any{"Design the API", "Do it now"})},
		{name: "plan two bad steps in order", mutate: set("plan", []any{"Test it", "Go"}), errs: []string{
			"msgcheck/delegate-plan-words | plan[0]: each step must be >=3 words (got 'Test it')",
			"msgcheck/delegate-plan-words | plan[1]: each step must be >=3 words (got 'Go')",
		}},
		{name: "plan one bad item is both too short and too few", mutate: set("plan", []any{"Test it"}), errs: []string{
			"msgcheck/delegate-plan-items | plan: must have >=2 items (1 provided)",
			"msgcheck/delegate-plan-words | plan[0]: each step must be >=3 words (got 'Test it')",
		}},
		{name: "plan non-string step", mutate: set("plan", []any{"Design the API", int64(5)}), errs: []string{"msgcheck/delegate-plan-type | plan[1]: must be a string (got integer)"}},
		{name: "plan object", mutate: set("plan", map[string]any{"a": "Design the API"}), errs: []string{"msgcheck/delegate-plan-type | plan: must be an array (got object)"}},

		// context oneOf
		{name: "context 19 words", mutate: set("context", words(19)), errs: []string{"msgcheck/delegate-context-words | context: must be >=20 words (19 provided)"}},
		{name: "context 20 words", mutate: set("context", words(20))},
		{name: "context list of strings", mutate: set("context", []any{"see SPEC.md", "see NOTES.md"})},
		{name: "context list of one short string", mutate: set("context", []any{"x"})},
		{name: "context empty list", mutate: set("context", []any{}), errs: []string{"msgcheck/delegate-context-items | context: must have >=1 items (0 provided)"}},
		{name: "context list with a number", mutate: set("context", []any{"see SPEC.md", int64(1)}), errs: []string{"msgcheck/delegate-context-type | context[1]: must be a string (got integer)"}},
		{name: "context integer", mutate: set("context", int64(42)), errs: []string{"msgcheck/delegate-context-type | context: must be a string or an array (got integer)"}},
		{name: "context float", mutate: set("context", 4.5), errs: []string{"msgcheck/delegate-context-type | context: must be a string or an array (got number)"}},
		{name: "context object", mutate: set("context", map[string]any{}), errs: []string{"msgcheck/delegate-context-type | context: must be a string or an array (got object)"}},
		{name: "context null", mutate: set("context", nil), errs: []string{"msgcheck/delegate-context-type | context: must be a string or an array (got null)"}},
		{name: "context boolean", mutate: set("context", false), errs: []string{"msgcheck/delegate-context-type | context: must be a string or an array (got boolean)"}},

		// extensions: loose, warnings only
		{name: "all extensions valid", mutate: func(m map[string]any) {
			m["parent_task_id"] = "parent-001"
			m["effort"] = "high"
			m["model"] = "claude"
			m["budget"] = 12.5
			m["deadline"] = "2025-01-01"
			m["retry_context"] = map[string]any{"attempt": int64(2)}
			m["dependencies"] = []any{"task-one", "task-two"}
			m["priority"] = int64(2)
			m["protocol_version"] = "1.0"
			m["spec_version"] = "1.0"
			m["handoff_type"] = "standard"
		}},
		{name: "budget as object", mutate: set("budget", map[string]any{"tokens": int64(5)})},
		{name: "priority as string", mutate: set("priority", "high")},
		{name: "priority whole float is an integer", mutate: set("priority", 3.0)},
		{name: "parent_task_id bad", mutate: set("parent_task_id", "Bad_ID"), warns: []string{"msgcheck/delegate-parent-task-id-format | parent_task_id: must be kebab-case, 3-50 chars (got 'Bad_ID')"}},
		{name: "dependencies bad id", mutate: set("dependencies", []any{"task-one", "Bad_ID"}), warns: []string{"msgcheck/delegate-dependencies-format | dependencies[1]: must be kebab-case, 3-50 chars (got 'Bad_ID')"}},
		{name: "dependencies string", mutate: set("dependencies", "task-one"), warns: []string{"msgcheck/delegate-dependencies-type | dependencies: must be an array (got string)"}},
		{name: "priority float", mutate: set("priority", 1.5), warns: []string{"msgcheck/delegate-priority-type | priority: must be a string or an integer (got number)"}},
		{name: "budget string", mutate: set("budget", "lots"), warns: []string{"msgcheck/delegate-budget-type | budget: must be a number or an object (got string)"}},
		{name: "effort integer", mutate: set("effort", int64(3)), warns: []string{"msgcheck/delegate-effort-type | effort: must be a string (got integer)"}},
		{name: "retry_context list", mutate: set("retry_context", []any{}), warns: []string{"msgcheck/delegate-retry-context-type | retry_context: must be a string or an object (got array)"}},
		{name: "protocol_version boolean", mutate: set("protocol_version", true), warns: []string{
			"msgcheck/unknown-spec-version | protocol_version: spec version 'true' is not loaded (checked against 1.0)",
			"msgcheck/delegate-protocol-version-type | protocol_version: must be a string or a number (got boolean)",
		}},

		// unknown fields
		{name: "unknown field", mutate: set("foo_bar", int64(1)), warns: []string{"msgcheck/delegate-unknown-field | Unknown field 'foo_bar' in DELEGATE (will be ignored)"}},
		{name: "unknown fields sorted", mutate: func(m map[string]any) {
			m["zeta"] = 1
			m["alpha"] = nil
			m["Mid"] = "x"
			m["mid"] = "x"
		}, warns: []string{
			"msgcheck/delegate-unknown-field | Unknown field 'Mid' in DELEGATE (will be ignored)",
			"msgcheck/delegate-unknown-field | Unknown field 'alpha' in DELEGATE (will be ignored)",
			"msgcheck/delegate-unknown-field | Unknown field 'mid' in DELEGATE (will be ignored)",
			"msgcheck/delegate-unknown-field | Unknown field 'zeta' in DELEGATE (will be ignored)",
		}},
		{name: "handback field in a delegate is unknown", mutate: set("status", "success"), warns: []string{"msgcheck/delegate-unknown-field | Unknown field 'status' in DELEGATE (will be ignored)"}},
		{name: "error, extension warning and unknown field together", mutate: func(m map[string]any) {
			m["agent"] = "agent-xyz"
			m["foo_bar"] = 1
			m["priority"] = 1.5
		}, errs: []string{
			"msgcheck/delegate-agent-enum | agent: invalid agent 'agent-xyz' (must be one of " + agentList + ")",
		}, warns: []string{
			"msgcheck/delegate-priority-type | priority: must be a string or an integer (got number)",
			"msgcheck/delegate-unknown-field | Unknown field 'foo_bar' in DELEGATE (will be ignored)",
		}},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			m := validDelegate()
			r.mutate(m)
			res := v.Validate("delegate", m)
			expect(t, res, r.errs, r.warns)
			if res.Kind != "delegate" || res.SpecVersion != "1.0" {
				t.Errorf("Kind, SpecVersion = %q, %q; want delegate, 1.0", res.Kind, res.SpecVersion)
			}
		})
	}
}

func TestNewNeedsASpec(t *testing.T) {
	if v, err := msgcheck.New(msgcheck.Options{}); err == nil || v != nil {
		t.Errorf("New without a spec = %v, %v", v, err)
	}
	v := newValidator(t, "")
	if v.Spec() != msgcheck.DefaultSpec() {
		t.Error("Spec() is not the default spec")
	}
}

func TestDelegateEveryAgentIsAccepted(t *testing.T) {
	v := newValidator(t, repoRoot(t))
	for _, a := range []string{"orchestrator", "engineer", "senior-engineer", "lead-engineer", "principal-engineer", "security-engineer", "quality-engineer", "model-engineer"} {
		m := validDelegate()
		m["agent"] = a
		expect(t, v.Validate("delegate", m), nil, nil)
	}
}

func TestDelegateEmptySkillIsAnError(t *testing.T) {
	v := newValidator(t, repoRoot(t))
	m := validDelegate()
	m["skill"] = ""
	res := v.Validate("delegate", m)
	if res.Valid || len(res.Errors) == 0 {
		t.Fatalf("empty skill accepted: %v", res.Errors)
	}
	if got := describe(res.Errors)[0]; got != "msgcheck/delegate-skill-length | skill: must be at least 1 character (got '')" {
		t.Errorf("first error = %q", got)
	}
}

func TestDelegateFindingFields(t *testing.T) {
	v := newValidator(t, repoRoot(t))
	m := validDelegate()
	m["plan"] = []any{"Design the API", "Test it"}
	delete(m, "agent")
	m["foo_bar"] = 1
	res := v.Validate("delegate", m)
	var fields []string
	for _, f := range append(slices.Clone(res.Errors), res.Warnings...) {
		fields = append(fields, f.Field)
		if f.Line != 0 || f.Column != 0 {
			t.Errorf("Validate set a position on %q: %d:%d", f.Message, f.Line, f.Column)
		}
	}
	if want := []string{"agent", "plan[1]", "foo_bar"}; !slices.Equal(fields, want) {
		t.Errorf("fields = %q, want %q", fields, want)
	}
}

// The seed's own example DELEGATE breaks the seed's own rules: its scope has
// 11 words, its context 15, and three plan steps have fewer than 3 words.
func TestSeedExampleDelegate(t *testing.T) {
	v := newValidator(t, repoRoot(t))
	m := map[string]any{
		"task_id":          "feature-x-001",
		"skill":            "queue-management",
		"agent":            "senior-engineer",
		"scope":            "Implement feature X with comprehensive testing and documentation across all modules",
		"success_criteria": []any{"All tests pass", "Code reviewed and approved"},
		"plan":             []any{"Design API", "Implement core logic", "Write tests", "Document"},
		"context":          "Feature X is critical for Q3 roadmap. See SPEC.md for detailed requirements and acceptance criteria.",
	}
	expect(t, v.Validate("delegate", m), []string{
		"msgcheck/delegate-scope-words | scope: must be >=15 words (11 provided)",
		"msgcheck/delegate-plan-words | plan[0]: each step must be >=3 words (got 'Design API')",
		"msgcheck/delegate-plan-words | plan[2]: each step must be >=3 words (got 'Write tests')",
		"msgcheck/delegate-plan-words | plan[3]: each step must be >=3 words (got 'Document')",
		"msgcheck/delegate-context-words | context: must be >=20 words (15 provided)",
	}, nil)
}

func TestSkillDirectories(t *testing.T) {
	t.Run("only skills/", func(t *testing.T) {
		root := t.TempDir()
		mkdir(t, root, "skills/queue-management")
		v := newValidator(t, root)
		expect(t, v.Validate("delegate", validDelegate()), nil, nil)
		m := validDelegate()
		m["skill"] = "foo-bar"
		expect(t, v.Validate("delegate", m), []string{"msgcheck/delegate-skill-exists | skill: unknown skill 'foo-bar' (not found in skills/)"}, nil)
	})
	t.Run("only src/skills/", func(t *testing.T) {
		root := t.TempDir()
		touch(t, root, "src/skills/queue-management.md")
		v := newValidator(t, root)
		expect(t, v.Validate("delegate", validDelegate()), nil, nil)
		m := validDelegate()
		m["skill"] = "foo-bar"
		expect(t, v.Validate("delegate", m), []string{"msgcheck/delegate-skill-exists | skill: unknown skill 'foo-bar' (not found in src/skills/)"}, nil)
	})
	t.Run("empty skills/ still checks", func(t *testing.T) {
		root := t.TempDir()
		mkdir(t, root, "skills")
		v := newValidator(t, root)
		expect(t, v.Validate("delegate", validDelegate()), []string{"msgcheck/delegate-skill-exists | skill: unknown skill 'queue-management' (not found in skills/)"}, nil)
	})
	t.Run("skills is a file, not a directory", func(t *testing.T) {
		root := t.TempDir()
		touch(t, root, "skills")
		v := newValidator(t, root)
		expect(t, v.Validate("delegate", validDelegate()), nil, []string{
			"msgcheck/delegate-skill-unchecked | skill: not checked: no skills/ or src/skills/ directory in the repository " + root,
		})
	})
	t.Run("no skills directory", func(t *testing.T) {
		root := t.TempDir()
		v := newValidator(t, root)
		m := validDelegate()
		m["skill"] = "foo-bar"
		expect(t, v.Validate("delegate", m), nil, []string{
			"msgcheck/delegate-skill-unchecked | skill: not checked: no skills/ or src/skills/ directory in the repository " + root,
		})
	})
	t.Run("no skills directory, said once", func(t *testing.T) {
		root := t.TempDir()
		v, err := msgcheck.New(msgcheck.Options{Root: root, UncheckedOnce: true}, msgcheck.DefaultSpec())
		if err != nil {
			t.Fatal(err)
		}
		m := validDelegate()
		m["skill"] = "foo-bar"
		expect(t, v.Validate("delegate", m), nil, nil)
		want := []string{"skill: not checked: no skills/ or src/skills/ directory in the repository " + root}
		if got := v.Unchecked("delegate"); !slices.Equal(got, want) {
			t.Errorf("Unchecked(delegate) = %q, want %q", got, want)
		}
		if got := v.Unchecked("handback"); got != nil {
			t.Errorf("Unchecked(handback) = %q, want none", got)
		}
		touch(t, root, "skills/foo-bar.md")
		if v, err = msgcheck.New(msgcheck.Options{Root: root, UncheckedOnce: true}, msgcheck.DefaultSpec()); err != nil {
			t.Fatal(err)
		}
		if got := v.Unchecked("delegate"); got != nil {
			t.Errorf("with skills/: Unchecked(delegate) = %q, want none", got)
		}
	})
	t.Run("skills linked out of the root counts as absent", func(t *testing.T) {
		root, outside := t.TempDir(), t.TempDir()
		mkdir(t, outside, "queue-management")
		if err := os.Symlink(outside, filepath.Join(root, "skills")); err != nil {
			t.Skip("no symbolic links here")
		}
		v := newValidator(t, root)
		expect(t, v.Validate("delegate", validDelegate()), nil, []string{
			"msgcheck/delegate-skill-unchecked | skill: not checked: no skills/ or src/skills/ directory in the repository " + root,
		})
	})
	t.Run("no root", func(t *testing.T) {
		v := newValidator(t, "")
		expect(t, v.Validate("delegate", validDelegate()), nil, []string{
			"msgcheck/delegate-skill-unchecked | skill: not checked: no skills/ or src/skills/ directory in the repository (no repository root given)",
		})
	})
	t.Run("directories are read once, at New", func(t *testing.T) {
		root := t.TempDir()
		mkdir(t, root, "skills/queue-management")
		v := newValidator(t, root)
		mkdir(t, root, "skills/added-later")
		m := validDelegate()
		m["skill"] = "added-later"
		expect(t, v.Validate("delegate", m), []string{"msgcheck/delegate-skill-exists | skill: unknown skill 'added-later' (not found in skills/)"}, nil)
	})
	t.Run("a path is no skill name", func(t *testing.T) {
		root := t.TempDir()
		mkdir(t, root, "skills/queue-management")
		mkdir(t, root, "skills/a/b")
		for _, name := range []string{"../../etc/passwd", "..", "a/b", `a\b`, "queue-management/..", "x..y"} {
			want := []string{"msgcheck/delegate-skill-exists | skill: invalid skill '" + name + "' (a name in skills/ or src/skills/, without /, \\ or ..)"}
			for _, r := range []string{root, t.TempDir(), ""} { // with skills/, without, with no root
				m := validDelegate()
				m["skill"] = name
				expect(t, newValidator(t, r).Validate("delegate", m), want, nil)
			}
		}
	})
}

// ---------------------------------------------------------------------------
// HANDBACK

func TestHandbackRules(t *testing.T) {
	v := newValidator(t, repoRoot(t))
	rows := []row{
		{name: "valid", mutate: func(map[string]any) {}},

		{name: "missing task_id", mutate: del("task_id"), errs: []string{"msgcheck/handback-task-id-required | task_id: required field is missing"}},
		{name: "missing status", mutate: del("status"), errs: []string{"msgcheck/handback-status-required | status: required field is missing"}},
		{name: "missing output", mutate: del("output"), errs: []string{"msgcheck/handback-output-required | output: required field is missing"}},
		{name: "missing metrics", mutate: del("metrics"), errs: []string{"msgcheck/handback-metrics-required | metrics: required field is missing"}},
		{name: "task_id integer", mutate: set("task_id", int64(5)), errs: []string{"msgcheck/handback-task-id-type | task_id: must be a string (got integer)"}},
		{name: "task_id bad", mutate: set("task_id", "Feature X"), errs: []string{"msgcheck/handback-task-id-format | task_id: must be kebab-case, 3-50 chars (got 'Feature X')"}},

		// status
		{name: "status failure", mutate: set("status", "failure")},
		{name: "status partial", mutate: set("status", "partial")},
		{name: "status blocked", mutate: set("status", "blocked")},
		{name: "status escalate", mutate: set("status", "escalate")},
		{name: "role is no field of a HANDBACK", mutate: set("role", "engineer"), warns: []string{"msgcheck/handback-unknown-field | Unknown field 'role' in HANDBACK (will be ignored)"}},
		{name: "status legacy complete", mutate: set("status", "complete"), errs: []string{"msgcheck/handback-status-enum | status: invalid status 'complete' (legacy alias of 'success'; must be one of " + statusList + ")"}},
		{name: "status legacy failed", mutate: set("status", "failed"), errs: []string{"msgcheck/handback-status-enum | status: invalid status 'failed' (legacy alias of 'failure'; must be one of " + statusList + ")"}},
		{name: "status legacy escalated", mutate: set("status", "escalated"), errs: []string{"msgcheck/handback-status-enum | status: invalid status 'escalated' (legacy alias of 'escalate'; must be one of " + statusList + ")"}},
		{name: "status unknown", mutate: set("status", "done"), errs: []string{"msgcheck/handback-status-enum | status: invalid status 'done' (must be one of " + statusList + ")"}},
		{name: "status wrong case", mutate: set("status", "SUCCESS"), errs: []string{"msgcheck/handback-status-enum | status: invalid status 'SUCCESS' (must be one of " + statusList + ")"}},
		{name: "status boolean", mutate: set("status", true), errs: []string{"msgcheck/handback-status-type | status: must be a string (got boolean)"}},

		// output: any type
		{name: "output null", mutate: set("output", nil)},
		{name: "output string", mutate: set("output", "done")},
		{name: "output number", mutate: set("output", 4.5)},
		{name: "output list", mutate: set("output", []any{})},
		{name: "output false", mutate: set("output", false)},

		// metrics
		{name: "metrics string", mutate: set("metrics", "fast"), errs: []string{"msgcheck/handback-metrics-type | metrics: must be an object (got string)"}},
		{name: "metrics null", mutate: set("metrics", nil), errs: []string{"msgcheck/handback-metrics-type | metrics: must be an object (got null)"}},
		{name: "metrics list", mutate: set("metrics", []any{}), errs: []string{"msgcheck/handback-metrics-type | metrics: must be an object (got array)"}},
		{name: "metrics empty", mutate: set("metrics", map[string]any{}), errs: []string{
			"msgcheck/handback-metrics-quality-required | metrics.quality: required field is missing",
			"msgcheck/handback-metrics-tokens-required | metrics.tokens: required field is missing",
			"msgcheck/handback-metrics-cost-required | metrics.cost: required field is missing",
			"msgcheck/handback-metrics-duration-seconds-required | metrics.duration_seconds: required field is missing",
		}},
		{name: "metrics.quality missing", mutate: delMetric("quality"), errs: []string{"msgcheck/handback-metrics-quality-required | metrics.quality: required field is missing"}},
		{name: "metrics.tokens missing", mutate: delMetric("tokens"), errs: []string{"msgcheck/handback-metrics-tokens-required | metrics.tokens: required field is missing"}},
		{name: "metrics.cost missing", mutate: delMetric("cost"), errs: []string{"msgcheck/handback-metrics-cost-required | metrics.cost: required field is missing"}},
		{name: "metrics.duration_seconds missing", mutate: delMetric("duration_seconds"), errs: []string{"msgcheck/handback-metrics-duration-seconds-required | metrics.duration_seconds: required field is missing"}},
		{name: "metrics extra key allowed", mutate: setMetric("latency_ms", int64(5))},

		{name: "quality 1.5", mutate: setMetric("quality", 1.5), errs: []string{"msgcheck/handback-metrics-quality-range | metrics.quality: must be 0.0-1.0 (got 1.5)"}},
		{name: "quality -0.1", mutate: setMetric("quality", -0.1), errs: []string{"msgcheck/handback-metrics-quality-range | metrics.quality: must be 0.0-1.0 (got -0.1)"}},
		{name: "quality integer 2", mutate: setMetric("quality", int64(2)), errs: []string{"msgcheck/handback-metrics-quality-range | metrics.quality: must be 0.0-1.0 (got 2)"}},
		{name: "quality 0", mutate: setMetric("quality", int64(0))},
		{name: "quality 0.0", mutate: setMetric("quality", 0.0)},
		{name: "quality 1", mutate: setMetric("quality", int64(1))},
		{name: "quality 1.0", mutate: setMetric("quality", 1.0)},
		{name: "quality string", mutate: setMetric("quality", "high"), errs: []string{"msgcheck/handback-metrics-quality-type | metrics.quality: must be a number (got string)"}},
		{name: "quality NaN", mutate: setMetric("quality", math.NaN()), errs: []string{"msgcheck/handback-metrics-quality-range | metrics.quality: must be 0.0-1.0 (got NaN)"}},
		{name: "quality +Inf", mutate: setMetric("quality", math.Inf(1)), errs: []string{"msgcheck/handback-metrics-quality-range | metrics.quality: must be 0.0-1.0 (got +Inf)"}},
		{name: "tokens +Inf is not an integer", mutate: setMetric("tokens", math.Inf(1)), errs: []string{"msgcheck/handback-metrics-tokens-type | metrics.tokens: must be an integer (got number)"}},
		{name: "quality null", mutate: setMetric("quality", nil), errs: []string{"msgcheck/handback-metrics-quality-type | metrics.quality: must be a number (got null)"}},

		{name: "tokens 1.5", mutate: setMetric("tokens", 1.5), errs: []string{"msgcheck/handback-metrics-tokens-type | metrics.tokens: must be an integer (got number)"}},
		{name: "tokens 3.0 is an integer", mutate: setMetric("tokens", 3.0)},
		{name: "tokens Go int", mutate: setMetric("tokens", 7)},
		{name: "tokens 0", mutate: setMetric("tokens", int64(0))},
		{name: "tokens -1", mutate: setMetric("tokens", int64(-1)), errs: []string{"msgcheck/handback-metrics-tokens-range | metrics.tokens: must be >= 0 (got -1)"}},
		{name: "tokens -2.0", mutate: setMetric("tokens", -2.0), errs: []string{"msgcheck/handback-metrics-tokens-range | metrics.tokens: must be >= 0 (got -2)"}},
		{name: "tokens string", mutate: setMetric("tokens", "45000"), errs: []string{"msgcheck/handback-metrics-tokens-type | metrics.tokens: must be an integer (got string)"}},

		{name: "cost 0", mutate: setMetric("cost", int64(0))},
		{name: "cost negative", mutate: setMetric("cost", -0.01), errs: []string{"msgcheck/handback-metrics-cost-range | metrics.cost: must be >= 0 (got -0.01)"}},
		{name: "cost string", mutate: setMetric("cost", "$1"), errs: []string{"msgcheck/handback-metrics-cost-type | metrics.cost: must be a number (got string)"}},
		{name: "duration_seconds 0.5", mutate: setMetric("duration_seconds", 0.5)},
		{name: "duration_seconds negative", mutate: setMetric("duration_seconds", int64(-1)), errs: []string{"msgcheck/handback-metrics-duration-seconds-range | metrics.duration_seconds: must be >= 0 (got -1)"}},
		{name: "duration_seconds boolean", mutate: setMetric("duration_seconds", true), errs: []string{"msgcheck/handback-metrics-duration-seconds-type | metrics.duration_seconds: must be a number (got boolean)"}},
		{name: "several metrics errors in spec order", mutate: func(m map[string]any) {
			metrics(m)["duration_seconds"] = int64(-1)
			metrics(m)["quality"] = 1.5
			metrics(m)["tokens"] = 1.5
		}, errs: []string{
			"msgcheck/handback-metrics-quality-range | metrics.quality: must be 0.0-1.0 (got 1.5)",
			"msgcheck/handback-metrics-tokens-type | metrics.tokens: must be an integer (got number)",
			"msgcheck/handback-metrics-duration-seconds-range | metrics.duration_seconds: must be >= 0 (got -1)",
		}},

		// extensions
		{name: "all extensions valid", mutate: func(m map[string]any) {
			m["children_created"] = []any{"child-001"}
			m["children_results"] = map[string]any{}
			m["retry_count"] = int64(2)
			m["model_used"] = "claude"
			m["effort_actual"] = 1.5
			m["flags"] = []any{"x"}
			m["error"] = map[string]any{"code": int64(1)}
			m["protocol_version"] = "1.0"
			m["handoff_type"] = "standard"
		}},
		{name: "retry_count -1", mutate: set("retry_count", int64(-1)), warns: []string{"msgcheck/handback-retry-count-range | retry_count: must be >= 0 (got -1)"}},
		{name: "retry_count 1.5", mutate: set("retry_count", 1.5), warns: []string{"msgcheck/handback-retry-count-type | retry_count: must be an integer (got number)"}},
		{name: "children_created bad id", mutate: set("children_created", []any{"child-001", "X"}), warns: []string{"msgcheck/handback-children-created-format | children_created[1]: must be kebab-case, 3-50 chars (got 'X')"}},
		{name: "model_used number", mutate: set("model_used", int64(5)), warns: []string{"msgcheck/handback-model-used-type | model_used: must be a string (got integer)"}},
		{name: "error number", mutate: set("error", int64(5)), warns: []string{"msgcheck/handback-error-type | error: must be a string or an object (got integer)"}},
		{name: "flags string", mutate: set("flags", "x"), warns: []string{"msgcheck/handback-flags-type | flags: must be an array or an object (got string)"}},
		{name: "effort_actual boolean", mutate: set("effort_actual", false), warns: []string{"msgcheck/handback-effort-actual-type | effort_actual: must be a string or a number (got boolean)"}},

		// unknown fields
		{name: "unknown field", mutate: set("foo_bar", "x"), warns: []string{"msgcheck/handback-unknown-field | Unknown field 'foo_bar' in HANDBACK (will be ignored)"}},
		{name: "delegate field in a handback is unknown", mutate: set("scope", words(15)), warns: []string{"msgcheck/handback-unknown-field | Unknown field 'scope' in HANDBACK (will be ignored)"}},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			m := validHandback()
			r.mutate(m)
			res := v.Validate("handback", m)
			expect(t, res, r.errs, r.warns)
			if res.Kind != "handback" {
				t.Errorf("Kind = %q", res.Kind)
			}
		})
	}
}

// ---------------------------------------------------------------------------
// versions, kinds, result shape

func TestProtocolVersion(t *testing.T) {
	src, err := msgcheck.EmbeddedSpecSource(msgcheck.DefaultSpecName)
	if err != nil {
		t.Fatal(err)
	}
	v2src := strings.Replace(string(src), `version: "1.0"`, `version: "2.0"`, 1)
	if v2src == string(src) {
		t.Fatal("could not rewrite the version of the embedded spec")
	}
	v2, err := msgcheck.ParseSpec("v2.yaml", []byte(v2src))
	if err != nil {
		t.Fatal(err)
	}
	only1 := newValidator(t, repoRoot(t))
	both := newValidator(t, repoRoot(t), v2, msgcheck.DefaultSpec()) // 2.0 is the default

	for _, tc := range []struct {
		key  string
		raw  any
		want string
	}{
		{"protocol_version", "1.0", "1.0"},
		{"protocol_version", 1.0, "1.0"},
		{"protocol_version", int64(1), "1.0"},
		{"protocol_version", "v1", "1.0"},
		{"protocol_version", "V1.0", "1.0"},
		{"protocol_version", "1.0.0", "1.0"},
		{"spec_version", "1.0", "1.0"},
		{"protocol_version", "2.0", "2.0"},
		{"protocol_version", 2.0, "2.0"},
	} {
		m := validDelegate()
		m[tc.key] = tc.raw
		res := both.Validate("delegate", m)
		expect(t, res, nil, nil)
		if res.SpecVersion != tc.want {
			t.Errorf("%s %#v: checked against %q, want %q", tc.key, tc.raw, res.SpecVersion, tc.want)
		}
		if tc.want == "1.0" {
			res := only1.Validate("delegate", m)
			expect(t, res, nil, nil)
		}
	}

	t.Run("absent picks the default", func(t *testing.T) {
		res := both.Validate("delegate", validDelegate())
		if res.SpecVersion != "2.0" {
			t.Errorf("SpecVersion = %q", res.SpecVersion)
		}
	})
	t.Run("unknown version", func(t *testing.T) {
		m := validDelegate()
		m["protocol_version"] = "9.9"
		expect(t, only1.Validate("delegate", m), nil, []string{"msgcheck/unknown-spec-version | protocol_version: spec version '9.9' is not loaded (checked against 1.0)"})
		res := both.Validate("delegate", m)
		expect(t, res, nil, []string{"msgcheck/unknown-spec-version | protocol_version: spec version '9.9' is not loaded (checked against 2.0)"})
		if res.SpecVersion != "2.0" {
			t.Errorf("SpecVersion = %q", res.SpecVersion)
		}
	})
	t.Run("1.10 is not 1.1", func(t *testing.T) {
		m := validDelegate()
		m["protocol_version"] = "1.10"
		expect(t, only1.Validate("delegate", m), nil, []string{"msgcheck/unknown-spec-version | protocol_version: spec version '1.10' is not loaded (checked against 1.0)"})
		m["protocol_version"] = "10"
		expect(t, only1.Validate("delegate", m), nil, []string{"msgcheck/unknown-spec-version | protocol_version: spec version '10' is not loaded (checked against 1.0)"})
	})
	t.Run("unknown spec_version on a handback", func(t *testing.T) {
		m := validHandback()
		m["spec_version"] = 3.5
		expect(t, only1.Validate("handback", m), nil, []string{"msgcheck/unknown-spec-version | spec_version: spec version '3.5' is not loaded (checked against 1.0)"})
	})
}

func TestKindDetection(t *testing.T) {
	v := newValidator(t, repoRoot(t))
	const cannotTell = "msgcheck/unknown-kind | cannot tell the message kind: a DELEGATE has task_id, scope; a HANDBACK has task_id, status; name the kind to validate it anyway"

	res := v.Validate("", validDelegate())
	expect(t, res, nil, nil)
	if res.Kind != "delegate" {
		t.Errorf("delegate detected as %q", res.Kind)
	}
	res = v.Validate("", validHandback())
	expect(t, res, nil, nil)
	if res.Kind != "handback" {
		t.Errorf("handback detected as %q", res.Kind)
	}

	// a broken delegate is still told by its signature and checked as one
	m := validDelegate()
	delete(m, "agent")
	res = v.Validate("", m)
	if res.Kind != "delegate" {
		t.Errorf("delegate without agent detected as %q", res.Kind)
	}
	expect(t, res, []string{"msgcheck/delegate-agent-required | agent: required field is missing"}, nil)

	// both signatures present: the kind with more of its fields wins
	m = validDelegate()
	m["status"] = "success"
	res = v.Validate("", m)
	if res.Kind != "delegate" {
		t.Errorf("delegate with a status detected as %q", res.Kind)
	}
	m = validHandback()
	m["scope"] = words(15)
	res = v.Validate("", m)
	if res.Kind != "handback" {
		t.Errorf("handback with a scope detected as %q", res.Kind)
	}

	// a tie
	res = v.Validate("", map[string]any{"task_id": "x-1", "scope": words(15), "status": "success"})
	expect(t, res, []string{cannotTell}, nil)
	if res.Kind != "" {
		t.Errorf("ambiguous message has Kind %q", res.Kind)
	}
	// no signature
	expect(t, v.Validate("", map[string]any{"task_id": "feature-x-001"}), []string{cannotTell}, nil)
	expect(t, v.Validate("", map[string]any{}), []string{cannotTell}, nil)

	// not a mapping
	for _, tc := range []struct {
		msg  any
		kind string
		want string
	}{
		{[]any{validDelegate()}, "", "array"},
		{"task_id: x", "", "string"},
		{nil, "delegate", "null"},
		{int64(3), "handback", "integer"},
	} {
		res := v.Validate(tc.kind, tc.msg)
		expect(t, res, []string{"msgcheck/not-a-message | message must be a mapping of fields (got " + tc.want + ")"}, nil)
	}

	// an unknown kind name
	expect(t, v.Validate("review", validDelegate()), []string{`msgcheck/unknown-kind | unknown message kind "review" (spec 1.0 defines delegate, handback)`}, nil)
	expect(t, v.Validate("DELEGATE", validDelegate()), []string{`msgcheck/unknown-kind | unknown message kind "DELEGATE" (spec 1.0 defines delegate, handback)`}, nil)

	// naming the kind overrides the signature
	res = v.Validate("handback", validDelegate())
	if res.Valid || res.Kind != "handback" {
		t.Errorf("a delegate validated as a handback: valid=%v kind=%q", res.Valid, res.Kind)
	}

	sp := msgcheck.DefaultSpec()
	if got := sp.Detect(validHandback()); got != "handback" {
		t.Errorf("Detect = %q", got)
	}
	if got := sp.Detect(map[string]any{"x": 1}); got != "" {
		t.Errorf("Detect = %q", got)
	}
	if got := sp.Kinds(); !slices.Equal(got, []string{"delegate", "handback"}) {
		t.Errorf("Kinds = %q", got)
	}
}

func TestFieldTypes(t *testing.T) {
	v := newValidator(t, repoRoot(t))
	m := validDelegate()
	m["priority"] = 3.0
	m["budget"] = 2.5
	m["retry_context"] = map[string]any{}
	m["x_flag"] = true
	m["x_null"] = nil
	m["context"] = []any{"a"}
	res := v.Validate("delegate", m)
	want := map[string]string{
		"task_id": "string", "skill": "string", "agent": "string", "scope": "string",
		"success_criteria": "array", "plan": "array", "context": "array",
		"priority": "integer", "budget": "number", "retry_context": "object",
		"x_flag": "boolean", "x_null": "null",
	}
	got := res.FieldTypes()
	if len(got) != len(want) {
		t.Errorf("FieldTypes = %v, want %v", got, want)
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("FieldTypes[%q] = %q, want %q", k, got[k], w)
		}
	}
	h := validHandback()
	h["output"] = nil
	hres := v.Validate("handback", h)
	got = hres.FieldTypes()
	if got["output"] != "null" || got["metrics"] != "object" || got["task_id"] != "string" || len(got) != 4 {
		t.Errorf("handback FieldTypes = %v", got)
	}
	nres := v.Validate("", "x")
	if got := nres.FieldTypes(); got == nil || len(got) != 0 {
		t.Errorf("FieldTypes of a non-message = %#v, want an empty map", got)
	}
}

func TestResultJSON(t *testing.T) {
	v, err := msgcheck.New(msgcheck.Options{Root: repoRoot(t), Timing: true}, msgcheck.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	decode := func(t *testing.T, res msgcheck.Result) (map[string]any, string) {
		t.Helper()
		data, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		var out map[string]any
		if err := json.Unmarshal(data, &out); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"valid", "errors", "warnings", "duration_ms", "field_types"} {
			if _, ok := out[k]; !ok {
				t.Errorf("JSON has no %q: %s", k, data)
			}
		}
		for k := range out {
			if !slices.Contains([]string{"kind", "spec_version", "valid", "errors", "warnings", "duration_ms", "field_types"}, k) {
				t.Errorf("unexpected JSON key %q", k)
			}
		}
		if _, ok := out["duration_ms"].(float64); !ok {
			t.Errorf("duration_ms is %T", out["duration_ms"])
		}
		if _, ok := out["field_types"].(map[string]any); !ok {
			t.Errorf("field_types is %T: %s", out["field_types"], data)
		}
		return out, string(data)
	}

	t.Run("untimed", func(t *testing.T) {
		if d := newValidator(t, repoRoot(t)).Validate("delegate", validDelegate()).Duration; d != 0 {
			t.Errorf("Duration = %v without Options.Timing, want 0", d)
		}
	})
	t.Run("valid", func(t *testing.T) {
		res := v.Validate("delegate", validDelegate())
		if res.Duration <= 0 {
			t.Errorf("Duration = %v", res.Duration)
		}
		out, data := decode(t, res)
		if out["valid"] != true || out["kind"] != "delegate" || out["spec_version"] != "1.0" {
			t.Errorf("JSON = %s", data)
		}
		if !strings.Contains(data, `"errors":[]`) || !strings.Contains(data, `"warnings":[]`) {
			t.Errorf("empty lists must be [] not null: %s", data)
		}
		if ft := out["field_types"].(map[string]any); ft["plan"] != "array" || ft["task_id"] != "string" {
			t.Errorf("field_types = %v", ft)
		}
		if d := out["duration_ms"].(float64); d <= 0 || d > 1000 {
			t.Errorf("duration_ms = %v", d)
		}
	})
	t.Run("invalid", func(t *testing.T) {
		m := validDelegate()
		m["task_id"] = "TaskID001"
		m["foo_bar"] = 1
		out, data := decode(t, v.Validate("delegate", m))
		if out["valid"] != false {
			t.Errorf("valid = %v", out["valid"])
		}
		errs := out["errors"].([]any)
		warns := out["warnings"].([]any)
		if len(errs) != 1 || len(warns) != 1 {
			t.Fatalf("JSON = %s", data)
		}
		e := errs[0].(map[string]any)
		want := map[string]any{"field": "task_id", "rule": "msgcheck/delegate-task-id-format", "message": "task_id: must be kebab-case, 3-50 chars (got 'TaskID001')"}
		if len(e) != len(want) {
			t.Errorf("error object = %v, want %v (no line/column when unplaced)", e, want)
		}
		for k, w := range want {
			if e[k] != w {
				t.Errorf("error %s = %v, want %v", k, e[k], w)
			}
		}
		if w := warns[0].(map[string]any); w["message"] != "Unknown field 'foo_bar' in DELEGATE (will be ignored)" || w["field"] != "foo_bar" {
			t.Errorf("warning = %v", w)
		}
	})
	t.Run("not a message", func(t *testing.T) {
		out, data := decode(t, v.Validate("", []any{}))
		if out["valid"] != false || !strings.Contains(data, `"warnings":[]`) || !strings.Contains(data, `"field_types":{}`) {
			t.Errorf("JSON = %s", data)
		}
	})
	t.Run("placed findings carry line and column", func(t *testing.T) {
		res, err := v.ValidateNode("handback", parseYAML(t, "task_id: feature-x-001\nstatus: done\noutput: 1\nmetrics: {quality: 1, tokens: 1, cost: 0, duration_seconds: 0}\n"))
		if err != nil {
			t.Fatal(err)
		}
		out, data := decode(t, res)
		e := out["errors"].([]any)[0].(map[string]any)
		if e["line"] != 2.0 || e["column"] != 9.0 {
			t.Errorf("JSON = %s", data)
		}
		if s := res.Errors[0].String(); s != "2:9: status: invalid status 'done' (must be one of "+statusList+")" {
			t.Errorf("String() = %q", s)
		}
	})
	t.Run("ResultJSON", func(t *testing.T) {
		j := v.Validate("handback", validHandback()).JSON()
		if j.Errors == nil || j.Warnings == nil || !j.Valid || j.Kind != "handback" || j.FieldTypes["output"] != "object" {
			t.Errorf("JSON() = %+v", j)
		}
	})
}

// ---------------------------------------------------------------------------
// positions (ValidateNode)

func parseYAML(t testing.TB, src string) *yaml.Node {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		t.Fatal(err)
	}
	return &n
}

const delegateYAML = `---
# a DELEGATE with problems
task_id: TaskID001
skill: queue-management
agent: senior-engineer
scope: one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
success_criteria:
  - All tests pass
plan:
  - Design the API
  - Test it
context:
  - see SPEC.md
foo_bar: 1
parent_task_id: Bad_ID
`

func TestPositions(t *testing.T) {
	v := newValidator(t, repoRoot(t))
	check := func(t *testing.T, kind, src string, errs, warns []string) msgcheck.Result {
		t.Helper()
		res, err := v.ValidateNode(kind, parseYAML(t, src))
		if err != nil {
			t.Fatal(err)
		}
		if got := located(res.Errors); !slices.Equal(got, orEmpty(errs)) {
			t.Errorf("errors:\n got  %q\n want %q", got, errs)
		}
		if got := located(res.Warnings); !slices.Equal(got, orEmpty(warns)) {
			t.Errorf("warnings:\n got  %q\n want %q", got, warns)
		}
		if res.Valid != (len(errs) == 0) {
			t.Errorf("Valid = %v", res.Valid)
		}
		return res
	}

	t.Run("delegate value and key positions", func(t *testing.T) {
		check(t, "delegate", delegateYAML, []string{
			"3:10 msgcheck/delegate-task-id-format | task_id: must be kebab-case, 3-50 chars (got 'TaskID001')",
			"11:5 msgcheck/delegate-plan-words | plan[1]: each step must be >=3 words (got 'Test it')",
		}, []string{
			"14:1 msgcheck/delegate-unknown-field | Unknown field 'foo_bar' in DELEGATE (will be ignored)",
			"15:17 msgcheck/delegate-parent-task-id-format | parent_task_id: must be kebab-case, 3-50 chars (got 'Bad_ID')",
		})
	})
	t.Run("a former name points at its key, its value's finding at the value", func(t *testing.T) {
		src := strings.Replace(delegateYAML, "agent: senior-engineer\n", "role: Senior Engineer\n", 1)
		src = strings.Replace(src, "TaskID001", "feature-x-001", 1)
		check(t, "delegate", src, []string{
			"5:1 msgcheck/delegate-agent-renamed | role: the protocol calls this field agent",
			"5:7 msgcheck/delegate-agent-enum | role: invalid agent 'Senior Engineer' (must be one of " + agentList + ")",
			"11:5 msgcheck/delegate-plan-words | plan[1]: each step must be >=3 words (got 'Test it')",
		}, []string{
			"14:1 msgcheck/delegate-unknown-field | Unknown field 'foo_bar' in DELEGATE (will be ignored)",
			"15:17 msgcheck/delegate-parent-task-id-format | parent_task_id: must be kebab-case, 3-50 chars (got 'Bad_ID')",
		})
	})
	t.Run("missing required points at the mapping", func(t *testing.T) {
		src := strings.Replace(delegateYAML, "agent: senior-engineer\n", "", 1)
		src = strings.Replace(src, "TaskID001", "feature-x-001", 1)
		check(t, "delegate", src, []string{
			"3:1 msgcheck/delegate-agent-required | agent: required field is missing",
			"10:5 msgcheck/delegate-plan-words | plan[1]: each step must be >=3 words (got 'Test it')",
		}, []string{
			"13:1 msgcheck/delegate-unknown-field | Unknown field 'foo_bar' in DELEGATE (will be ignored)",
			"14:17 msgcheck/delegate-parent-task-id-format | parent_task_id: must be kebab-case, 3-50 chars (got 'Bad_ID')",
		})
	})
	t.Run("handback nested metrics", func(t *testing.T) {
		src := "task_id: feature-x-001\n" +
			"status: complete\n" +
			"output: null\n" +
			"metrics:\n" +
			"  tokens: 1.5\n" +
			"  quality: 1.5\n" +
			"  cost: 0.1\n" +
			"retry_count: -1\n" +
			"protocol_version: \"9.9\"\n"
		// findings come in source order
		check(t, "handback", src, []string{
			"2:9 msgcheck/handback-status-enum | status: invalid status 'complete' (legacy alias of 'success'; must be one of " + statusList + ")",
			"5:3 msgcheck/handback-metrics-duration-seconds-required | metrics.duration_seconds: required field is missing",
			"5:11 msgcheck/handback-metrics-tokens-type | metrics.tokens: must be an integer (got number)",
			"6:12 msgcheck/handback-metrics-quality-range | metrics.quality: must be 0.0-1.0 (got 1.5)",
		}, []string{
			"8:14 msgcheck/handback-retry-count-range | retry_count: must be >= 0 (got -1)",
			"9:19 msgcheck/unknown-spec-version | protocol_version: spec version '9.9' is not loaded (checked against 1.0)",
		})
	})
	t.Run("JSON source", func(t *testing.T) {
		src := "{\n" +
			"  \"task_id\": \"feature-x-001\",\n" +
			"  \"status\": \"success\",\n" +
			"  \"output\": {},\n" +
			"  \"metrics\": {\"quality\": 2, \"tokens\": 1, \"cost\": 0, \"duration_seconds\": 0},\n" +
			"  \"extra\": true\n" +
			"}\n"
		check(t, "", src, []string{
			"5:26 msgcheck/handback-metrics-quality-range | metrics.quality: must be 0.0-1.0 (got 2)",
		}, []string{
			"6:3 msgcheck/handback-unknown-field | Unknown field 'extra' in HANDBACK (will be ignored)",
		})
	})
	t.Run("findings at one place keep the spec's order", func(t *testing.T) {
		// both findings point at the metrics mapping (5:3)
		src := "task_id: feature-x-001\nstatus: success\noutput: null\nmetrics:\n  tokens: 1\n"
		check(t, "handback", src, []string{
			"5:3 msgcheck/handback-metrics-quality-required | metrics.quality: required field is missing",
			"5:3 msgcheck/handback-metrics-cost-required | metrics.cost: required field is missing",
			"5:3 msgcheck/handback-metrics-duration-seconds-required | metrics.duration_seconds: required field is missing",
		}, nil)
	})
	t.Run("tokens written 3.0 is an integer", func(t *testing.T) {
		check(t, "handback", "task_id: abc\nstatus: success\noutput: ~\nmetrics: {quality: 0.5, tokens: 3.0, cost: 0, duration_seconds: 1}\n", nil, nil)
	})
	t.Run("whole message problems point at the top", func(t *testing.T) {
		check(t, "", "\n\n- a\n- b\n", []string{"3:1 msgcheck/not-a-message | message must be a mapping of fields (got array)"}, nil)
		check(t, "", "\nfoo: 1\n", []string{"2:1 msgcheck/unknown-kind | cannot tell the message kind: a DELEGATE has task_id, scope; a HANDBACK has task_id, status; name the kind to validate it anyway"}, nil)
	})
	t.Run("node errors", func(t *testing.T) {
		if _, err := v.ValidateNode("handback", parseYAML(t, "task_id: a\ntask_id: b\n")); err == nil || !strings.Contains(err.Error(), `duplicate key "task_id"`) {
			t.Errorf("duplicate key: err = %v", err)
		}
		small, err := msgcheck.New(msgcheck.Options{Limits: msgcheck.NodeLimits{MaxDepth: 10, MaxNodes: 50}}, msgcheck.DefaultSpec())
		if err != nil {
			t.Fatal(err)
		}
		bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\ntask_id: *b\n"
		if _, err := small.ValidateNode("", parseYAML(t, bomb)); err == nil || !strings.Contains(err.Error(), "more than 50 nodes") {
			t.Errorf("alias bomb: err = %v", err)
		}
		if _, err := small.ValidateNode("", parseYAML(t, "a: "+strings.Repeat("[", 12)+"1"+strings.Repeat("]", 12)+"\n")); err == nil || !strings.Contains(err.Error(), "nesting deeper than 10 levels") {
			t.Errorf("deep: err = %v", err)
		}
	})
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Options.Limits with only one bound set must not turn the other bound into
// zero: MaxNodes 0 would reject every message.
func TestValidateNodePartialLimitsKeepDefaults(t *testing.T) {
	for _, lim := range []msgcheck.NodeLimits{{MaxDepth: 50}, {MaxNodes: 10_000}} {
		v, err := msgcheck.New(msgcheck.Options{Root: repoRoot(t), Limits: lim}, msgcheck.DefaultSpec())
		if err != nil {
			t.Fatal(err)
		}
		res, err := v.ValidateNode("handback", parseYAML(t, "task_id: feature-x-001\nstatus: success\noutput: {a: [1]}\nmetrics: {quality: 1, tokens: 1, cost: 0, duration_seconds: 0}\n"))
		if err != nil {
			t.Errorf("Limits %+v: a small valid message is rejected: %v", lim, err)
			continue
		}
		expect(t, res, nil, nil)
	}
}
