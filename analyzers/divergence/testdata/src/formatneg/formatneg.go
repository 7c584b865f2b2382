package formatneg // want package:"1 candidate"

// formatneg holds patterns that are no format of a protocol field: a job
// queue's task ids, an email, a routing by pattern.

import (
	"errors"
	"regexp"
)

type Job struct{ TaskID, Queue string }

var celeryID = regexp.MustCompile(`^[0-9a-f-]{36}$`)

// CheckJob validates a job queue's record: no protocol message.
func CheckJob(j Job) error {
	if !celeryID.MatchString(j.TaskID) {
		return errors.New("bad job id")
	}
	return nil
}

type Delegate struct {
	TaskID, Skill, Scope, Email string
}

var email = regexp.MustCompile(`^[^@]+@[^@]+$`)
var legacy = regexp.MustCompile(`^T\d+$`)

func ValidateDelegate(d Delegate) error {
	if !email.MatchString(d.Email) {
		return errors.New("bad email")
	}
	if legacy.MatchString(d.TaskID) {
		d.TaskID = convert(d.TaskID)
	}
	if d.Skill == "" || d.Scope == "" {
		return errors.New("missing")
	}
	// the other fields are checked apart
	return checkRest(d)
}

func checkRest(d Delegate) error { return nil }

func convert(id string) string { return id }
