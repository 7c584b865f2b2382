package msgcheck_test

import (
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/msgcheck"
)

// pipelineSpec is a two-kind spec with the given pipeline section.
func pipelineSpec(section string) string {
	return `version: "1.0"
a:
  signature: [x]
  core_fields: {x: {type: string}, n: {type: number}}
b:
  signature: [y]
  core_fields: {y: {type: string}}
pipeline:
` + indent(section, "  ") + "\n"
}

func TestPipelineSpecErrors(t *testing.T) {
	tests := []struct{ section, want string }{
		{"transitions: [a]", "p.yaml:9:16: pipeline.transitions must map a stage to the list of kinds it may move to"},
		{"transitions: {c: [a]}", `p.yaml:9:17: pipeline.transitions: "c" is neither "start" nor a message kind of the spec (a, b)`},
		{"transitions: {start: [a, c]}", `p.yaml:9:28: pipeline.transitions.start: "c" is not a message kind of the spec (a, b)`},
		{"routes: {}", `p.yaml:9:3: unknown key "routes" in pipeline (want transitions, approval)`},
		{"- a", "p.yaml:9:3: pipeline must be a mapping with transitions and/or approval"},
		{"approval: {name: x}", "p.yaml:9:13: pipeline.approval must be a list of rules (name, tier, kind, when, message)"},
		{"approval:\n  - {tier: auto}", "p.yaml:10:7: pipeline.approval[0] has no name"},
		{"approval:\n  - {name: x, tier: maybe, message: m}", `p.yaml:10:23: pipeline.approval[0].tier must be auto, needs_approval or deny (got "maybe")`},
		{"approval:\n  - {name: x}", "p.yaml:10:7: pipeline.approval[0] has no tier (auto, needs_approval or deny)"},
		{"approval:\n  - {name: x, tier: deny}", "p.yaml:10:7: pipeline.approval[0] needs a message: it is shown to the person asked or in the rejection"},
		{"approval:\n  - {name: x, tier: auto}\n  - {name: x, tier: auto}", `p.yaml:11:14: pipeline.approval[1]: name "x" is used by an earlier rule`},
		{"approval:\n  - {name: x, tier: auto, kind: c}", `p.yaml:10:35: pipeline.approval[0].kind: "c" is not a message kind of the spec (a, b)`},
		{"approval:\n  - {name: x, tier: auto, kind: a, when: {y: 1}}", `p.yaml:10:45: pipeline.approval[0].when: "y" is not a field of kind a`},
		{"approval:\n  - {name: x, tier: auto, when: {z: 1}}", `p.yaml:10:36: pipeline.approval[0].when: "z" is not a field of any message kind of the spec`},
		{"approval:\n  - {name: x, tier: auto, when: {n: {about: 1}}}", `p.yaml:10:40: pipeline.approval[0].when.n: unknown test "about" (want lt, le, gt, ge, present)`},
		{"approval:\n  - {name: x, tier: auto, when: {n: {lt: low}}}", `p.yaml:10:44: lt must be a number (got "low")`},
		{"approval:\n  - {name: x, tier: auto, when: {n: []}}", "p.yaml:10:39: pipeline.approval[0].when.n: the list of values is empty"},
		{"approval:\n  - {name: x, tier: auto, unless: {}}", `p.yaml:10:29: unknown key "unless" in pipeline.approval[0] (want name, tier, kind, when, message)`},
	}
	for _, tt := range tests {
		_, err := msgcheck.ParseSpec("p.yaml", []byte(pipelineSpec(tt.section)))
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s:\ngot  %v\nwant %s", tt.section, err, tt.want)
		}
	}
}

func TestPipelineSpec(t *testing.T) {
	sp := mustParse(t, "p.yaml", pipelineSpec(`transitions:
  start: [a]
  a: [a, b]
approval:
  - {name: gone, tier: deny, kind: a, when: {x: [drop, delete]}, message: no}
  - {name: big, tier: needs_approval, when: {n: {gt: 10, le: 100}}, message: big}
  - {name: bare, tier: needs_approval, kind: b, when: {y: {present: false}}, message: bare}
  - {name: flag, tier: auto, when: {x: true}}`))
	ps := sp.Pipeline()
	if ps == nil {
		t.Fatal("no pipeline section")
	}
	for _, tt := range []struct {
		from, kind string
		want       bool
	}{{"start", "a", true}, {"start", "b", false}, {"a", "b", true}, {"b", "a", false}, {"", "b", true}, {"nowhere", "a", false}} {
		if got := ps.Allowed(tt.from, tt.kind); got != tt.want {
			t.Errorf("Allowed(%q, %q) = %v", tt.from, tt.kind, got)
		}
	}
	if got := strings.Join(ps.Stages(), ","); got != "start,a" {
		t.Errorf("Stages = %s", got)
	}
	for _, tt := range []struct {
		kind string
		msg  map[string]any
		want string
	}{
		{"a", map[string]any{"x": "drop"}, "gone"},
		{"a", map[string]any{"x": "keep"}, ""},
		{"b", map[string]any{"x": "drop"}, "bare"}, // gone is for kind a only
		{"a", map[string]any{"x": "keep", "n": 50}, "big"},
		{"a", map[string]any{"x": "keep", "n": 10.0}, ""},
		{"a", map[string]any{"x": "keep", "n": int64(100)}, "big"},
		{"a", map[string]any{"x": "keep", "n": "50"}, ""},
		{"b", map[string]any{"y": "z", "n": 5}, ""},
		{"a", map[string]any{"x": true}, "flag"},
	} {
		got := ""
		if r := ps.Match(tt.kind, tt.msg); r != nil {
			got = r.Name
		}
		if got != tt.want {
			t.Errorf("Match(%s, %v) = %q, want %q", tt.kind, tt.msg, got, tt.want)
		}
	}
	if r := ps.Approval()[1]; r.Tier != msgcheck.TierNeedsApproval || r.Message != "big" || strings.Join(r.Fields(), ",") != "n" || r.Line != 14 || r.Column != 7 {
		t.Errorf("rule big: %+v", r)
	}
	if msgcheck.DefaultSpec().Pipeline() == nil {
		t.Error("the embedded spec has no pipeline section")
	}
	if mustParse(t, "plain.yaml", fieldSpecSource("", "type: string")).Pipeline() != nil {
		t.Error("a spec without a pipeline section has one")
	}
}
