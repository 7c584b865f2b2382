// Look-alikes of a HANDBACK in a file about HANDBACKs (its name says so):
// records with a task_id and a status that are not HANDBACKs. enumdrift
// must stay silent on every one.
package negatives

// A tool server's reply: task_id and status, but a message, no output.
func reply(id string, err error) map[string]any {
	return map[string]any{"task_id": id, "status": "failed", "message": err.Error()}
}

// TaskStatusUpdateEvent is a task-status event of an agent protocol.
type TaskStatusUpdateEvent struct {
	TaskID    string
	ContextID string
	Status    string
	Final     bool
}

func working(id string) TaskStatusUpdateEvent {
	return TaskStatusUpdateEvent{TaskID: id, ContextID: "c", Status: "working", Final: false}
}

// JobState is a job's state; even with an output it is no HANDBACK: its
// own fields outnumber the HANDBACK's.
type JobState struct {
	TaskID    string
	Status    string
	Output    string
	Worker    string
	StartedAt string
	Attempts  int
	Queue     string
}

func running(id string) JobState {
	return JobState{TaskID: id, Status: "running", Output: "", Worker: "w1", StartedAt: "now", Attempts: 1, Queue: "q"}
}

// columns are the titles of a table's columns.
var columns = map[string]string{"task_id": "Task", "status": "Status", "output": "Output"}

// fields maps Go field names to the wire names.
var fields = map[string]string{"TaskID": "task_id", "Status": "status", "Output": "output"}

// HandbackStatus is named for more than the HANDBACK: its arguments
// are no message.
type HandbackStatus struct {
	TaskID string
	Status string
	Output string
	Reason string
}

func progress(id string) HandbackStatus {
	return HandbackStatus{TaskID: id, Status: "in-progress"}
}
