package escalation // want package:"2 candidates"

// escalation plants two copies of an escalation decision for divergence.

// Handback is a HANDBACK message.
type Handback struct {
	Status  string
	Metrics Metrics
}

// Metrics are a HANDBACK's metrics.
type Metrics struct{ Quality float64 }

func ShouldEscalate(h Handback) bool { // want `escalation decision implemented 2 times`
	if h.Metrics.Quality < 0.5 { // want `metrics.quality is compared with different values`
		return true
	}
	return h.Status == "blocked"
}

func needsEscalation(hb Handback) bool {
	if hb.Metrics.Quality < 0.7 {
		return true
	}
	return hb.Status == "blocked"
}
