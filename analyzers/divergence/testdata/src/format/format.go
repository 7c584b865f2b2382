package format // want package:"2 candidates"

// format checks DELEGATE task ids against patterns of its own: one
// rejects ids the spec allows, one accepts ids the spec refuses, and one
// is the spec's and is silent.

import (
	"errors"
	"regexp"
)

type Delegate struct {
	TaskID, Skill, Scope string
	Plan                 []string
}

// datedID wants a date first: the spec's ids need none.
var datedID = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}-[a-z0-9-]+$`)

var specID = regexp.MustCompile(`^[a-z0-9][a-z0-9\-]{1,48}[a-z0-9]$`)

func ValidateDelegate(d Delegate) error {
	if !specID.MatchString(d.TaskID) {
		return errors.New("bad task_id")
	}
	if !datedID.MatchString(d.TaskID) { // want "`aaa` is a valid task_id that ValidateDelegate rejects: it matches task_id with datedID `\\^\\\\d\\{4\\}-\\\\d\\{2\\}-\\\\d\\{2\\}-\\[a-z0-9-\\]\\+\\$` \\(MatchString: anywhere in the value\\); the spec's format is .* \\(divergence/format\\)"
		return errors.New("bad task_id")
	}
	if d.Skill == "" || d.Scope == "" || len(d.Plan) < 2 {
		return errors.New("missing")
	}
	// the other fields are checked apart
	return checkRest(d)
}

func checkRest(d Delegate) error { return nil }

func CheckDelegateID(d Delegate) error {
	// unanchored: any text that holds a letter passes
	if !regexp.MustCompile(`[a-z]+`).MatchString(d.TaskID) { // want "CheckDelegateID accepts the task_id `a`, which the spec rejects"
		return errors.New("bad task_id")
	}
	return check(d.Skill, d.Scope)
}

func check(skill, scope string) error { return nil }

// DelegateSchema is a JSON schema of the DELEGATE written in code: its
// task_id may be 64 characters long, the spec's at most 50.
func DelegateSchema() map[string]any {
	return map[string]any{
		"title": "DELEGATE",
		"properties": map[string]any{
			"task_id": map[string]any{"type": "string", "pattern": `^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$`}, // want "the JSON schema in DelegateSchema accepts the task_id `a{51}`, which the spec rejects"
		},
	}
}
