package golang

import (
	"strings"
	"testing"
)

// TestTestBranches: what the code does when a field's value is in the
// collection it is tested against, read from the test's if or returned
// verdict; routing and lookups say nothing.
func TestTestBranches(t *testing.T) {
	src := `package p

import (
	"errors"
	"slices"
)

type H struct{ Status, Agent, Effort string }

func Check(h H) error {
	if !slices.Contains(valid, h.Status) {
		return errors.New("bad status")
	}
	if !allowed[h.Agent] {
		return errors.New("bad agent")
	}
	if slices.Contains(blocked, h.Effort) || h.Agent == "" {
		panic("blocked")
	}
	return nil
}

func isValidStatus(s string) bool {
	return slices.Contains(statuses, s)
}

func Route(h H) {
	if slices.Contains(engineers, h.Agent) {
		assign(h)
	}
	done := slices.Contains(terminal, h.Status)
	fn := routes[h.Status]
	if slices.Index(valid, h.Status) < 0 {
		panic(h)
	}
	_, _ = done, fn
}

func isDone(h H) bool {
	if slices.Contains(terminal, h.Status) {
		return true
	}
	if !slices.Contains(agents, h.Agent) {
		return false
	}
	return false
}

func isValid(h H) bool {
	if !slices.Contains(agents, h.Agent) {
		return false
	}
	return true
}
`
	ff, err := Extract("x.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range dump(ff) {
		if strings.HasPrefix(l, "t") {
			got = append(got, l)
		}
	}
	want := []string{
		"t0 11:6 valid key=Status recv=h scope=Check accept",
		"t1 14:6 allowed key=Agent recv=h scope=Check accept",
		"t2 17:5 blocked key=Effort recv=h scope=Check reject",
		"t3 24:9 statuses key=s scope=isValidStatus accept",
		"t4 28:5 engineers key=Agent recv=h scope=Route",
		"t5 31:10 terminal key=Status recv=h scope=Route",
		"t6 32:8 routes key=Status recv=h scope=Route",
		"t7 33:5 valid key=Status recv=h scope=Route",
		"t8 40:5 terminal key=Status recv=h scope=isDone",
		"t9 43:6 agents key=Agent recv=h scope=isDone",
		"t10 50:6 agents key=Agent recv=h scope=isValid accept",
	}
	if d := diffLines(want, got); d != "" {
		t.Errorf("tests differ (-want +got):\n%s", d)
	}
}
