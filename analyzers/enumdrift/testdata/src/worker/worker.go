// Package worker routes results whose type does not name the HANDBACK:
// a word compared beside two canonical statuses is drift all the same,
// and one beside a single shared word is not.
package worker

type Result struct {
	TaskID string
	Status string
	Output any
}

func route(hb Result) int {
	switch hb.Status {
	case "success":
		return 1
	case "done": // want `"done" is not a HANDBACK status`
		return 2
	case "failure":
		return 3
	}
	return 0
}

// Reply is a JSend-style reply: "success" is its only word the protocol
// shares, so its other words are its own.
type Reply struct {
	Status string
}

func ok(r Reply) bool {
	return r.Status == "success" || r.Status == "fail" || r.Status == "error"
}
