// Package shapes plants drift in the shapes Go code gives a vocabulary:
// slices and maps a field is looked up in, switches on other enums, alias
// tables that explain a legacy word.
package shapes

import "slices"

type Handback struct {
	TaskID string
	Status string
	Output any
}

type Delegate struct {
	TaskID string
	Agent  string
	Scope  string
}

// terminal is tested with slices.Contains: a status vocabulary.
var terminal = []string{"success", "Failure"} // want `status "Failure" differs from the canonical "failure" only in case`

// retryable is looked up by status: its keys are statuses.
var retryable = map[string]bool{"partial": true, "escalated": false} // want `legacy status "escalated"`

// finishedWords is the package's alias table: "finished" means success.
var finishedWords = map[string]string{"finished": "success", "errored": "failure"}

func done(h Handback) bool {
	if slices.Contains(terminal, h.Status) {
		return true
	}
	if retryable[h.Status] {
		return false
	}
	return h.Status == "finished" // want `legacy status "finished": the protocol spells it "success", as the alias table at .*shapes.go:27 says`
}

func newHandback(id string) Handback { return Handback{TaskID: id, Status: "success", Output: nil} }

func newDelegate(id, scope string) Delegate {
	return Delegate{TaskID: id, Agent: "engineer", Scope: scope}
}

func assign(d Delegate) int {
	switch d.Agent {
	case "engineer":
		return 1
	case "senior_engineer": // want `DELEGATE agent value "senior_engineer" differs from the canonical "senior-engineer" only in case and separators`
		return 2
	}
	return 0
}

// NEXUS_HANDOFF_V2 next actions, one in the wrong case.
type NextAction string

const ( // want `const NextAction defines NEXUS_HANDOFF_V2 next_action values but lacks ESCALATE`
	Continue NextAction = "CONTINUE"
	Merge    NextAction = "MERGE"
	Verify   NextAction = "Verify" // want `NEXUS_HANDOFF_V2 next_action value "Verify" differs from the canonical "VERIFY" only in case`
	Abort    NextAction = "ABORT"
)
