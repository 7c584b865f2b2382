package specok // want package:"2 candidates"

// specok holds validations that agree with the spec however they
// write it, and thresholds on what the spec does not bound: none is
// reported.

import (
	"errors"
	"strings"
)

// lastShortScope is the spec's minWords 15, written as the last count refused.
const lastShortScope = 14

type Delegate struct {
	Scope           string
	Plan            []string
	SuccessCriteria []string
	Context         string
}

type Metrics struct{ Quality float64 }

type Handback struct {
	Output     string
	RetryCount int
	Metrics    Metrics
}

func ValidateDelegate(d Delegate) error {
	if len(strings.Fields(d.Scope)) <= lastShortScope { // at least 15
		return errors.New("scope: too short")
	}
	if !(len(d.Plan) >= 2) { // at least 2
		return errors.New("plan: too short")
	}
	if len(d.SuccessCriteria) == 0 { // at least 1
		return errors.New("success_criteria: empty")
	}
	if len(d.Context) > 4000 { // the spec does not bound context
		return errors.New("context: too long")
	}
	if len(strings.Fields(d.Scope)) > 400 { // nor the scope's words from above
		return errors.New("scope: too long")
	}
	return nil
}

func CheckHandback(h Handback) error {
	if h.Metrics.Quality < 0.5 { // within 0-1: the code's own policy
		return errors.New("quality: too low")
	}
	if h.Metrics.Quality > 1 { // the spec's maximum
		return errors.New("quality: above 1")
	}
	if h.RetryCount == -1 { // a sentinel, not an order comparison
		return errors.New("retry_count: unset")
	}
	return nil
}
