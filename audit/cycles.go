package audit

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"github.com/protoscan-dev/protoscan/internal/offheap"
)

// A cycle's message is bounded whatever the queue: it names at most
// cycleShown tasks of the cycle (and the first again, to close it), each
// in at most cycleIDBytes bytes, so that it never takes more than
// maxCycleMessage bytes.
const (
	cycleShown      = 5
	maxCycleMessage = 400
)

// cycles finds the dependency cycles among DELEGATEs, and returns one
// problem per cycle, in place order.
//
// The graph's nodes are the tasks with a DELEGATE (the first DELEGATE of
// an id stands for its task), and its edges are their `dependencies`
// that name such a task. A cycle is a strongly connected component of more than one
// task, or of one task that depends on itself: however many cycles run
// through its tasks, it is one problem, placed at its DELEGATE that
// comes first in a report (by path, then line; then input order) and
// naming one cycle through that DELEGATE. The components are found by
// Tarjan's algorithm, iteratively (a queue may hold a chain of a million
// tasks), in time and memory linear in the tasks and their dependencies;
// the problems are as many as the components, and their messages are
// bounded (maxCycleMessage).
func (ix *index) cycles() []Problem {
	var (
		marks []int32 // by task slot, its mark (see walked); in the index's memory, made for the first search
		stack []int32 // the tasks whose component is not complete yet
		path  []frame // the depth-first search
		walk  []frame // the search for a cycle to name (cycleThrough)
		found []cycleAt
		n     int32 // tasks met
		comps int32 // components completed
	)
	visit := func(s int32, pos int) {
		n++
		marks[s] = n
		stack = append(stack, s)
		path = append(path, frame{pos: uint32(pos), low: n})
	}
	// the searches start from the DELEGATEs in input order: the first of
	// each id, with dependencies (a task that depends on nothing is on no
	// cycle, and is neither searched from nor through)
	for pos := range ix.n {
		r := ix.at(pos)
		if r.kind != kindDelegate || r.nDeps == 0 || r.slot < 0 || marks != nil && marks[r.slot] != 0 || int(ix.task(r.slot).delegate) != pos+1 {
			continue
		}
		if marks == nil {
			// the index's memory is in huge pages: a fresh process faults
			// in a few, not a page per 1,024 tasks
			marks = offheap.Make[int32](&ix.mem, int(ix.nSlot))
			defer offheap.Recycle(&ix.mem, marks)
		}
		visit(r.slot, pos)
	search:
		for len(path) > 0 {
			f := &path[len(path)-1]
			r := ix.at(int(f.pos))
			v := r.slot
			deps := ix.refsOf(r)[:r.nDeps]
			for int(f.next) < len(deps) {
				w := deps[f.next]
				f.next++
				switch m := marks[w]; {
				case m == 0:
					if d := int(ix.task(w).delegate) - 1; d >= 0 && ix.at(d).nDeps > 0 {
						visit(w, d)
						continue search
					}
				case m > 0: // on the stack: in v's component
					f.low = min(f.low, m)
				}
			}
			low := f.low
			path = path[:len(path)-1]
			if low != marks[v] {
				// v's component goes on below it: its parent is in it
				u := &path[len(path)-1]
				u.low = min(u.low, low)
				continue
			}
			// v is the root of a complete component: the stack from v up
			i := len(stack) - 1
			for stack[i] != v {
				i--
			}
			members := stack[i:]
			comps++
			for _, m := range members {
				marks[m] = -comps
			}
			if len(members) > 1 || slices.Contains(deps, v) {
				first := slices.MinFunc(members, ix.byPlace)
				c := cycleAt{first: first, size: len(members)}
				c.cycle, c.n, walk = ix.cycleThrough(first, -comps, marks, walk)
				found = append(found, c)
			}
			stack = stack[:i]
		}
	}
	slices.SortFunc(found, func(a, b cycleAt) int { return ix.byPlace(a.first, b.first) })
	out := make([]Problem, len(found))
	var x ids
	for i, c := range found {
		out[i] = Problem{Check: CheckCycle, Location: ix.loc(ix.delegateOf(c.first)), Message: ix.cycleMessage(c, &x)}
	}
	return out
}

// A task's mark, in the search for cycles, is 0 until the search meets
// it; then the order in which it was met (1, 2...), while its component
// is being built; then minus the number of its component, once that is
// complete (-1, -2...); and walked once cycleThrough has been through
// it.
const walked = math.MinInt32

// frame is a task on a depth-first search: the index position of its
// first DELEGATE, whose dependencies are followed, the index of the next
// one to follow, and (for Tarjan's) the lowest mark of a task on the
// stack that it reaches.
type frame struct {
	pos, next uint32
	low       int32
}

// cycleAt is a component found to be a cycle: its first task in place
// order, its number of tasks, and a cycle through the first (at most
// cycleShown of its tasks, and its length)
type cycleAt struct {
	first int32
	size  int
	cycle []int32
	n     int
}

// delegateOf returns the first DELEGATE of task slot s, which has one.
func (ix *index) delegateOf(s int32) *rec { return ix.at(int(ix.task(s).delegate) - 1) }

// byPlace orders the tasks of two slots, which have DELEGATEs, by the
// place of their first DELEGATE as a report does (path, then line), then
// by input order.
func (ix *index) byPlace(a, b int32) int {
	pa, pb := int(ix.task(a).delegate), int(ix.task(b).delegate)
	ra, rb := ix.at(pa-1), ix.at(pb-1)
	return cmp.Or(cmp.Compare(ix.paths[ra.path], ix.paths[rb.path]), cmp.Compare(ra.line, rb.line), cmp.Compare(pa, pb))
}

// cycleThrough returns a cycle from task slot s back to it within
// component comp (the tasks marked comp): at most its first cycleShown
// tasks, and its length. It is a depth-first search from s over the
// component's tasks, which all lead back to s, so that it meets a
// dependency on s before it runs out of tasks; it marks the tasks it
// goes through walked, and returns walk for reuse.
func (ix *index) cycleThrough(s, comp int32, marks []int32, walk []frame) ([]int32, int, []frame) {
	marks[s] = walked
	walk = append(walk[:0], frame{pos: ix.task(s).delegate - 1})
	for len(walk) > 0 {
		f := &walk[len(walk)-1]
		r := ix.at(int(f.pos))
		deps := ix.refsOf(r)[:r.nDeps]
		if int(f.next) == len(deps) {
			walk = walk[:len(walk)-1]
			continue
		}
		w := deps[f.next]
		f.next++
		if w == s {
			cyc := make([]int32, 0, min(len(walk), cycleShown))
			for _, f := range walk[:min(len(walk), cycleShown)] {
				cyc = append(cyc, ix.at(int(f.pos)).slot)
			}
			return cyc, len(walk), walk
		}
		if marks[w] == comp {
			marks[w] = walked
			walk = append(walk, frame{pos: ix.task(w).delegate - 1})
		}
	}
	return []int32{s}, 1, walk // not reached: every task of comp leads back to s
}

// cycleMessage writes the message of a cycle: every task when the cycle
// is all of its component and has at most cycleShown of them,
//
//	dependency cycle: a -> b -> c -> a
//
// else the first cycleShown, and the component's size:
//
//	dependency cycle of 20000 DELEGATEs: t-1 -> t-2 -> t-3 -> t-4 -> t-5 -> ... (19995 more) -> t-1
//	dependency cycles among 7 DELEGATEs, one of them: a -> b -> a
//
// x is scratch for reading the ids.
func (ix *index) cycleMessage(c cycleAt, x *ids) string {
	b := make([]byte, 0, 128)
	b = append(b, "dependency cycle"...)
	switch {
	case c.n < c.size:
		b = append(strconv.AppendInt(append(b, "s among "...), int64(c.size), 10), " DELEGATEs, one of them"...)
	case c.n > cycleShown:
		b = append(strconv.AppendInt(append(b, " of "...), int64(c.size), 10), " DELEGATEs"...)
	}
	b = append(b, ": "...)
	id := func(s int32) string { ix.read(ix.delegateOf(s), x); return x.taskID }
	for i, s := range c.cycle {
		if i > 0 {
			b = append(b, " -> "...)
		}
		b = appendCycleID(b, id(s))
	}
	if more := c.n - len(c.cycle); more > 0 {
		b = append(strconv.AppendInt(append(b, " -> ... ("...), int64(more), 10), " more)"...)
	}
	b = appendCycleID(append(b, " -> "...), id(c.cycle[0]))
	return string(b)
}
