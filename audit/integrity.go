package audit

import (
	"cmp"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// Integrity is what the cross-message checks found: orphans, pending
// DELEGATEs, duplicates, unknown references, cycles and unfinished work
// in done folders, by check (in the order of their names), then place.
//
// An audit's problems are kept as places in its index, and each message
// is written only when a report asks for it: a large queue has tens of
// thousands of problems, whose texts, all written at once, took a tenth
// of an audit's time (most of it fresh memory) and grew with the queue,
// while a text report shows twenty of each. The index stays mapped until
// the Integrity is unreachable, so an Integrity must not be copied (use
// the pointer). Its methods may be called concurrently.
type Integrity struct {
	_      noCopy
	checks []Count // the checks with problems, in report order
	// kept are problems held as text: the cycles, or every problem of an
	// Integrity built by NewIntegrity
	kept []Problem
	// the rest is an index's: for each check (by checkOrder), the index
	// positions with problems, in place order
	ix   *index
	at   [len(checksSorted)][]uint32
	done []bool   // by path: the path is in a done folder
	dirs []string // by path: where its HANDBACKs are expected (expectedIn)
}

// NewIntegrity makes an Integrity of problems given in report order
// (each check's together), for a Summary made by hand.
func NewIntegrity(ps []Problem) *Integrity {
	in := &Integrity{kept: slices.Clone(ps)}
	for _, p := range ps {
		if n := len(in.checks); n > 0 && in.checks[n-1].Name == p.Check {
			in.checks[n-1].N++
		} else {
			in.checks = append(in.checks, Count{Name: p.Check, N: 1})
		}
	}
	return in
}

// Len is the number of problems.
func (in *Integrity) Len() int {
	if in == nil {
		return 0
	}
	n := 0
	for _, c := range in.checks {
		n += c.N
	}
	return n
}

// Checks returns the checks that found problems, in report order, each
// with its number of problems.
func (in *Integrity) Checks() []Count {
	if in == nil {
		return nil
	}
	return slices.Clone(in.checks)
}

// Each calls fn with each problem of check, in place order, until fn
// returns false. p.Message is valid only during the call: its bytes are
// reused for the next problem (strings.Clone keeps it).
func (in *Integrity) Each(check string, fn func(p Problem) bool) {
	if in == nil {
		return
	}
	for _, p := range in.kept {
		if p.Check == check && !fn(p) {
			return
		}
	}
	c := checkOrder(check)
	if in.ix == nil || c < 0 {
		return
	}
	sink := problemSink{want: c, fn: fn}
	at := in.at[c]
	for _, pos := range at {
		in.ix.integrityRange(int(pos), int(pos)+1, in.done, in.dirs, &sink)
		if sink.stop {
			break
		}
	}
	// the index must stay mapped to the end: in is not used past here,
	// and its cleanup unmaps the index
	runtime.KeepAlive(in)
}

// All returns every problem in report order, as copies.
func (in *Integrity) All() []Problem {
	out := make([]Problem, 0, in.Len())
	for _, c := range in.Checks() {
		in.Each(c.Name, func(p Problem) bool {
			p.Message = strings.Clone(p.Message)
			out = append(out, p)
			return true
		})
	}
	return out
}

// noCopy makes go vet's copylocks check flag a copied Integrity.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}

// integrity runs the cross-message checks over the index, which it
// takes over: the index is read-only from now on and is unmapped when
// the Integrity returned is unreachable. The positions are split among
// the workers; each part lists its problems' positions by check, and the
// parts are joined in order.
//
// The problems are wanted sorted by check, then place. Positions follow
// the paths as the inputs were given, so a check's positions are in
// place order already, but for inputs given out of path order, for
// which a check's list is sorted (stably: a message's problems stay
// together and in order) only then.
func (ix *index) integrity(workers int) *Integrity {
	in := &Integrity{ix: ix, done: make([]bool, len(ix.paths)), dirs: make([]string, len(ix.paths))}
	for i, p := range ix.paths {
		in.done[i], in.dirs[i] = inDoneFolder(p), expectedIn(p)
	}
	parts := make([]problemSink, max(1, min(workers, ix.n/4096)))
	span := func(w int) (int, int) { return w * ix.n / len(parts), (w + 1) * ix.n / len(parts) }
	var wg sync.WaitGroup
	for w := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			from, to := span(w)
			parts[w].want = -1
			ix.integrityRange(from, to, in.done, in.dirs, &parts[w])
		}()
	}
	byPlace := func(a, b Location) int { return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line)) }
	in.kept = ix.cycles() // in place order
	wg.Wait()
	positionsByPlace := func(a, b uint32) int { return byPlace(ix.loc(ix.at(int(a))), ix.loc(ix.at(int(b)))) }
	for c, name := range checksSorted {
		n, size := 0, 0
		if c == cCycle {
			n = len(in.kept)
		}
		for w := range parts {
			n += parts[w].n[c]
			size += len(parts[w].at[c])
		}
		if n == 0 {
			continue
		}
		in.checks = append(in.checks, Count{Name: name, N: n})
		if size == 0 {
			continue
		}
		list := make([]uint32, 0, size)
		for w := range parts {
			list = append(list, parts[w].at[c]...)
		}
		if !slices.IsSortedFunc(list, positionsByPlace) {
			slices.SortStableFunc(list, positionsByPlace)
		}
		in.at[c] = list
	}
	free := ix.mem.Detach()
	runtime.AddCleanup(in, func(free func()) { free() }, free)
	return in
}

// checksSorted are the integrity checks in the order of their names,
// which is their order in a report; the c constants are their places.
var checksSorted = [...]string{CheckCycle, CheckDuplicate, CheckOrphan, CheckPending, CheckUnfinished, CheckReference}

const (
	cCycle = iota
	cDuplicate
	cOrphan
	cPending
	cUnfinished
	cReference
)

func checkOrder(check string) int { return slices.Index(checksSorted[:], check) }

// problemSink takes the problems integrityRange finds. With want < 0 it
// counts them and lists their positions by check (in the order of
// checksSorted, a position once however many problems of a check it
// has); with want >= 0 it writes the messages of that check's problems
// and hands each to fn, until fn returns false (stop).
type problemSink struct {
	pos  int // the position being checked
	x    ids // its record of ids, when read (reused)
	want int
	// counting
	n  [len(checksSorted)]int
	at [len(checksSorted)][]uint32
	// writing
	fn   func(Problem) bool
	buf  []byte
	stop bool
}

// add takes one problem of check c (its place in checksSorted); msg
// appends its message to a buffer, only when writing.
func (s *problemSink) add(c int, l Location, msg func([]byte) []byte) {
	if s.want < 0 {
		s.n[c]++
		if k := len(s.at[c]); k == 0 || s.at[c][k-1] != uint32(s.pos) {
			s.at[c] = append(s.at[c], uint32(s.pos))
		}
		return
	}
	if c != s.want || s.stop {
		return
	}
	s.buf = msg(s.buf[:0])
	var m string
	if len(s.buf) > 0 {
		m = unsafe.String(&s.buf[0], len(s.buf))
	}
	s.stop = !s.fn(Problem{Check: checksSorted[c], Location: l, Message: m})
}

// integrityRange checks the messages at index positions [from, to),
// for every check when out.want < 0, else for that one only (Each, which
// then reads only what that check needs). dirs are the folders of the
// paths, for the pending DELEGATEs.
func (ix *index) integrityRange(from, to int, done []bool, dirs []string, out *problemSink) {
	x := &out.x
	q := appendQuoted
	want := func(c int) bool { return out.want < 0 || out.want == c }
	for pos := from; pos < to; pos++ {
		out.pos = pos
		r := ix.at(pos)
		if r.slot < 0 {
			continue
		}
		// the record is read only for a problem, or for the status of a
		// HANDBACK in a done folder
		read := false
		id := func() string {
			if !read {
				ix.read(r, x)
				read = true
			}
			return x.taskID
		}
		loc := ix.loc(r)
		var t *task
		if want(cOrphan) || want(cDuplicate) || want(cPending) {
			t = ix.task(r.slot)
		}
		switch r.kind {
		case kindHandback:
			if want(cOrphan) && t.delegate == 0 {
				out.add(cOrphan, loc, func(b []byte) []byte {
					return append(q(append(b, "HANDBACK "...), id()), " answers no DELEGATE"...)
				})
			}
			if want(cUnfinished) && done[r.path] {
				if id(); !terminal(x.status) {
					out.add(cUnfinished, loc, func(b []byte) []byte {
						b = append(q(append(b, "HANDBACK "...), x.taskID), " is in a done folder with status "...)
						return append(q(b, x.status), ", which does not finish a task"...)
					})
				}
			}
			if want(cDuplicate) && int(t.handback) != pos+1 {
				out.add(cDuplicate, loc, func(b []byte) []byte {
					b = append(q(append(b, "task_id "...), id()), " has another HANDBACK at "...)
					return ix.loc(ix.at(int(t.handback) - 1)).appendTo(b)
				})
			}
		case kindDelegate:
			if want(cPending) && t.handback == 0 {
				out.add(cPending, loc, func(b []byte) []byte {
					b = append(q(append(b, "DELEGATE "...), id()), " has no HANDBACK yet (in "...)
					return append(append(b, dirs[r.path]...), ')')
				})
			}
			if want(cDuplicate) && int(t.delegate) != pos+1 {
				out.add(cDuplicate, loc, func(b []byte) []byte {
					b = append(q(append(b, "task_id "...), id()), " has another DELEGATE at "...)
					return ix.loc(ix.at(int(t.delegate) - 1)).appendTo(b)
				})
			}
		}
		if !want(cReference) {
			continue
		}
		if p := ix.parentOf(r); p >= 0 && !ix.task(p).known {
			out.add(cReference, loc, func(b []byte) []byte {
				b = append(q(append(b, "parent_task_id of "...), id()), " names unknown task "...)
				return q(b, x.parent)
			})
		}
		for i, s := range ix.refsOf(r) {
			if ix.task(s).known {
				continue
			}
			out.add(cReference, loc, func(b []byte) []byte {
				field := "dependencies of "
				if id(); i >= x.nDeps {
					field = "children_created of "
				}
				b = append(q(append(b, field...), x.taskID), " names unknown task "...)
				return q(b, x.refs[i])
			})
		}
	}
}

// terminal statuses end a task; partial and blocked do not, nor does a
// spelling outside the enum.
func terminal(status string) bool {
	switch status {
	case "success", "failure", "escalate":
		return true
	}
	return false
}

// expectedIn names where the HANDBACK of a DELEGATE read from p is
// expected, as the path was written: the folder of a message file, a
// JSON Lines file itself (the queue is the file), stdin for "-", and "./"
// for the working directory, which "." would not say.
func expectedIn(p string) string {
	switch ext := strings.ToLower(path.Ext(p)); {
	case p == "-":
		return "stdin"
	case ext == ".jsonl" || ext == ".ndjson":
		return p
	}
	if dir := path.Dir(p); dir != "." {
		return dir
	}
	return "./"
}

func inDoneFolder(p string) bool {
	// segment by segment, without allocating (once per path of the
	// index, which for a queue tree is once per message)
	for dir := path.Dir(p); dir != ""; {
		var seg string
		seg, dir, _ = strings.Cut(dir, "/")
		for _, done := range [...]string{"done", "completed", "finished", "archive"} {
			if strings.EqualFold(seg, done) {
				return true
			}
		}
	}
	return false
}
