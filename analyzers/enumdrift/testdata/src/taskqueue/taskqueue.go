// Package taskqueue is taskboard's code in a package that reads the
// results agents send back: each is a HANDBACK, so the status words are
// the protocol's, and its drift is reported.
package taskqueue

// Task is a result as it comes back.
type Task struct{ Status string }

// Closed tells whether a task is done with.
func Closed(t Task) bool {
	switch t.Status {
	case "success", "failure", "complete": // want `legacy status "complete": the protocol spells it "success"`
		return true
	}
	return t.Status == "done" // want `"done" is not a HANDBACK status`
}
