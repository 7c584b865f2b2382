// Package custom is judged by acme.yaml, whose HANDBACK statuses are done,
// failed and blocked.
package custom

// Handback is a HANDBACK message.
type Handback struct {
	TaskID string
	Status string
}

func finish(id string, ok bool) Handback {
	if !ok {
		return Handback{TaskID: id, Status: "failed"}
	}
	return Handback{TaskID: id, Status: "done"}
}

func legacy(id string) Handback {
	return Handback{TaskID: id, Status: "success"} // want `"success" is not a HANDBACK status`
}
