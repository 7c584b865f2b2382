package a // want package:"2 candidates"

// a holds two escalation decisions that drifted apart.

// Handback is a HANDBACK message.
type Handback struct {
	Status     string
	RetryCount int
	Metrics    Metrics
}

// Metrics are a HANDBACK's metrics.
type Metrics struct{ Quality float64 }

func ShouldEscalate(h Handback) bool { // want `escalation decision implemented 2 times \(ShouldEscalate and needsEscalation\); keep one`
	if h.Metrics.Quality < 0.5 { // want `metrics.quality is compared with different values in copies of one escalation decision: 0.5 in ShouldEscalate .*; 0.6 in needsEscalation`
		return true
	}
	if h.RetryCount >= 3 {
		return true
	}
	return h.Status == "blocked"
}

func needsEscalation(hb Handback) bool {
	q := hb.Metrics.Quality
	if q < 0.6 {
		return true
	}
	if hb.RetryCount >= 3 {
		return true
	}
	return hb.Status == "blocked"
}
