package audit

import (
	"fmt"
	"testing"
)

// BenchmarkIntegrity runs the cross-message checks over an index of
// 100,000 messages with about 25,000 problems, like the bench corpus's.
func BenchmarkIntegrity(b *testing.B) {
	ix := newIndex()
	defer ix.free()
	for i := range 100000 {
		m := map[string]any{"task_id": fmt.Sprint("task-", i/2)}
		kind := kindDelegate
		if i%2 == 1 {
			kind = kindHandback
			if i%8 == 1 {
				m["task_id"] = fmt.Sprint("orphan-", i) // and a pending DELEGATE
			}
		}
		if i%25 == 0 {
			m["dependencies"] = []any{fmt.Sprint("task-", i/2+1), fmt.Sprint("nowhere-", i)}
		}
		ix.add(kind, Location{Path: fmt.Sprintf("q/incoming/%03d.jsonl", i/1000), Line: i%1000 + 1}, record(m))
	}
	b.ResetTimer()
	for range b.N {
		if len(ix.integrity(2)) < 20000 {
			b.Fatal("too few problems")
		}
	}
}
