package tables // want package:"4 candidates"

// tables holds thresholds written through a helper, a table and a gap,
// each a copy of a literal one with another value.

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

func wordCount(s string) int { return len(strings.Fields(s)) }

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
	if wordCount(d.Scope) < 10 { // want `the word count of scope is compared with different values in copies of one DELEGATE validation: 15 in ValidateDelegate .*; 10 in checkDelegate` `checkDelegate holds the word count of scope to at least 10`
		return problem("scope too short")
	}
	if len(d.SuccessCriteria) == 0 {
		return problem("no criteria")
	}
	return nil
}

const (
	maxRetries = 5
	retryGap   = 1
)

var thresholds = map[string]map[string]float64{
	"bugfix":  {"escalate": 0.5},
	"feature": {"escalate": 0.7},
}

func ShouldEscalate(h Handback) bool { // want `escalation decision implemented 2 times`
	if h.Metrics.Quality < 0.5 { // want `metrics.quality is compared with different values in copies of one escalation decision: 0.5 in ShouldEscalate .*; 0.5, 0.7 in needsEscalation`
		return true
	}
	return h.RetryCount >= 3 // want `retry_count is compared with different values in copies of one escalation decision: 3 in ShouldEscalate .*; 4 in needsEscalation`
}

func needsEscalation(h Handback, kind string) bool {
	row := thresholds[kind]
	if h.Metrics.Quality < row["escalate"] {
		return true
	}
	return h.RetryCount >= maxRetries-retryGap
}
