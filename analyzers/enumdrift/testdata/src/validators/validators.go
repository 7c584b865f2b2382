// Package validators holds sets that gate the acceptance of a field's
// values, and sets that only route.
package validators

import (
	"errors"
	"fmt"
	"slices"
)

type Handback struct {
	TaskID string `json:"task_id"`
	Status string `json:"status"`
	Output any    `json:"output"`
}

type Delegate struct {
	TaskID string `json:"task_id"`
	Agent  string `json:"agent"`
	Scope  string `json:"scope"`
}

var validStatuses = []string{"success", "failure", "partial", "blocked"} // want `set validStatuses rejects the valid HANDBACK status escalate \(tested against h.Status; the statuses are`

// ValidateHandback refuses a status validStatuses lacks.
func ValidateHandback(h Handback) error {
	if !slices.Contains(validStatuses, h.Status) {
		return errors.New("invalid status")
	}
	return nil
}

var validAgents = []string{"engineer", "senior-engineer", "lead-engineer", "principal-engineer", "security-engineer", "quality-engineer", "model-engineer"} // want `set validAgents rejects the valid DELEGATE agent orchestrator \(tested against d.Agent; the values are`

func isValidAgent(d Delegate) bool {
	return slices.Contains(validAgents, d.Agent)
}

var knownStatuses = map[string]bool{"success": true, "failure": true, "partial": true, "escalate": true} // want `table knownStatuses rejects the valid HANDBACK status blocked \(tested against h.Status`

func parseStatus(h Handback) (string, error) {
	if !knownStatuses[h.Status] {
		return "", fmt.Errorf("unknown status %q", h.Status)
	}
	return h.Status, nil
}

// next routes by status: a lookup, not a validator.
var next = map[string]string{"success": "merge", "failure": "retry"}

func after(h Handback) string { return next[h.Status] }

// engineers routes: a subset, not a validator.
var engineers = []string{"engineer", "senior-engineer"}

// terminal statuses end polling: a subset, not a validator.
var terminal = []string{"success", "failure"}

func Route(d Delegate, h Handback) {
	if slices.Contains(engineers, d.Agent) {
		assign(d)
	}
	if slices.Contains(terminal, h.Status) {
		finish(h)
	}
}

func assign(Delegate) {}
func finish(Handback) {}
