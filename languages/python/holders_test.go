package python

import (
	"fmt"
	"slices"
	"testing"
)

// TestHolders: the holders of a field's values that are not literals at
// the place of use: a collection read at an index, an enum member or
// class built from the field, a set bound to an instance attribute.
func TestHolders(t *testing.T) {
	runCases(t, []tcase{
		{"item at an index compared and assigned", `
def route(d):
    if d["agent"] == AGENTS[1] or AGENTS[-1] != d.agent:
        d["agent"] = AGENTS[0]
`, `
T AGENTS key=agent recv=d scope=route @2:8
T AGENTS key=agent recv=d scope=route @2:49
T AGENTS key=agent recv=d scope=route @3:9
`},
		// AGENTS[i] looks i up in AGENTS, as any subscript by a name does
		{"item at a computed index or a string key, or compared with a plain variable, is no holder", `
def route(d, i, c):
    if d["agent"] == AGENTS[i] or d["agent"] == CONFIG["default"] or c == AGENTS[0]:
        d["agent"] = AGENTS[i:]
`, `
T AGENTS key=i scope=route @2:22
`},
		{"enum member and enum built from the field", `
def route(delegate):
    if delegate["agent"] == Agent.SENIOR or delegate["agent"] == Agent.LEAD.value:
        return Agent(delegate["agent"])
`, `
T Agent key=agent recv=delegate scope=route @2:8
T Agent key=agent recv=delegate scope=route @2:45
T Agent key=agent recv=delegate scope=route accept @3:22
`},
		{"attributes of objects and calls of functions are no holders", `
def route(delegate):
    if delegate["agent"] == self.default or delegate["agent"] == config.agent:
        return str(delegate["agent"])
`, ``},
		{"set bound to an instance attribute is the class's", `
class Validator:
    def __init__(self):
        self.valid = {"a", "b"}
        other.valid = {"c"}

    def check(self, d):
        return d["agent"] in self.valid
`, `
S member "a" key=valid scope=Validator.__init__ g=0 @3:23-3:26
S member "b" key=valid scope=Validator.__init__ g=0 @3:28-3:31
S assign "c" key=valid recv=other scope=Validator.__init__ @4:24-4:27
G set "valid" scope=Validator @3:9 [0 1]
T valid key=agent recv=d scope=Validator.check accept @7:16
`},
		{"attribute set outside a method is no class's", `
def setup(self):
    self.valid = {"a", "b"}
`, `
S assign "a" key=valid recv=self scope=setup @2:19-2:22
S assign "b" key=valid recv=self scope=setup @2:24-2:27
`},
	})
}

// TestUnions: a name bound to the union of named collections is one fact
// whatever the spelling of the union; a union with a literal is none.
func TestUnions(t *testing.T) {
	src := `ACCEPTED = CANONICAL | OLD | states.NEWER
B = frozenset(CANONICAL).union(OLD)
C = {*CANONICAL, *OLD}
D = CANONICAL | {"done"}
E = CANONICAL
`
	f, err := Extract("u.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range f.Unions {
		got = append(got, fmt.Sprintf("%s=%v@%d", u.Name, u.Parts, u.Pos.Line))
	}
	want := []string{"ACCEPTED=[CANONICAL OLD NEWER]@1", "B=[CANONICAL OLD]@2", "C=[CANONICAL OLD]@3"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
