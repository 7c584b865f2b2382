// Package status plants HANDBACK status drift for enumdrift.
package status

// Handback is a HANDBACK message.
type Handback struct {
	TaskID string
	Status string
}

func done(id string) Handback {
	return Handback{TaskID: id, Status: "SUCCESS"} // want `status "SUCCESS" differs from the canonical "success" only in case`
}
