// Package handback plants HANDBACK status drift in every Go context.
package handback

// Status is the HANDBACK status; two members drift from the spec.
type Status string

const ( // want `const Status defines HANDBACK statuses but lacks escalate`
	StatusSuccess Status = "success"
	StatusFailure Status = "failed"  // want `legacy status "failed": the protocol spells it "failure"`
	StatusPartial Status = "PARTIAL" // want `status "PARTIAL" differs from the canonical "partial" only in case`
	StatusBlocked Status = "blocked"
)

type Handback struct {
	TaskID string
	Status string
	Output any
}

func build(id string) Handback {
	h := Handback{TaskID: id, Status: "done"} // want `"done" is not a HANDBACK status`
	if h.Status == "escalated" {              // want `legacy status "escalated"`
		h.Status = "retry" // want `"retry" is not a HANDBACK status`
	}
	m := map[string]any{"task_id": id, "status": "complete", "output": nil} // want `legacy status "complete"`
	_ = m
	switch h.Status {
	case "success", "failure":
	case "SUCCESS": // want `status "SUCCESS" differs.* \(no automatic fix: "success" would be a duplicate case of the switch at line 27\)`
	}
	return h
}

// routes is a routing table keyed by statuses.
var routes = map[string]func(){
	"success":  nil,
	"blocked":  nil,
	"escalate": nil,
	"failed":   nil, // want `legacy status "failed"`
	"Blocked":  nil, // want `status "Blocked" differs.* \(no automatic fix: "blocked" would be a duplicate key of the map literal at line 35\)`
}

// legacy maps old spellings to canonical ones: a normalisation table, not drift.
var legacy = map[string]string{
	"complete":  "success",
	"failed":    "failure",
	"escalated": "escalate",
}
