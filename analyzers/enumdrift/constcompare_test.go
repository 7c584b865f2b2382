package enumdrift_test

import (
	"slices"
	"testing"
)

// TestConstantsCompared: a constant compared with a field holds one of
// its values, judged where the constant is defined, in Python and Go; a
// name bound twice, a Python variable and a constant compared with no
// field are not.
func TestConstantsCompared(t *testing.T) {
	v := shapesVocabulary(t)
	for _, c := range []struct {
		name, path, src string
		want            []string
	}{
		{"python", "delegate_router.py", `AGENT_SENIOR = "senior_engineer"
AGENT_LEAD = "Lead Engineer"
DONE = "complete"

def route(delegate):
    if delegate["agent"] == AGENT_SENIOR:
        return 1
    if AGENT_LEAD == delegate["agent"]:
        return 2

def finished(handback):
    return handback.get("status") == DONE or handback.get("status") == "failure"
`, []string{"1:16 enumdrift/value-case senior_engineer->senior-engineer", "2:14 enumdrift/value-case Lead Engineer->lead-engineer",
			"3:8 enumdrift/legacy-status complete->success"}},
		{"python: bound twice, a variable, no field", "delegate_router.py", `AGENT_SENIOR = "senior_engineer"
AGENT_SENIOR = "senior-engineer"
lead = "Lead Engineer"
OTHER = "Principal Engineer"

def route(delegate, who):
    if delegate["agent"] == AGENT_SENIOR:
        return 1
    if delegate["agent"] == lead:
        return 2
    if who == OTHER:
        return 3
`, nil},
		{"go", "delegate.go", `package agents

type Delegate struct {
	TaskID string ` + "`json:\"task_id\"`" + `
	Agent  string ` + "`json:\"agent\"`" + `
}

const (
	AgentSenior = "senior_engineer"
	AgentLead   = "Lead Engineer"
)

func Route(delegate Delegate) int {
	if delegate.Agent == AgentSenior {
		return 1
	}
	switch delegate.Agent {
	case AgentLead:
		return 2
	}
	return 0
}
`, []string{"9:16 enumdrift/value-case senior_engineer->senior-engineer", "10:16 enumdrift/value-case Lead Engineer->lead-engineer"}},
		{"go: a constant compared with no field", "delegate.go", `package agents

const (
	AgentSenior = "senior_engineer"
	AgentLead   = "Lead Engineer"
)

func Route(who string) int {
	if who == AgentSenior || who == AgentLead {
		return 1
	}
	return 0
}
`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := analyze(t, v, c.path, c.src); !slices.Equal(got, c.want) {
				t.Errorf("got %q\nwant %q", got, c.want)
			}
		})
	}
}
