package validators

import (
	"errors"
	"slices"
)

// checkState refuses a status handbackStates lacks.
func checkState(h Handback) error {
	if !slices.Contains(handbackStates, h.Status) {
		return errors.New("invalid status")
	}
	return nil
}

// route only routes: no gate.
func route(h Handback) string {
	if slices.Contains(routed, h.Status) {
		return "done"
	}
	return "open"
}
