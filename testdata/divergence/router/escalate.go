// Package router routes HANDBACKs to the next agent.
package router

// Handback is a HANDBACK message as the router reads it.
type Handback struct {
	TaskID     string
	Status     string
	RetryCount int
	Metrics    Metrics
}

// Metrics are a HANDBACK's metrics.
type Metrics struct {
	Quality float64
	Tokens  int
}

// ShouldEscalate decides whether a HANDBACK goes up to a senior agent.
func ShouldEscalate(h Handback) bool {
	quality := h.Metrics.Quality
	if quality < minQuality {
		return true
	}
	if h.RetryCount >= 3 {
		return true
	}
	if h.Status == "blocked" || h.Status == "escalate" {
		return true
	}
	return false
}
