package audit

import (
	"encoding/json"
	"fmt"
	"testing"
)

// BenchmarkCycles runs the cycle check alone over three indexes: a
// queue of 100,000 DELEGATEs whose dependencies form chains of ten with
// a cycle of three every 100 tasks; 50,000 cycles of two, each
// depending on the next (a search for a cycle to name that strayed out
// of its component would walk all the ones after it); and the shape of a
// hostile queue, 2,000 tasks each depending on the next and on the first
// (one cycle through all of them).
//
//	go test -run='^$' -bench=Cycles -benchmem ./audit/
func BenchmarkCycles(b *testing.B) {
	queue := newIndex()
	defer queue.mem.Free()
	for i := range 100000 {
		deps := []any{}
		switch {
		case i%100 == 2:
			deps = append(deps, fmt.Sprint("task-", i-2)) // closes a cycle of three
		case i%10 != 9:
			deps = append(deps, fmt.Sprint("task-", i+1))
		}
		queue.add(kindDelegate, Location{Path: fmt.Sprintf("q/incoming/%03d.jsonl", i/1000), Line: i%1000 + 1},
			record(map[string]any{"task_id": fmt.Sprint("task-", i), "dependencies": deps}))
	}
	chained := newIndex()
	defer chained.mem.Free()
	for i := range 50000 {
		a, b := fmt.Sprint("a-", i), fmt.Sprint("b-", i)
		chained.add(kindDelegate, Location{Path: "q/chained.jsonl", Line: 2*i + 1}, record(map[string]any{"task_id": a, "dependencies": []any{fmt.Sprint("a-", i+1), b}}))
		chained.add(kindDelegate, Location{Path: "q/chained.jsonl", Line: 2*i + 2}, record(map[string]any{"task_id": b, "dependencies": []any{a}}))
	}
	hostile := newIndex()
	defer hostile.mem.Free()
	addHostile(hostile, 2000)
	for _, c := range []struct {
		name string
		ix   *index
		want int
	}{{"queue", queue, 1000}, {"chained", chained, 50000}, {"hostile", hostile, -1}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if n := len(c.ix.cycles()); c.want >= 0 && n != c.want {
					b.Fatalf("%d cycles, want %d", n, c.want)
				}
			}
		})
	}
}

// addHostile indexes the queue of a hostile pull request: n DELEGATEs
// t-1 ... t-n, each depending on the next and on the first, as JSON
// Lines in one file; it returns the bytes of that file.
func addHostile(ix *index, n int) int {
	size := 0
	for i := 1; i <= n; i++ {
		deps := []any{"t-1"}
		if i < n {
			deps = []any{fmt.Sprint("t-", i+1), "t-1"}
		}
		m := map[string]any{"task_id": fmt.Sprint("t-", i), "dependencies": deps}
		line, _ := json.Marshal(m)
		size += len(line) + 1
		ix.add(kindDelegate, Location{Path: "q/hostile.jsonl", Line: i}, record(m))
	}
	return size
}
