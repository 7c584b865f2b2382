// Package check validates messages at the gateway.
package check

import (
	"errors"
	"strings"

	"example.com/agents/gateway/limits"
)

type Delegate struct {
	Scope           string
	Plan            []string
	SuccessCriteria []string
}

type Metrics struct{ Quality float64 }

type Handback struct {
	RetryCount int
	Metrics    Metrics
}

func ValidateDelegate(d Delegate) error {
	if len(strings.Fields(d.Scope)) < minWords {
		return errors.New("scope: too short")
	}
	if len(d.Plan) < 2 {
		return errors.New("plan: at least two steps")
	}
	if len(d.SuccessCriteria) == 0 {
		return errors.New("success_criteria: required")
	}
	return nil
}

func ShouldEscalate(h Handback) bool {
	if h.Metrics.Quality < limits.MinQuality {
		return true
	}
	return h.RetryCount >= 3
}
