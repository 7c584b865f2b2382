package msgcheck_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/protoscan-dev/protoscan/jsonmsg"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// TestShapeOf: a message is recognised by its marker, its type or
// builder's name, or enough of its core fields; the look-alikes of agent
// repositories (replies, task events, job states, column titles) are none.
func TestShapeOf(t *testing.T) {
	spec := msgcheck.DefaultSpec()
	rec := func(kv ...any) msgcheck.Record {
		var r msgcheck.Record
		for i := 0; i+1 < len(kv); i += 2 {
			r.Keys = append(r.Keys, kv[i].(string))
			r.Values = append(r.Values, kv[i+1])
		}
		return r
	}
	named := func(name string, call bool, r msgcheck.Record) msgcheck.Record {
		r.Name, r.Call = name, call
		return r
	}
	folded := func(r msgcheck.Record) msgcheck.Record { r.Fold = true; return r }
	computed := struct{}{}
	cases := []struct {
		name string
		r    msgcheck.Record
		want string
	}{
		{"handback by core fields", rec("task_id", computed, "status", "done", "output", nil), "handback"},
		{"handback with metrics", rec("task_id", "a-b", "status", "success", "metrics", computed), "handback"},
		{"delegate by core fields", rec("task_id", "a-b", "skill", "x", "agent", "engineer"), "delegate"},
		{"delegate with scope and plan", rec("task_id", "a-b", "scope", "x", "plan", computed), "delegate"},
		{"marker", rec("handoff_type", "HANDBACK", "task_id", "a-b"), "handback"},
		{"marker with more custom fields than the kind's", rec("handoff_type", "handback", "task_id", "a-b", "status", "done",
			"worker", "w1", "host", "h", "queue", "q", "attempt", 2, "trace", "t"), "handback"},
		{"type marker with the id", rec("type", "handback", "task_id", "a-b", "worker", "w", "host", "h", "queue", "q"), "handback"},
		{"type marker in capitals", rec("type", "DELEGATE", "task_id", "a-b"), "delegate"},
		{"type marker without the id", rec("type", "delegate", "name", "x", "agent", "a"), ""},
		{"marker of no kind", rec("handoff_type", "REVIEW", "task_id", "a-b", "status", "x", "output", 1), ""},
		{"computed marker", rec("handoff_type", computed, "task_id", "a-b", "status", "x", "output", 1), ""},
		{"named type", named("Handback", false, rec("task_id", computed, "status", "failed")), "handback"},
		{"named builder", named("make_handback", true, rec("task_id", computed, "status", "failed")), "handback"},
		{"message suffix", named("HandbackMessage", true, rec("task_id", computed, "status", "failed")), "handback"},
		{"delegate builder", named("build_delegate", true, rec("task_id", computed, "scope", "x")), "delegate"},
		{"dict call", named("dict", true, rec("task_id", computed, "status", "x", "output", 1)), "handback"},
		{"folded Go fields", folded(named("Result", false, rec("TaskID", computed, "Status", "x", "Output", computed))), "handback"},
		{"Go fields unfolded", named("Result", false, rec("TaskID", computed, "Status", "x", "Output", computed)), ""},

		{"two keys", rec("task_id", "a-b", "status", "success"), ""},
		{"tool reply", rec("task_id", computed, "status", "error", "message", computed), ""},
		{"event call", named("Event", true, rec("task_id", computed, "status", "working", "final", true)), ""},
		{"event call with output", named("TaskStatusUpdateEvent", true, rec("task_id", computed, "status", computed, "output", computed)), ""},
		{"status type named for more", named("HandbackStatus", true, rec("task_id", computed, "status", "x", "output", 1)), ""},
		{"job state struct", folded(named("JobState", false, rec("TaskID", computed, "Status", "running", "StartedAt", computed, "Worker", computed))), ""},
		{"foreign outnumber", rec("task_id", computed, "status", "x", "output", 1, "a", 1, "b", 2, "c", 3, "d", 4), ""},
		{"named but foreign", named("Handback", false, rec("task_id", computed, "a", 1, "b", 2)), ""},
		{"column titles", rec("task_id", "Task", "status", "Status", "output", "Output"), ""},
		{"column titles with ID", rec("task_id", "Task ID", "status", "Status", "output", "Result"), ""},
		{"field-name map", folded(rec("TaskID", "task_id", "Status", "status", "Output", "output")), ""},
		{"named column titles", named("Handback", false, rec("task_id", "Task", "status", "Status")), ""},
		{"field types", rec("task_id", "string", "status", "string", "output", "object", "metrics", "object"), ""},
		{"Python field types", folded(rec("task_id", "str", "status", "str", "output", "dict")), ""},
		{"a status that is no type", rec("task_id", "string", "status", "success", "output", "object"), "handback"},
		{"capitals are no title", rec("task_id", "Fix", "status", "SUCCESS", "output", "Done"), "handback"},
	}
	for _, c := range cases {
		if got := spec.ShapeOf(c.r); got != c.want {
			t.Errorf("%s: ShapeOf(%+v) = %q, want %q", c.name, c.r, got, c.want)
		}
		if c.want != "" && !spec.HasShape(c.want, c.r) {
			t.Errorf("%s: HasShape(%q) = false", c.name, c.want)
		}
	}
}

// TestShapeOfOtherSpecs: the same idea holds for the kinds of the other
// embedded specs, from their own fields.
func TestShapeOfOtherSpecs(t *testing.T) {
	nexus, err := msgcheck.EmbeddedSpec("nexus-handoff-v2.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := msgcheck.Record{Keys: []string{"step", "agent", "next_agent", "status"}, Values: []any{1, "a", "b", "x"}}
	if got := nexus.ShapeOf(r); got != "nexus_handoff_v2" {
		t.Errorf("NEXUS handoff: ShapeOf = %q", got)
	}
	r = msgcheck.Record{Keys: []string{"step", "agent"}, Values: []any{1, "a"}}
	if got := nexus.ShapeOf(r); got != "" {
		t.Errorf("two keys: ShapeOf = %q", got)
	}
}

// FuzzShapeOf: any keys, values and names (identifiers and keys come from
// untrusted files) give an answer without a panic, and a kind ShapeOf
// names is one HasShape agrees with.
func FuzzShapeOf(f *testing.F) {
	f.Add("task_id", "status", "output", "Task", "make_handback", true)
	f.Add("TaskID", "Status", "handoff_type", "HANDBACK", "HTTPHandbackV2Message", false)
	f.Add("", "-", "_", "", "__", false)
	spec := msgcheck.DefaultSpec()
	f.Fuzz(func(t *testing.T, k1, k2, k3, v, name string, call bool) {
		for _, fold := range []bool{false, true} {
			r := msgcheck.Record{Keys: []string{k1, k2, k3}, Values: []any{v, v, nil}, Name: name, Call: call, Fold: fold}
			if k := spec.ShapeOf(r); k != "" && !spec.HasShape(k, r) {
				t.Errorf("ShapeOf = %q, HasShape disagrees", k)
			}
		}
	})
}

// TestTypeMarkerIsNoUnknownField: "type" naming the message's kind is
// its marker, as handoff_type is; "type" naming another kind, or a number,
// is an unknown field.
func TestTypeMarkerIsNoUnknownField(t *testing.T) {
	v, err := msgcheck.New(msgcheck.Options{}, msgcheck.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		kind    string
		msg     map[string]any
		unknown []string
	}{
		{"handback", map[string]any{"type": "handback", "task_id": "t-1", "status": "success", "worker": "w"}, []string{"worker"}},
		{"handback", map[string]any{"type": " HANDBACK ", "task_id": "t-1", "status": "success"}, nil},
		{"handback", map[string]any{"type": "delegate", "task_id": "t-1", "status": "success"}, []string{"type"}},
		{"handback", map[string]any{"type": 3, "task_id": "t-1", "status": "success"}, []string{"type"}},
		{"delegate", map[string]any{"type": "delegate", "task_id": "t-1", "scope": "x"}, nil},
	} {
		var got []string
		for _, w := range v.Validate(c.kind, c.msg).Warnings {
			if w.IsUnknownField() {
				got = append(got, w.Field)
			}
		}
		if !slices.Equal(got, c.unknown) {
			t.Errorf("%v: unknown fields %v, want %v", c.msg, got, c.unknown)
		}
	}
}

// TestMessageKind: a message read as one names its kind by its marker,
// else by a type beside the kind's id field, else by the signatures, else
// its file's name does; the map and the tape agree.
func TestMessageKind(t *testing.T) {
	spec := msgcheck.DefaultSpec()
	for _, c := range []struct {
		msg, hint string
		kind      string
		named     bool
	}{
		{`{"handoff_type": "HANDBACK", "task_id": "t-1", "output": "x"}`, "", "handback", true},
		{`{"handoff_type": "handback", "task_id": "t-1", "scope": "x"}`, "delegate", "handback", true},
		{`{"type": "Handback", "task_id": "t-1", "output": "x"}`, "", "handback", true},
		{`{"type": "handback", "output": "x"}`, "", "", false},
		{`{"task_id": "t-1", "status": "success"}`, "", "handback", true},
		{`{"task_id": "t-1", "output": "x"}`, "handback", "handback", false},
		{`{"handoff_type": "REVIEW", "task_id": "t-1"}`, "", "", false},
	} {
		var m map[string]any
		if err := json.Unmarshal([]byte(c.msg), &m); err != nil {
			t.Fatal(err)
		}
		kind, named := spec.MessageKind(m, c.hint)
		var tape jsonmsg.Tape
		if err := tape.Parse(c.msg); err != nil {
			t.Fatal(err)
		}
		tkind, tnamed := spec.MessageKindTape(&tape, c.hint)
		if kind != c.kind || named != c.named || tkind != kind || tnamed != named {
			t.Errorf("%s (hint %q): map %q %v, tape %q %v; want %q %v", c.msg, c.hint, kind, named, tkind, tnamed, c.kind, c.named)
		}
	}
	for name, want := range map[string]string{
		"queue/DELEGATE-001.yaml": "delegate", "tasks-handback.json": "handback", `q\done\7-HANDBACK.yml`: "handback",
		"delegates/readme.yaml": "", "queue/001.yaml": "", "handbook.yaml": "",
	} {
		if got := spec.KindOfName(name); got != want {
			t.Errorf("KindOfName(%q) = %q, want %q", name, got, want)
		}
	}
}
