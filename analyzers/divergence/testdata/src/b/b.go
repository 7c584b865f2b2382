package b // want package:"1 candidate"

// b copies the escalation decision of package a instead of calling it.

import "a"

func Escalate(h a.Handback) bool { // want `escalation decision implemented 3 times \(ShouldEscalate, needsEscalation and Escalate\)`
	if h.Metrics.Quality < 0.7 { // want `metrics.quality is compared with different values .*0.7 in Escalate`
		return true
	}
	if h.RetryCount >= 3 {
		return true
	}
	return h.Status == "blocked"
}

// Route calls the decision: a caller is not a copy.
func Route(h a.Handback) string {
	if a.ShouldEscalate(h) {
		return "senior-engineer"
	}
	return "orchestrator"
}
