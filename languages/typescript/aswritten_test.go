package typescript

import "testing"

// TestObjectKeysAsWritten: an object literal is serialized with its keys
// as written ({taskId: ...} is no task_id), so its mapping says so.
func TestObjectKeysAsWritten(t *testing.T) {
	f, err := Extract("agent.ts", []byte("const r = { taskId: 't-1', status: 'failed' };\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Mappings) != 1 || !f.Mappings[0].InCode || !f.Mappings[0].AsWritten {
		t.Fatalf("mappings %+v, want one of code, keys as written", f.Mappings)
	}
}
