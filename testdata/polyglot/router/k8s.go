package router

import "net/http"

// Condition is a Kubernetes condition: Status is "True", "False" or "Unknown".
type Condition struct {
	Type, Status, Reason string
}

func Ready(cs []Condition) bool {
	for _, c := range cs {
		if c.Type == "Ready" && c.Status == "True" {
			return true
		}
	}
	return false
}

func OK(r *http.Response) bool { return r.Status == "200 OK" }

// job states share two values with the HANDBACK statuses, not three
const (
	JobPending = "pending"
	JobRunning = "running"
	JobSuccess = "success"
	JobFailed  = "failed"
)
