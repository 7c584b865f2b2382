// Package taskboard is an app with a task board's status words, some of
// them the protocol's too, and no protocol evidence in any file (no
// spec, no marker, no kind's word, no message): its words are its own.
package taskboard

// Task is a card of the board.
type Task struct{ Status string }

// Closed tells whether a card is done with.
func Closed(t Task) bool {
	switch t.Status {
	case "success", "failure", "complete":
		return true
	}
	return t.Status == "done"
}
