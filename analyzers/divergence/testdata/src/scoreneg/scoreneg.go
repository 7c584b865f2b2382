// Package scoreneg holds look-alikes of escalation decisions on a score:
// scores of other things, an HTTP status, a back-off table and names
// without protocol evidence, each written twice with other cut-offs.
package scoreneg

// Report is a CI report.
type Report struct {
	Coverage   float64
	Similarity float64
}

func escalate(r Report) {}

// CheckCoverage escalates on test coverage.
func CheckCoverage(r Report) {
	if r.Coverage < 80 {
		escalate(r)
	}
}

func checkCoverageAgain(r Report) {
	if r.Coverage < 70 {
		escalate(r)
	}
}

// Dedupe escalates near-duplicates by their similarity score.
func Dedupe(r Report, similarityScore float64) string {
	if similarityScore > 0.9 {
		return "escalate"
	}
	return ""
}

func dedupeAgain(r Report, similarityScore float64) string {
	if similarityScore > 0.8 {
		return "escalate"
	}
	return ""
}

// Response is an HTTP response.
type Response struct{ StatusCode int }

func page(r *Response) {}

// Forward pages on-call on server errors.
func Forward(r *Response) {
	if r.StatusCode >= 500 {
		escalateToOncall(r)
	}
}

func forwardAgain(r *Response) {
	if r.StatusCode >= 502 {
		escalateToOncall(r)
	}
}

func escalateToOncall(r *Response) { page(r) }

// backoff is a retry back-off table.
var backoff = []int{1, 2, 4, 8}

// NextDelay escalates when the retries run out.
func NextDelay(attempt int) int {
	if attempt > 3 {
		return -1
	}
	return backoff[attempt]
}

// Ticket is a support ticket.
type Ticket struct{ Score float64 }

// ShouldEscalate is named for escalation, but a ticket is no protocol
// message.
func ShouldEscalate(t Ticket) bool {
	if t.Score < 70 {
		return true
	}
	return false
}

func needsEscalation(t Ticket) bool {
	if t.Score < 60 {
		return true
	}
	return false
}
