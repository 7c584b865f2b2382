package config

import (
	"slices"
	"testing"
)

func TestRenamed(t *testing.T) {
	c, err := Parse("c.yaml", []byte("renamed:\n  delegate.assignee: agent\n  handback.state: status\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Renamed{
		{Kind: "delegate", Former: "assignee", Field: "agent", Pos: Pos{2, 3}, FieldPos: Pos{2, 22}},
		{Kind: "handback", Former: "state", Field: "status", Pos: Pos{3, 3}, FieldPos: Pos{3, 19}},
	}
	if !slices.Equal(c.Renamed, want) {
		t.Errorf("Renamed = %+v\nwant      %+v", c.Renamed, want)
	}
	for _, r := range []struct{ src, want string }{
		{"renamed: [a]\n", `c.yaml:1:10: renamed: must be a mapping from KIND.FORMER_NAME to the field's name, as in {delegate.assignee: agent} (got a list)`},
		{"renamed: {assignee: agent}\n", `c.yaml:1:11: renamed: "assignee" must be KIND.FORMER_NAME, as in delegate.assignee`},
		{"renamed: {delegate.a.b: agent}\n", `c.yaml:1:11: renamed: "delegate.a.b" must be KIND.FORMER_NAME, as in delegate.assignee`},
		{"renamed: {delegate.assignee: 3}\n", `c.yaml:1:30: renamed "delegate.assignee": must name the field, as a string (got 3)`},
		{"renamed: {delegate.agent: agent}\n", `c.yaml:1:27: renamed "delegate.agent": names the field itself`},
		{"renamd: {delegate.assignee: agent}\n", `c.yaml:1:1: unknown key "renamd" (did you mean "renamed"?)`},
	} {
		_, err := Parse("c.yaml", []byte(r.src))
		if err == nil || err.Error() != r.want {
			t.Errorf("%q:\n got  %v\n want %s", r.src, err, r.want)
		}
	}
}
