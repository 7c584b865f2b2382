package required // want package:"3 candidates"

// Validations compared on the fields they require: with the spec, which
// requires task_id, status, output and metrics of a HANDBACK and calls a
// DELEGATE's agent what older code calls role, and look-alikes that must
// stay silent.

import "errors"

var handbackRequired = []string{"task_id", "status", "output", "deliverables"} // want `ValidateHandback requires deliverables, which the protocol does not define: a spec-valid HANDBACK fails this check`

func ValidateHandback(m map[string]any) error { // want `ValidateHandback does not require metrics, which the spec requires: a HANDBACK without metrics passes this check`
	for _, f := range handbackRequired {
		if _, ok := m[f]; !ok {
			return errors.New("missing " + f)
		}
	}
	return nil
}

// Delegate is checked by a struct validator through its tags.
type Delegate struct {
	TaskID          string   `json:"task_id" validate:"required"`
	Skill           string   `json:"skill" validate:"required"`
	Role            string   `json:"role" validate:"required"` // want `ValidateDelegate requires role, the former name of agent: a spec-valid DELEGATE fails this check \(one that carries agent\)`
	Scope           string   `json:"scope" validate:"required"`
	SuccessCriteria []string `json:"success_criteria" validate:"required"`
	Plan            []string `json:"plan" validate:"required"`
	Context         string   `json:"context" validate:"required"`
	Effort          string   `json:"effort,omitempty"`
}

type structValidator interface{ Struct(any) error }

func ValidateDelegate(v structValidator, d Delegate) error {
	return v.Struct(d)
}

// validateEvent checks an event of the task board, which has task_id and
// status but is no message of the protocol.
func validateEvent(evt map[string]any) error {
	for _, f := range []string{"task_id", "status", "timestamp", "source"} {
		if evt[f] == nil {
			return errors.New("event lacks " + f)
		}
	}
	return nil
}

// checkHandbackFlags checks an optional field only when it is present.
func checkHandbackFlags(m map[string]any) error {
	if v, ok := m["flags"]; ok && v == nil {
		return errors.New("flags")
	}
	return nil
}
