package audit

import (
	"cmp"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/protoscan/protoscan/jsonmsg"
	"github.com/protoscan/protoscan/msgcheck"
)

// Summary is the outcome of an audit.
type Summary struct {
	Messages int // messages read (decodable or not)
	Valid    int
	Invalid  int // with errors, or not decodable
	Kinds    []KindTotals
	// Rules counts the errors and warnings per rule id, most frequent
	// first; UnknownFields and DeprecatedFields the field names seen.
	Rules            []Count
	UnknownFields    []Count
	DeprecatedFields []Count
	// Statuses is the distribution of HANDBACK statuses as written, with
	// the canonical value each stands for ("" when none).
	Statuses []StatusCount
	// Integrity are the cross-message problems, sorted by kind of check
	// then place.
	Integrity []Problem
	// Problems are inputs that could not be read (CheckUnreadable) and
	// messages that could not be decoded (CheckMalformed), in input order.
	Problems []Problem
}

// Compliance is the share of valid messages in percent (100 with none).
func (s *Summary) Compliance() float64 {
	if s.Messages == 0 {
		return 100
	}
	return 100 * float64(s.Valid) / float64(s.Messages)
}

// KindTotals are the counts of one kind.
type KindTotals struct {
	Kind                            string
	Messages, Valid, Invalid, Warns int
}

// Count is a name and how often it was seen.
type Count struct {
	Name string
	N    int
}

// StatusCount is one spelling of a status.
type StatusCount struct {
	Value, Canonical string
	N                int
}

// Problem is an integrity problem or an unreadable input.
type Problem struct {
	Check   string // "orphan", "pending", "duplicate", "unknown-reference", "cycle", "unfinished-in-done", "unreadable"
	Message string
	Location
}

// Integrity checks, as Problem.Check names them.
const (
	CheckOrphan     = "orphan"
	CheckPending    = "pending"
	CheckDuplicate  = "duplicate"
	CheckReference  = "unknown-reference"
	CheckCycle      = "cycle"
	CheckUnfinished = "unfinished-in-done"
	CheckUnreadable = "unreadable" // an input that could not be read: the audit is incomplete
	CheckMalformed  = "malformed"  // a message that could not be decoded: counted invalid
)

// entry is what the index keeps of one message.
type entry struct {
	kind, taskID, status, parent string
	deps, children               []string
	loc                          Location
}

func indexEntry(m map[string]any, kind string, loc Location) entry {
	e := entry{kind: kind, loc: loc}
	if m == nil {
		return e
	}
	// the decoded strings share the message's text: the index copies what
	// it keeps, so it never holds a whole message
	str := func(k string) string { s, _ := m[k].(string); return strings.Clone(s) }
	e.taskID, e.status, e.parent = str("task_id"), str("status"), str("parent_task_id")
	e.deps = strings1(m["dependencies"])
	e.children = strings1(m["children_created"])
	return e
}

// indexEntryTape is indexEntry for a message on a tape. The strings it
// keeps are copied into one new string, of which the entry's are parts:
// one allocation per message instead of one per id (the index holds one
// entry per message, and its allocations were a good part of the
// audit's page faults).
func indexEntryTape(t *jsonmsg.Tape, kind string, loc Location) entry {
	var buf [8]string
	// task_id, status, parent_task_id, then the strings of dependencies
	// and of children_created
	strs := buf[:0]
	for _, k := range [...]string{"task_id", "status", "parent_task_id"} {
		s := ""
		if i := t.Member(0, k); i >= 0 && t.Toks[i].Kind == jsonmsg.String {
			s = t.Toks[i].Str
		}
		strs = append(strs, s)
	}
	nDeps := 0
	for n, k := range [...]string{"dependencies", "children_created"} {
		if i := t.Member(0, k); i >= 0 && t.Toks[i].Kind == jsonmsg.Array {
			for j := i + 1; j < int(t.Toks[i].Next); j = int(t.Toks[j].Next) {
				if t.Toks[j].Kind == jsonmsg.String {
					strs = append(strs, t.Toks[j].Str)
				}
			}
		}
		if n == 0 {
			nDeps = len(strs) - 3
		}
	}
	all := strings.Join(strs, "") // the one copy
	for i, at := 0, 0; i < len(strs); i++ {
		strs[i], at = all[at:at+len(strs[i])], at+len(strs[i])
	}
	e := entry{kind: kind, loc: loc, taskID: strs[0], status: strs[1], parent: strs[2]}
	if len(strs) > 3 {
		items := slices.Clone(strs[3:]) // kept by the index: off the stack buffer
		if nDeps > 0 {
			e.deps = items[:nDeps:nDeps]
		}
		if len(items) > nDeps {
			e.children = items[nDeps:]
		}
	}
	return e
}

func strings1(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, strings.Clone(s))
		}
	}
	return out
}

// aggregator reduces items to counters and the index; it runs on one
// goroutine (the collector).
type aggregator struct {
	spec *msgcheck.Spec
	s    Summary
	t    *tally // the workers' tallies, merged
	// index holds one entry per message in chunks, so that growing it
	// never copies what it holds (entries are pointed to by integrity)
	index [][]entry
	n     int // entries in index
	// tasks maps each task id to the first DELEGATE and HANDBACK that
	// carry it, built as the messages arrive (in input order, while the
	// workers still validate), so that integrity is one pass at the end
	tasks map[string]taskRef
	canon map[string]string // lower-case spelling -> canonical status
	enum  map[string]bool
}

func newAggregator(spec *msgcheck.Spec) *aggregator {
	a := &aggregator{spec: spec, t: newTally(), canon: map[string]string{}, enum: map[string]bool{},
		tasks: map[string]taskRef{}}
	if values, aliases, ok := spec.Enum("handback", "status"); ok {
		for _, v := range values {
			a.enum[v] = true
			a.canon[strings.ToLower(v)] = v
		}
		for from, to := range aliases {
			a.canon[strings.ToLower(from)] = to
		}
	}
	return a
}

func (a *aggregator) problem(l Location, msg string) {
	a.s.Problems = append(a.s.Problems, Problem{Check: CheckUnreadable, Message: msg, Location: l})
}

// tally is what a worker counts on its own: counts do not depend on the
// order of messages, so workers keep them apart and finish merges them.
type tally struct {
	kinds map[string]*KindTotals
	rules map[string]int // rule ids are the spec's strings, never a message's
	// names and spellings read from messages (see inc)
	unknown, deprec, statuses map[string]*int
}

func newTally() *tally {
	return &tally{kinds: map[string]*KindTotals{}, rules: map[string]int{}, unknown: map[string]*int{},
		deprec: map[string]*int{}, statuses: map[string]*int{}}
}

// count adds a validated message (not a malformed one) to the tally.
func (t *tally) count(it *item) {
	res := &it.result
	kt := t.kinds[res.Kind]
	if kt == nil {
		kt = &KindTotals{Kind: res.Kind}
		t.kinds[res.Kind] = kt
	}
	kt.Messages++
	if res.Valid {
		kt.Valid++
	} else {
		kt.Invalid++
	}
	if len(res.Warnings) > 0 {
		kt.Warns++
	}
	for _, f := range res.Errors {
		t.rules[f.Rule]++
	}
	for _, f := range res.Warnings {
		t.rules[f.Rule]++
		switch {
		case f.IsUnknownField():
			inc(t.unknown, f.Field)
		case f.IsDeprecated():
			inc(t.deprec, f.Field)
		}
	}
	if it.entry.kind == "handback" && it.entry.status != "" {
		inc(t.statuses, it.entry.status)
	}
	it.result = msgcheck.Result{} // the findings are counted; do not carry them further
}

// inc counts name, read from a message: it shares the message's text
// (in the audit, a recycled buffer), so it is copied the first time and
// never assigned to the map again. Assigning to a key a Go map holds
// replaces the stored string with the one given, which would keep (and
// later see changed) the text of whatever message was counted last.
func inc(m map[string]*int, name string) {
	if p := m[name]; p != nil {
		*p++
		return
	}
	n := 1
	m[strings.Clone(name)] = &n
}

// merge adds u into t.
func (t *tally) merge(u *tally) {
	for k, kt := range u.kinds {
		if mine := t.kinds[k]; mine != nil {
			mine.Messages += kt.Messages
			mine.Valid += kt.Valid
			mine.Invalid += kt.Invalid
			mine.Warns += kt.Warns
		} else {
			t.kinds[k] = kt
		}
	}
	for k, n := range u.rules {
		t.rules[k] += n
	}
	for _, pair := range [][2]map[string]*int{{t.unknown, u.unknown}, {t.deprec, u.deprec}, {t.statuses, u.statuses}} {
		for k, p := range pair[1] { // k is a copy (inc)
			if q := pair[0][k]; q != nil {
				*q += *p
			} else {
				pair[0][k] = p
			}
		}
	}
}

// add takes a message in input order: the totals, its verdict's problems
// and its index entry.
func (a *aggregator) add(it *item) {
	if it.unread != "" {
		a.problem(it.loc, it.unread)
		return
	}
	a.s.Messages++
	if it.decodeErr != nil {
		a.s.Invalid++
		a.s.Problems = append(a.s.Problems, Problem{Check: CheckMalformed, Message: "not a JSON message: " + it.decodeErr.Error(), Location: it.loc})
		return
	}
	if it.valid {
		a.s.Valid++
	} else {
		a.s.Invalid++
	}
	if n := len(a.index); n == 0 || len(a.index[n-1]) == cap(a.index[n-1]) {
		a.index = append(a.index, make([]entry, 0, indexChunk))
	}
	last := &a.index[len(a.index)-1]
	*last = append(*last, it.entry)
	a.n++
	if id := it.entry.taskID; id != "" {
		r := a.tasks[id]
		switch it.entry.kind {
		case "delegate":
			if r.delegate == 0 {
				r.delegate = a.n
			}
		case "handback":
			if r.handback == 0 {
				r.handback = a.n
			}
		}
		a.tasks[id] = r
	}
}

// taskRef holds 1 + the index position of the first DELEGATE and of the
// first HANDBACK of a task id; 0 is none. Any message with the task id
// makes it known.
type taskRef struct{ delegate, handback int }

// at returns the entry at index position pos.
func (a *aggregator) at(pos int) *entry { return &a.index[pos/indexChunk][pos%indexChunk] }

func deref(m map[string]*int) map[string]int {
	out := make(map[string]int, len(m))
	for k, p := range m {
		out[k] = *p
	}
	return out
}

func counts(m map[string]int) []Count {
	out := make([]Count, 0, len(m))
	for k, n := range m {
		out = append(out, Count{k, n})
	}
	slices.SortFunc(out, func(a, b Count) int { return cmp.Or(cmp.Compare(b.N, a.N), cmp.Compare(a.Name, b.Name)) })
	return out
}

func (a *aggregator) finish(tallies []*tally) *Summary {
	workers := len(tallies)
	for _, t := range tallies {
		a.t.merge(t)
	}
	s := &a.s
	for _, k := range append(a.spec.Kinds(), "") {
		if kt := a.t.kinds[k]; kt != nil {
			s.Kinds = append(s.Kinds, *kt)
		}
	}
	s.Rules, s.UnknownFields, s.DeprecatedFields = counts(a.t.rules), counts(deref(a.t.unknown)), counts(deref(a.t.deprec))
	for _, c := range counts(deref(a.t.statuses)) {
		canon := a.canon[strings.ToLower(strings.TrimSpace(c.Name))]
		if a.enum[c.Name] {
			canon = c.Name
		}
		s.Statuses = append(s.Statuses, StatusCount{Value: c.Name, Canonical: canon, N: c.N})
	}
	s.Integrity = a.integrity(workers)
	return s
}

// indexChunk is the number of index entries allocated at once.
const indexChunk = 4096

// integrity runs the cross-message checks over the index. The index and
// the task map are read-only by now, so the positions are split among
// the workers; their problems are joined in position order.
func (a *aggregator) integrity(workers int) []Problem {
	parts := make([][]Problem, max(1, min(workers, a.n/4096)))
	var wg sync.WaitGroup
	for w := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			parts[w] = a.integrityRange(w*a.n/len(parts), (w+1)*a.n/len(parts))
		}()
	}
	wg.Wait()
	out := append(slices.Concat(parts...), a.cycles()...)
	slices.SortStableFunc(out, func(a, b Problem) int {
		return cmp.Or(cmp.Compare(a.Check, b.Check), cmp.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line))
	})
	return out
}

// integrityRange checks the entries at index positions [from, to).
func (a *aggregator) integrityRange(from, to int) []Problem {
	var out []Problem
	add := func(check string, e *entry, msg ...string) {
		out = append(out, Problem{Check: check, Location: e.loc, Message: strings.Join(msg, "")})
	}
	q := strconv.Quote
	for pos := from; pos < to; pos++ {
		e := a.at(pos)
		if e.taskID == "" {
			continue
		}
		r := a.tasks[e.taskID]
		switch e.kind {
		case "handback":
			if r.delegate == 0 {
				add(CheckOrphan, e, "HANDBACK ", q(e.taskID), " answers no DELEGATE")
			}
			if inDoneFolder(e.loc.Path) && !terminal(e.status) {
				add(CheckUnfinished, e, "HANDBACK ", q(e.taskID), " is in a done folder with status ", q(e.status), ", which does not finish a task")
			}
			if r.handback != pos+1 {
				add(CheckDuplicate, e, "task_id ", q(e.taskID), " has another HANDBACK at ", a.at(r.handback-1).loc.String())
			}
		case "delegate":
			if r.handback == 0 {
				add(CheckPending, e, "DELEGATE ", q(e.taskID), " has no HANDBACK yet (in ", path.Dir(e.loc.Path), ")")
			}
			if r.delegate != pos+1 {
				add(CheckDuplicate, e, "task_id ", q(e.taskID), " has another DELEGATE at ", a.at(r.delegate-1).loc.String())
			}
		}
		if e.parent != "" {
			if _, ok := a.tasks[e.parent]; !ok {
				add(CheckReference, e, "parent_task_id of ", q(e.taskID), " names unknown task ", q(e.parent))
			}
		}
		for _, r := range [...]struct {
			field string
			ids   []string
		}{{"dependencies", e.deps}, {"children_created", e.children}} {
			for _, id := range r.ids {
				if _, ok := a.tasks[id]; !ok {
					add(CheckReference, e, r.field, " of ", q(e.taskID), " names unknown task ", q(id))
				}
			}
		}
	}
	return out
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

func inDoneFolder(p string) bool {
	// runs for every HANDBACK: segment by segment, without allocating
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

// cycles finds dependency cycles among DELEGATEs (iteratively: a queue
// may hold long chains), each reported once at its smallest task id. The
// search starts from the DELEGATEs in input order, so that the cycles
// found do not depend on anything but the input.
func (a *aggregator) cycles() []Problem {
	const (
		white = iota
		grey
		black
	)
	color := make([]uint8, a.n) // by index position of a task's first DELEGATE
	// first is the position of the first DELEGATE of id, or -1
	first := func(id string) int { return a.tasks[id].delegate - 1 }
	var out []Problem
	type frame struct {
		pos  int
		next int
	}
	var stack []frame
	for root := range a.n {
		if e := a.at(root); e.kind != "delegate" || len(e.deps) == 0 || color[root] != white || first(e.taskID) != root {
			continue
		}
		stack = append(stack[:0], frame{root, 0})
		color[root] = grey
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			deps := a.at(top.pos).deps
			if top.next >= len(deps) {
				color[top.pos] = black
				stack = stack[:len(stack)-1]
				continue
			}
			dep := first(deps[top.next])
			top.next++
			if dep < 0 {
				continue
			}
			switch color[dep] {
			case white:
				color[dep] = grey
				stack = append(stack, frame{dep, 0})
			case grey:
				// the cycle is the stack from dep to the top
				var cyc []string
				for i := len(stack) - 1; i >= 0; i-- {
					cyc = append(cyc, a.at(stack[i].pos).taskID)
					if stack[i].pos == dep {
						break
					}
				}
				slices.Reverse(cyc)
				at := a.at(first(slices.Min(cyc)))
				out = append(out, Problem{Check: CheckCycle, Location: at.loc,
					Message: "dependency cycle: " + strings.Join(append(cyc, a.at(dep).taskID), " -> ")})
			}
		}
	}
	return out
}
