package audit

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"
)

// delegates indexes one DELEGATE per entry, "path:id dep dep..." (path
// and line optional: q.jsonl, the entry's place in the list).
func delegates(entries ...string) *index {
	ix := newIndex()
	for i, e := range entries {
		place, rest, ok := strings.Cut(e, ":")
		if !ok {
			place, rest = "q.jsonl", e
		}
		f := strings.Fields(rest)
		deps := []any{}
		for _, d := range f[1:] {
			deps = append(deps, d)
		}
		ix.add(kindDelegate, Location{Path: place, Line: i + 1}, record(map[string]any{"task_id": f[0], "dependencies": deps}))
	}
	return ix
}

func cycleProblems(ix *index) []string {
	var got []string
	for _, p := range ix.cycles() {
		got = append(got, p.Location.String()+" "+p.Message)
	}
	return got
}

// TestCycles: one problem per strongly connected component of the
// DELEGATEs' dependencies (more than one task, or one that depends on
// itself), at its DELEGATE that comes first in a report, naming a cycle
// through it; a graph without cycles is silent.
func TestCycles(t *testing.T) {
	for _, c := range []struct {
		name      string
		queue     []string
		want      []string
		handbacks []string // HANDBACKs, by id, after the DELEGATEs
	}{
		{name: "three", queue: []string{"a b", "b c", "c a"},
			want: []string{"q.jsonl:1 dependency cycle: a -> b -> c -> a"}},
		{name: "three, met from the middle", queue: []string{"x b", "b c", "c a", "a b"},
			want: []string{"q.jsonl:2 dependency cycle: b -> c -> a -> b"}},
		{name: "two disjoint", queue: []string{"a b", "b a", "c d", "d e", "e c", "f a"},
			want: []string{"q.jsonl:1 dependency cycle: a -> b -> a", "q.jsonl:3 dependency cycle: c -> d -> e -> c"}},
		{name: "self-loop", queue: []string{"a", "e e", "f e"},
			want: []string{"q.jsonl:2 dependency cycle: e -> e"}},
		{name: "dag", queue: []string{"a b c", "b d", "c d", "d", "e a d nowhere"}},
		{name: "chain to unknown tasks", queue: []string{"a b", "b c", "c ghost ghost"}},
		{name: "nested, sharing tasks", queue: []string{"a b", "b a c", "c b"},
			want: []string{"q.jsonl:1 dependency cycles among 3 DELEGATEs, one of them: a -> b -> a"}},
		{name: "figure eight", queue: []string{"a b d", "b c", "c a", "d e", "e a"},
			want: []string{"q.jsonl:1 dependency cycles among 5 DELEGATEs, one of them: a -> b -> c -> a"}},
		{name: "self-loop in a larger cycle", queue: []string{"a a b", "b a"},
			want: []string{"q.jsonl:1 dependency cycles among 2 DELEGATEs, one of them: a -> a"}},
		{name: "long", queue: []string{"t1 t2", "t2 t3", "t3 t4", "t4 t5", "t5 t6", "t6 t7", "t7 t1"},
			want: []string{"q.jsonl:1 dependency cycle of 7 DELEGATEs: t1 -> t2 -> t3 -> t4 -> t5 -> ... (2 more) -> t1"}},
		{name: "five, all named", queue: []string{"t1 t2", "t2 t3", "t3 t4", "t4 t5", "t5 t1"},
			want: []string{"q.jsonl:1 dependency cycle: t1 -> t2 -> t3 -> t4 -> t5 -> t1"}},
		{name: "placed by path, then line", queue: []string{"z/q.jsonl:x y", "a/q.jsonl:y x", "m/q.jsonl:p p"},
			want: []string{"a/q.jsonl:2 dependency cycle: y -> x -> y", "m/q.jsonl:3 dependency cycle: p -> p"}},
		{name: "only the first DELEGATE of an id counts", queue: []string{"a b", "b", "b a"}},
		{name: "a HANDBACK is not a node", queue: []string{"a h", "h2 a"}, handbacks: []string{"h"}},
		{name: "ids quoted where they need it", queue: []string{`x a"b`, `a"b x`},
			want: []string{`q.jsonl:1 dependency cycle: x -> "a\"b" -> x`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ix := delegates(c.queue...)
			defer ix.mem.Free()
			for _, h := range c.handbacks {
				ix.add(kindHandback, Location{Path: "q.jsonl", Line: ix.n + 1}, record(map[string]any{"task_id": h, "dependencies": []any{"a"}}))
			}
			if got := cycleProblems(ix); !slices.Equal(got, c.want) {
				t.Errorf("cycles:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// TestCyclesHostile: the queue of a hostile pull request, each DELEGATE
// depending on the next and on the first, is one cycle: one problem of
// at most maxCycleMessage bytes (where a problem per back edge, naming
// the path to it, would be n of them and n²/2 task ids in all). The
// check takes a few words per task: the marks, off the heap in the
// index's memory, and the searches' stacks on it, under twice the
// queue's bytes together.
func TestCyclesHostile(t *testing.T) {
	const n = 2000
	ix := newIndex()
	defer ix.mem.Free()
	size := addHostile(ix, n)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ps := ix.cycles()
	runtime.ReadMemStats(&after)
	if len(ps) != 1 {
		t.Fatalf("%d cycle problems, want 1", len(ps))
	}
	want := "q/hostile.jsonl:1 dependency cycle of 2000 DELEGATEs: t-1 -> t-2 -> t-3 -> t-4 -> t-5 -> ... (1995 more) -> t-1"
	if got := ps[0].Location.String() + " " + ps[0].Message; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if len(ps[0].Message) > maxCycleMessage {
		t.Errorf("a message of %d bytes, over %d", len(ps[0].Message), maxCycleMessage)
	}
	marks := uint64(ix.nSlot) * uint64(unsafe.Sizeof(int32(0)))
	if heap := after.TotalAlloc - before.TotalAlloc; heap+marks > 2*uint64(size) {
		t.Errorf("the check took %d bytes (%d on the heap) for a queue of %d", heap+marks, heap, size)
	}
}

// TestCyclesLongChain: a chain of 200,000 DELEGATEs that closes on
// itself, searched without recursion, is one cycle.
func TestCyclesLongChain(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an index of 200,000 messages")
	}
	const n = 200000
	ix := newIndex()
	defer ix.mem.Free()
	for i := range n {
		ix.add(kindDelegate, Location{Path: "q.jsonl", Line: i + 1}, record(map[string]any{
			"task_id": fmt.Sprint("t", i), "dependencies": []any{fmt.Sprint("t", (i+1)%n)}}))
	}
	got := cycleProblems(ix)
	want := []string{"q.jsonl:1 dependency cycle of 200000 DELEGATEs: t0 -> t1 -> t2 -> t3 -> t4 -> ... (199995 more) -> t0"}
	if !slices.Equal(got, want) {
		t.Errorf("cycles %q, want %q", got, want)
	}
}

// TestCycleMessageBound: whatever its ids, a cycle's message takes at
// most maxCycleMessage bytes, is UTF-8 and one line.
func TestCycleMessageBound(t *testing.T) {
	odd := []string{strings.Repeat("x", 16<<10), strings.Repeat("\x00", 100), strings.Repeat("é", 300),
		strings.Repeat("\u2028", 100), "line\nbreak", "\xff\xfe" + strings.Repeat("y", 60), strings.Repeat(`"\`, 50),
		strings.Repeat("z", 39) + "€€", "a -> b"}
	var queue []string
	for i, id := range odd {
		next := odd[(i+1)%len(odd)]
		queue = append(queue, id+"\t"+next)
	}
	ix := newIndex()
	defer ix.mem.Free()
	for i, e := range queue {
		id, dep, _ := strings.Cut(e, "\t")
		ix.add(kindDelegate, Location{Path: "q.jsonl", Line: i + 1}, record(map[string]any{"task_id": id, "dependencies": []any{dep, odd[0]}}))
	}
	ps := ix.cycles()
	if len(ps) != 1 {
		t.Fatalf("%d problems, want 1", len(ps))
	}
	m := ps[0].Message
	if len(m) > maxCycleMessage || !utf8.ValidString(m) || strings.ContainsAny(m, "\n\u2028") {
		t.Errorf("message of %d bytes (at most %d), UTF-8 %v: %q", len(m), maxCycleMessage, utf8.ValidString(m), m)
	}
	if !strings.HasPrefix(m, "dependency cycle of 9 DELEGATEs: "+strings.Repeat("x", cycleIDBytes)+"... -> ") {
		t.Errorf("message %q", m)
	}
	for _, id := range odd {
		got := string(appendCycleID(nil, id))
		if len(got) > cycleIDBytes+len("...") || !utf8.ValidString(got) {
			t.Errorf("appendCycleID(%.20q) = %q: %d bytes", id, got, len(got))
		}
		if q := strconv.Quote(id); len(q) <= cycleIDBytes && got != q {
			t.Errorf("appendCycleID(%q) = %s, want %s", id, got, q)
		}
	}
	for _, id := range []string{"task-1", strings.Repeat("k", cycleIDBytes), "a->b", "~!#"} {
		if got := string(appendCycleID(nil, id)); got != id {
			t.Errorf("appendCycleID(%q) = %q, want it as it is", id, got)
		}
	}
}

// graph is a queue decoded from bytes for FuzzCycles: up to 16 tasks
// t0..t15, each with a DELEGATE or (one in eight) only a HANDBACK, at
// one of three paths, with dependencies on each other and on unknown
// tasks, and maybe a second DELEGATE whose dependencies do not count.
type graph struct {
	n        int
	delegate []bool
	path     []string
	deps     [][]int // >= n: an unknown task
	dup      [][]int // the second DELEGATE's, when there is one
}

// decodeGraph reads a graph from data: the number of tasks - 1, a byte of
// flags per task (path, second DELEGATE, HANDBACK only), then pairs of
// bytes (task, the task it depends on; with the top bit set, the second
// DELEGATE's dependency when there is one).
func decodeGraph(data []byte) graph {
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return int(b)
	}
	g := graph{n: 1 + next()%16}
	for range g.n {
		flags := next()
		g.delegate = append(g.delegate, flags>>5 != 7)
		g.path = append(g.path, [...]string{"q/b.jsonl", "q/a.jsonl", "q/c.jsonl"}[(flags&3)%3])
		g.deps = append(g.deps, nil)
		g.dup = append(g.dup, nil)
		if flags&4 != 0 && g.delegate[len(g.delegate)-1] {
			g.dup[len(g.dup)-1] = []int{}
		}
	}
	for len(data) >= 2 {
		from, to := next()%g.n, next()
		if to&0x80 != 0 && g.dup[from] != nil {
			g.dup[from] = append(g.dup[from], to%(g.n+2))
		} else {
			g.deps[from] = append(g.deps[from], to%(g.n+2))
		}
	}
	return g
}

func (g graph) index() *index {
	ix := newIndex()
	name := func(i int) string { return "t" + strconv.Itoa(i) }
	add := func(kind uint8, i, line int, deps []int) {
		ds := []any{}
		for _, d := range deps {
			ds = append(ds, name(d))
		}
		ix.add(kind, Location{Path: g.path[i], Line: line}, record(map[string]any{"task_id": name(i), "dependencies": ds}))
	}
	for i := range g.n {
		kind := kindDelegate
		if !g.delegate[i] {
			kind = kindHandback
		}
		add(kind, i, i+1, g.deps[i])
	}
	for i := range g.n {
		if g.dup[i] != nil {
			add(kindDelegate, i, g.n+i+1, g.dup[i])
		}
	}
	return ix
}

// checkCycles checks the cycle problems of g against its components,
// found by brute force: one problem each, at its first task by place,
// naming a cycle of dependencies through it, in place order and bounded.
func checkCycles(t *testing.T, g graph) {
	edge := func(i, j int) bool { return j < g.n && g.delegate[i] && g.delegate[j] && slices.Contains(g.deps[i], j) }
	reach := make([][]bool, g.n)
	for i := range reach {
		reach[i] = make([]bool, g.n)
		for j := range g.n {
			reach[i][j] = edge(i, j)
		}
	}
	for k := range g.n {
		for i := range g.n {
			for j := range g.n {
				reach[i][j] = reach[i][j] || reach[i][k] && reach[k][j]
			}
		}
	}
	place := func(i int) string { return fmt.Sprintf("%s:%d", g.path[i], i+1) }
	byPlace := func(i, j int) int { return cmp.Or(cmp.Compare(g.path[i], g.path[j]), cmp.Compare(i, j)) }
	type comp struct{ first, size int }
	want := map[string]comp{} // by place of its first task
	for i := range g.n {
		if !reach[i][i] {
			continue
		}
		c := comp{first: i}
		for j := range g.n {
			if reach[i][j] && reach[j][i] {
				c.size++
				if byPlace(j, c.first) < 0 {
					c.first = j
				}
			}
		}
		want[place(c.first)] = c
	}
	ix := g.index()
	defer ix.mem.Free()
	ps := ix.cycles()
	if len(ps) != len(want) {
		t.Fatalf("%d cycle problems, want %d: %v", len(ps), len(want), ps)
	}
	last := -1
	for _, p := range ps {
		c, ok := want[p.Location.String()]
		if !ok {
			t.Fatalf("a problem at %s, which is no cycle's first task (or a second one there): %v", p.Location, ps)
		}
		delete(want, p.Location.String())
		if last >= 0 && byPlace(last, c.first) >= 0 {
			t.Errorf("problems out of place order: %v", ps)
		}
		last = c.first
		if len(p.Message) > maxCycleMessage {
			t.Errorf("message of %d bytes: %q", len(p.Message), p.Message)
		}
		head, list, _ := strings.Cut(p.Message, ": ")
		steps := strings.Split(list, " -> ")
		gap := slices.IndexFunc(steps, func(s string) bool { return strings.HasPrefix(s, "... (") })
		more := 0
		if gap >= 0 {
			fmt.Sscanf(steps[gap], "... (%d more)", &more)
		}
		var ids []int
		for _, s := range steps {
			if i, err := strconv.Atoi(strings.TrimPrefix(s, "t")); err == nil {
				ids = append(ids, i)
			}
		}
		if len(ids) < 2 || ids[0] != c.first || ids[len(ids)-1] != c.first {
			t.Fatalf("%q does not go from %s back to it", p.Message, place(c.first))
		}
		for i := 1; i < len(ids); i++ {
			if gap >= 0 && i == gap {
				continue // the tasks between are not named
			}
			if !edge(ids[i-1], ids[i]) {
				t.Errorf("%q: t%d does not depend on t%d", p.Message, ids[i-1], ids[i])
			}
		}
		// n tasks named, and more between the fifth and the first again
		switch n := len(ids) - 1; {
		case head == "dependency cycle":
			if gap >= 0 || n != c.size {
				t.Errorf("%q names %d tasks of a cycle of %d", p.Message, n, c.size)
			}
		case head == fmt.Sprintf("dependency cycle of %d DELEGATEs", c.size):
			if gap < 0 || more < 1 || n != cycleShown || n+more != c.size {
				t.Errorf("%q names %d tasks and %d more of a cycle of %d", p.Message, n, more, c.size)
			}
		case head == fmt.Sprintf("dependency cycles among %d DELEGATEs, one of them", c.size):
			if n+more >= c.size || gap >= 0 && (more < 1 || n != cycleShown) {
				t.Errorf("%q: a cycle of %d tasks in a component of %d", p.Message, n+more, c.size)
			}
		default:
			t.Errorf("%q: wrong head for a component of %d", p.Message, c.size)
		}
	}
}

// TestCyclesRandom checks random graphs against the components found by
// brute force (as FuzzCycles does, without the fuzzer).
func TestCyclesRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		data := make([]byte, r.IntN(100))
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		t.Run(fmt.Sprintf("%x", data), func(t *testing.T) { checkCycles(t, decodeGraph(data)) })
	}
}

// FuzzCycles: any dependency graph of a few tasks gives one problem per
// cycle (strongly connected component) at its first task by place,
// naming a real cycle through it in a bounded message, never a panic.
func FuzzCycles(f *testing.F) {
	// the number of tasks - 1, a byte of flags per task, then pairs
	// (task, dependency)
	f.Add([]byte{2, 0, 0, 0, 0, 1, 1, 2, 2, 0})                                           // a -> b -> c -> a
	f.Add([]byte{1, 0, 0, 0, 0, 1, 1})                                                    // self-loops
	f.Add([]byte{3, 1, 2, 4, 0, 0, 1, 1, 0, 2, 3, 3, 2, 2, 0x80})                         // two, over paths; a second DELEGATE
	f.Add([]byte{6, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 0, 3, 1}) // seven, with a chord
	f.Add([]byte{2, 0, 0xe0, 0, 0, 1, 1, 2, 2, 0, 2, 4})                                  // a HANDBACK on the way, an unknown task
	f.Fuzz(func(t *testing.T, data []byte) { checkCycles(t, decodeGraph(data)) })
}
