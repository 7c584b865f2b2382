package tablesok // want package:"4 candidates"

// tablesok holds the same copies whose helper counts lines, whose table
// column is read by a variable and whose gap gives the literal's value:
// duplicates, and no conflicting threshold.

import "strings"

// Delegate is a DELEGATE message.
type Delegate struct {
	Scope           string
	SuccessCriteria []string
}

// Handback is a HANDBACK message.
type Handback struct {
	RetryCount int
	Metrics    Metrics
}

// Metrics are a HANDBACK's metrics.
type Metrics struct{ Quality float64 }

type problem string

func (p problem) Error() string { return string(p) }

func lineCount(s string) int { return len(strings.Split(s, "\n")) }

func ValidateDelegate(d Delegate) error { // want `DELEGATE validation implemented 2 times`
	if len(strings.Fields(d.Scope)) < 15 {
		return problem("scope too short")
	}
	if len(d.SuccessCriteria) == 0 {
		return problem("no criteria")
	}
	return nil
}

func checkDelegate(d Delegate) error {
	if lineCount(d.Scope) < 10 {
		return problem("scope too short")
	}
	if len(d.SuccessCriteria) == 0 {
		return problem("no criteria")
	}
	return nil
}

const (
	maxRetries = 4
	retryGap   = 1
)

var thresholds = map[string]map[string]float64{
	"bugfix": {"escalate": 0.7},
}

func ShouldEscalate(h Handback) bool { // want `escalation decision implemented 2 times`
	if h.Metrics.Quality < 0.5 {
		return true
	}
	return h.RetryCount >= 3
}

func needsEscalation(h Handback, kind, col string) bool {
	if h.Metrics.Quality < thresholds[kind][col] {
		return true
	}
	return h.RetryCount >= maxRetries-retryGap
}
