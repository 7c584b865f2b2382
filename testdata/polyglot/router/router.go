// Package router routes HANDBACKs; drifted statuses are planted.
package router

type Status string

const (
	StatusSuccess  Status = "success"
	StatusFailure  Status = "FAILURE" // case
	StatusPartial  Status = "partial"
	StatusBlocked  Status = "blocked"
	StatusEscalate Status = "escalated" // legacy
)

type Handback struct {
	TaskID string
	Status Status
	Output any
}

func Build(id string) Handback {
	return Handback{TaskID: id, Status: "done"} // unknown
}

func Route(h Handback) string {
	switch h.Status {
	case "success", "partial":
		return "merge"
	case "complete": // legacy
		return "merge"
	}
	if h.Status == "blocked" || h.Status == "Escalate" { // Escalate: case
		return "human"
	}
	return ""
}

var routes = map[string]string{
	"success":  "merge",
	"blocked":  "human",
	"escalate": "human",
	"failed":   "retry", // legacy
}
