// Package handback prints HANDBACKs as a table: the maps below are
// column titles and wire names, not messages.
package handback

var header = map[string]string{"task_id": "Task", "status": "Status", "output": "Output"}

var names = map[string]string{"TaskID": "task_id", "Status": "status"}

// Row is a row of the table.
type Row struct {
	TaskID string
	Status string
	Title  string
	Owner  string
}

var example = Row{TaskID: "t-1", Status: "Done", Title: "Fix it", Owner: "ann"}
