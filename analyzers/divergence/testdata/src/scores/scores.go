package scores // want package:"4 candidates"

// scores holds escalation decisions as code writes them: on a quality
// score of 0–100 that the spec holds on 0–1 as metrics.quality, decided
// by a name and a HANDBACK parameter, or by escalating.

// Handback is a HANDBACK message as this service reads it.
type Handback struct {
	QualityScore float64
	Metrics      struct{ Quality float64 }
}

func ShouldEscalate(h *Handback) bool { // want `escalation decision implemented 3 times \(ShouldEscalate, needsEscalation and Gate\); keep one`
	q := h.QualityScore
	if q < 70 { // want `metrics.quality is compared with different values in copies of one escalation decision: 70 \(0.70\) in ShouldEscalate .*; 60 \(0.60\) in needsEscalation .*; 0.5 in Gate`
		return true
	}
	return false
}

func needsEscalation(h Handback) bool {
	if h.QualityScore < 60 {
		return true
	}
	return false
}

// Gate escalates by what it does, not by its name.
func Gate(h Handback) string {
	if h.Metrics.Quality < 0.5 {
		return "escalate"
	}
	return "accept"
}

// Reviewer rates work from 1 to 5: a rating is its own scale, never
// merged with the quality score.
type Reviewer struct{ rating float64 }

func (r *Reviewer) Route(h *Handback) string {
	if r.rating < 3 {
		return "human_review"
	}
	return "done"
}
