package msgcheck_test

import (
	"maps"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/jsonmsg"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// formerSpec has a required field with a former name, an optional one
// with two, and a nested object under a renamed field.
const formerSpec = `version: "1"
msg:
  signature: [id]
  required: [id, agent]
  core_fields:
    id: {type: string}
    agent: {type: string, enum: [a, b], formerly: [role]}
  extensions:
    limits:
      formerly: [caps, quota]
      type: object
      required: [cpu]
      properties:
        cpu: {type: integer}
`

func TestFormerlyKeyword(t *testing.T) {
	sp, err := msgcheck.ParseSpec("former.yaml", []byte(formerSpec))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sp.FormerNames("msg"), map[string]string{"role": "agent", "caps": "limits", "quota": "limits"}; !maps.Equal(got, want) {
		t.Errorf("FormerNames = %v, want %v", got, want)
	}
	if got := sp.FormerNames("nope"); got != nil {
		t.Errorf("FormerNames of no kind = %v", got)
	}
	v := newValidator(t, "", sp)
	rows := []struct {
		name        string
		msg         map[string]any
		errs, warns []string
	}{
		{"current names", map[string]any{"id": "x", "agent": "a", "limits": map[string]any{"cpu": int64(1)}}, nil, nil},
		{"a required field's former name is an error", map[string]any{"id": "x", "role": "b"},
			[]string{"msgcheck/msg-agent-renamed | role: the protocol calls this field agent"}, nil},
		{"an optional field's former name is a warning", map[string]any{"id": "x", "agent": "a", "quota": map[string]any{"cpu": int64(1)}},
			nil, []string{"msgcheck/msg-limits-renamed | quota: the protocol calls this field limits"}},
		{"nested findings under a former name keep the field's rule ids", map[string]any{"id": "x", "agent": "a", "caps": map[string]any{"cpu": "many"}},
			nil, []string{
				"msgcheck/msg-limits-renamed | caps: the protocol calls this field limits",
				"msgcheck/msg-limits-cpu-type | caps.cpu: must be an integer (got string)",
			}},
		{"nested required under a former name", map[string]any{"id": "x", "agent": "a", "caps": map[string]any{}},
			nil, []string{
				"msgcheck/msg-limits-renamed | caps: the protocol calls this field limits",
				"msgcheck/msg-limits-cpu-required | caps.cpu: required field is missing",
			}},
		{"the first former name is checked, the second warns", map[string]any{"id": "x", "agent": "a", "caps": map[string]any{"cpu": int64(1)}, "quota": 1},
			nil, []string{
				"msgcheck/msg-limits-renamed | caps: the protocol calls this field limits",
				"msgcheck/msg-limits-renamed | quota: the protocol calls this field limits, and caps holds it already in this MSG (quota is ignored)",
			}},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			expect(t, v.Validate("msg", r.msg), r.errs, r.warns)
		})
	}
}

func TestFormerlySpecErrors(t *testing.T) {
	const head = "version: \"1\"\nmsg:\n  signature: [v]\n  core_fields:\n" // v is on line 5
	rows := []struct{ name, src, want string }{
		{"formerly nested", head + "    v: {properties: {a: {formerly: [b]}}}\n", `bad.yaml:5:26: formerly names what older messages call a message field: it belongs beside the schema of a field under core_fields, extensions or properties`},
		{"formerly in a definition", "version: \"1\"\ndefinitions:\n  d: {type: string, formerly: [b]}\nmsg:\n  core_fields:\n    v: {$ref: \"#/definitions/d\"}\n", `bad.yaml:3:21: formerly names what older messages call a message field: it belongs beside the schema of a field under core_fields, extensions or properties`},
		{"formerly a field of the kind", head + "    v: {formerly: [w]}\n    w: {}\n", `bad.yaml:3:3: msg: "w" is a field of the kind, so it cannot be the former name of "v"`},
		{"formerly of two fields", head + "    v: {formerly: [old]}\n    w: {formerly: old}\n", `bad.yaml:3:3: msg: "old" is the former name of both "v" and "w"`},
		{"formerly empty", head + "    v: {formerly: []}\n", `bad.yaml:5:19: formerly must name the field's former names`},
		{"formerly misspelt", head + "    v: {formely: [old]}\n", `bad.yaml:5:9: unknown keyword "formely" (did you mean "formerly"?)`},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			_, err := msgcheck.ParseSpec("bad.yaml", []byte(r.src))
			if err == nil {
				t.Fatalf("spec accepted:\n%s", r.src)
			}
			if err.Error() != r.want {
				t.Errorf("error:\n got  %s\n want %s", err, r.want)
			}
		})
	}
}

// TestWithFormerNames: a config's former names join the spec's in a copy;
// the spec itself is unchanged.
func TestWithFormerNames(t *testing.T) {
	base := msgcheck.DefaultSpec()
	sp, err := base.WithFormerNames([]msgcheck.Rename{{Kind: "delegate", Field: "agent", Former: "assignee"}, {Kind: "delegate", Field: "agent", Former: "role"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sp.FormerNames("delegate"), map[string]string{"role": "agent", "assignee": "agent"}; !maps.Equal(got, want) {
		t.Errorf("FormerNames = %v, want %v", got, want)
	}
	if got, want := base.FormerNames("delegate"), map[string]string{"role": "agent"}; !maps.Equal(got, want) {
		t.Errorf("the embedded spec changed: %v", got)
	}
	msg := validDelegate()
	msg["assignee"] = msg["agent"]
	delete(msg, "agent")
	v := newValidator(t, repoRoot(t), sp)
	expect(t, v.Validate("delegate", msg), []string{"msgcheck/delegate-agent-renamed | assignee: the protocol calls this field agent"}, nil)
	expect(t, newValidator(t, repoRoot(t)).Validate("delegate", msg), []string{"msgcheck/delegate-agent-required | agent: required field is missing"},
		[]string{"msgcheck/delegate-unknown-field | Unknown field 'assignee' in DELEGATE (will be ignored)"})

	for _, r := range []struct {
		rename msgcheck.Rename
		want   string
	}{
		{msgcheck.Rename{Kind: "delegat", Field: "agent", Former: "x"}, `no message kind "delegat"`},
		{msgcheck.Rename{Kind: "delegate", Field: "agnet", Former: "x"}, `DELEGATE has no field "agnet"`},
		{msgcheck.Rename{Kind: "delegate", Field: "agent", Former: "scope"}, `"scope" is a field of DELEGATE`},
		{msgcheck.Rename{Kind: "delegate", Field: "skill", Former: "role"}, `"role" is the former name of DELEGATE's field "agent" already`},
	} {
		if _, err := base.WithFormerNames([]msgcheck.Rename{r.rename}); err == nil || !strings.Contains(err.Error(), r.want) {
			t.Errorf("%+v: error %v, want one saying %s", r.rename, err, r.want)
		}
	}
}

// TestValidateTapeFormerNames: the tape walk checks a message with a
// former name itself, as Validate does (compareTape holds them equal).
func TestValidateTapeFormerNames(t *testing.T) {
	v := tapeValidator(t)
	var tape jsonmsg.Tape
	for _, text := range []string{
		`{"task_id": "t-1-2", "skill": "code-review", "role": "Senior Engineer", "scope": "x"}`,
		`{"task_id": "t-1-2", "skill": "code-review", "role": "engineer", "agent": "engineer", "scope": "x"}`,
	} {
		if walked := compareTape(t, v, &tape, text); walked == 0 {
			t.Errorf("the tape walk declined %s", text)
		}
		if err := tape.Parse(text); err != nil {
			t.Fatal(err)
		}
		res, _ := v.ValidateTape("delegate", &tape)
		found := false
		for _, f := range append(res.Errors, res.Warnings...) {
			found = found || f.Rule == "msgcheck/delegate-agent-renamed" && strings.HasPrefix(f.Message, "role: the protocol calls this field agent")
		}
		if !found {
			t.Errorf("%s: no renamed finding: %+v", text, res)
		}
	}
}

// TestShapeFormerNames: a former name is a field of the kind when a
// record's fields are counted against foreign ones, never one of the
// core fields that make the shape; a chat message's role makes nothing.
func TestShapeFormerNames(t *testing.T) {
	sp := msgcheck.DefaultSpec()
	for _, c := range []struct {
		keys []string
		want string
	}{
		{[]string{"task_id", "role", "skill", "scope"}, "delegate"},
		// four of the kind's fields against three foreign ones: without
		// Role, foreign ones would outnumber the kind's
		{[]string{"task_id", "Role", "scope", "skill", "owner", "notes", "due"}, "delegate"},
		{[]string{"task_id", "role", "scope"}, ""},
		{[]string{"role", "content"}, ""},
		{[]string{"role", "content", "name", "tool_calls"}, ""},
	} {
		if got := sp.ShapeOf(msgcheck.Record{Keys: c.keys, Fold: true}); got != c.want {
			t.Errorf("ShapeOf(%v) = %q, want %q", c.keys, got, c.want)
		}
	}
}

// TestRenameTo: the finding on a former name alone names the key's new
// name; the one beside the field, and every other finding, none.
func TestRenameTo(t *testing.T) {
	v := newValidator(t, repoRoot(t))
	alone := validDelegate()
	alone["role"] = alone["agent"]
	delete(alone, "agent")
	both := validDelegate()
	both["role"] = "engineer"
	both["scope"] = "too short"
	for _, c := range []struct {
		msg  map[string]any
		want map[string]string // rule -> RenameTo
	}{
		{alone, map[string]string{"msgcheck/delegate-agent-renamed": "agent"}},
		{both, map[string]string{"msgcheck/delegate-agent-renamed": "", "msgcheck/delegate-scope-words": ""}},
	} {
		res := v.Validate("delegate", c.msg)
		got := map[string]string{}
		for _, f := range append(res.Errors, res.Warnings...) {
			got[f.Rule] = f.RenameTo()
		}
		if !maps.Equal(got, c.want) {
			t.Errorf("RenameTo by rule = %v, want %v", got, c.want)
		}
	}
}
