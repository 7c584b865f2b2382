package audit

import (
	"fmt"
	"testing"
)

// BenchmarkIntegrity runs the cross-message checks over an index of
// 100,000 messages with about 25,000 problems, like the bench corpus's,
// and writes every problem's message, as a JSON report does. The
// Integrity takes its index over, so each round builds a new one (not
// timed).
func BenchmarkIntegrity(b *testing.B) {
	build := func() *index {
		ix := newIndex()
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
		return ix
	}
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		ix := build()
		b.StartTimer()
		in := ix.integrity(2)
		n, size := 0, 0
		for _, c := range in.Checks() {
			in.Each(c.Name, func(p Problem) bool {
				n++
				size += len(p.Message)
				return true
			})
		}
		if n < 20000 || n != in.Len() || size == 0 {
			b.Fatalf("%d problems written of %d", n, in.Len())
		}
	}
}
