// Package negatives holds statuses of other things: none is a HANDBACK
// status, and enumdrift must stay silent on all of them.
package negatives

import "net/http"

type Health struct {
	Status  string
	Version string
}

func health() Health { return Health{Status: "ok", Version: "1.2"} }

func httpStatus(r *http.Response) bool {
	return r.Status == "200 OK" || r.Status == "404 Not Found"
}

// Condition is a Kubernetes condition.
type Condition struct {
	Type   string
	Status string
	Reason string
}

func ready(c Condition) bool { return c.Type == "Ready" && c.Status == "True" }

// AccountState is not a HANDBACK status even though it has a "failed".
type AccountState string

const (
	Active    AccountState = "active"
	Suspended AccountState = "suspended"
	Failed    AccountState = "failed"
)

// JobState shares two values with the HANDBACK statuses, not three.
const (
	JobPending = "pending"
	JobRunning = "running"
	JobSuccess = "success"
	JobFailed  = "failed"
)

func job(state string) bool {
	if state == "failed" || state == "FAILED" {
		return false
	}
	return state == "success"
}

func flags(args []string) string {
	for _, a := range args {
		if a == "--status" {
			return "status"
		}
	}
	return ""
}

// RunOutcome is a benchmark's result status: three of its words are
// HANDBACK statuses, the other three are not, and nothing in the file
// handles HANDBACKs, so it is an enum of its own.
type RunOutcome string

const (
	RunSuccess   RunOutcome = "success"
	RunFailure   RunOutcome = "failure"
	RunPartial   RunOutcome = "partial"
	RunError     RunOutcome = "error"
	RunTimeout   RunOutcome = "timeout"
	RunCancelled RunOutcome = "cancelled"
)

// outcomeRank orders the outcomes of a benchmark run.
var outcomeRank = map[RunOutcome]int{
	"success": 0, "partial": 1, "failure": 2, "error": 3, "timeout": 4, "cancelled": 5,
}

// jobMarks is a task board's vocabulary, looked up with a job's status:
// "failed" and "blocked" are its own words here, not HANDBACK drift.
var jobMarks = map[string]string{"waiting": ".", "running": "~", "completed": "x", "failed": "!", "blocked": "#"}

type BoardJob struct{ Status string }

func mark(j BoardJob) string { return jobMarks[j.Status] }
