package evidence_test

import (
	"fmt"
	"testing"

	"github.com/protoscan-dev/protoscan/languages/extract"
	"github.com/protoscan-dev/protoscan/msgcheck"
	"github.com/protoscan-dev/protoscan/msgcheck/evidence"
)

// TestOf: the kinds a file shows evidence of, by each clause of the
// predicate, and the look-alikes that show none.
func TestOf(t *testing.T) {
	sp := msgcheck.DefaultSpec()
	for _, c := range []struct{ name, path, src, want string }{
		{"a task board", "board/tasks.py", `STATES = ["complete", "partial", "blocked"]
def done(task):
    return task["status"] in ("complete", "partial")
`, "[]"},
		{"the delegation pattern", "ui/view.py", `class View:
    def __init__(self, delegate):
        self.delegate = delegate
        self.kind = "delegate"
`, "[]"},
		{"DELEGATE in capitals", "agents/route.py", `def route(msg):
    return msg["handoff_type"] == "DELEGATE"
`, "[delegate]"},
		{"handback in the path", "queue/handback_reader.py", `def read(x):
    return x
`, "[handback]"},
		{"a type named for the kind", "agents/worker.py", `def finish(task_id):
    return Handback(task_id=task_id, status="success", output={})
`, "[handback]"},
		{"a message by its fields", "agents/worker.py", `def finish(task_id):
    return {"task_id": task_id, "status": "success", "output": {}}
`, "[handback]"},
		{"a marker", "queue/q1.yaml", "handoff_type: HANDBACK\ntask_id: t-1\n", "[handback]"},
		{"another protocol's record in a doc, camelCase", "docs/agents/bus.md", "## Result\n\n```json\n{\"type\": \"result\", \"payload\": {\"taskId\": \"T1\", \"status\": \"completed\", \"artifacts\": [], \"metrics\": {\"duration\": 5}}}\n```\n", "[]"},
		{"code in its own style", "agents/worker.go", "package w\n\nfunc f() Result { return Result{TaskID: \"t-1\", Status: \"completed\", Output: \"o\"} }\n", "[handback]"},
		{"a spec of the protocol", "docs/spec.yaml", "protocol: protocol-core\nversion: '1.0'\nhandback:\n  core_fields:\n    task_id: {type: string}\n    status: {type: string}\n    output: {}\n", "[delegate handback]"},
		{"a spec of another protocol", "docs/spec.yaml", "protocol: other\nversion: '1.0'\nresult:\n  core_fields:\n    task_id: {type: string}\n    status: {type: string}\n    output: {}\n", "[]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := extract.File(c.path, []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(evidence.Of(f, sp)); got != c.want {
				t.Errorf("Of = %s, want %s", got, c.want)
			}
		})
	}
}

// TestInText: a kind's name in capitals, as a word, in prose or comments.
func TestInText(t *testing.T) {
	sp := msgcheck.DefaultSpec()
	for src, want := range map[string]bool{
		"Workers answer with a HANDBACK.":       true,
		"# a DELEGATE hands a task down":        true,
		"we delegate the work; handbacks later": false,
		"HANDBACKS and XDELEGATE":               false,
	} {
		if got := evidence.InText([]byte(src), sp); got != want {
			t.Errorf("InText(%q) = %v, want %v", src, got, want)
		}
	}
}
