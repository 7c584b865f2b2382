// Package server serves tasks; its replies, events and states carry a
// task id and a status, and none is a HANDBACK.
package server

import "fmt"

// TaskStatusUpdateEvent tells a client that a task moved.
type TaskStatusUpdateEvent struct {
	TaskID    string
	ContextID string
	Status    string
	Final     bool
}

// JobState is a job as the scheduler sees it.
type JobState struct {
	TaskID    string
	Status    string
	Worker    string
	StartedAt string
}

func reply(id string, err error) map[string]any {
	return map[string]any{"task_id": id, "status": "failed", "message": fmt.Sprint(err)}
}

func events(id string) []TaskStatusUpdateEvent {
	return []TaskStatusUpdateEvent{
		{TaskID: id, ContextID: "c-1", Status: "working"},
		{TaskID: id, ContextID: "c-1", Status: "completed", Final: true},
	}
}

func state(id string) JobState {
	return JobState{TaskID: id, Status: "failed", Worker: "w-1", StartedAt: "2025-01-01"}
}

// columns are the titles of the task table; wire maps field names to
// the names on the wire.
var (
	columns = map[string]string{"task_id": "Task", "status": "Status", "output": "Output"}
	wire    = map[string]string{"TaskID": "task_id", "Status": "status", "Output": "output"}
)
