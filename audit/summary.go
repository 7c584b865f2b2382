package audit

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"

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
	canon map[string]string // lower-case spelling -> canonical status
	enum  map[string]bool
}

func newAggregator(spec *msgcheck.Spec) *aggregator {
	a := &aggregator{spec: spec, t: newTally(), canon: map[string]string{}, enum: map[string]bool{}}
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
	kinds    map[string]*KindTotals
	rules    map[string]int
	unknown  map[string]int
	deprec   map[string]int
	statuses map[string]int
}

func newTally() *tally {
	return &tally{kinds: map[string]*KindTotals{}, rules: map[string]int{}, unknown: map[string]int{},
		deprec: map[string]int{}, statuses: map[string]int{}}
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

// inc counts name, copying it the first time: a name read from a message
// shares that message's text, which the tally must not keep alive.
func inc(m map[string]int, name string) {
	if _, ok := m[name]; !ok {
		name = strings.Clone(name)
	}
	m[name]++
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
	for _, pair := range [][2]map[string]int{{t.rules, u.rules}, {t.unknown, u.unknown}, {t.deprec, u.deprec}, {t.statuses, u.statuses}} {
		for k, n := range pair[1] {
			pair[0][k] += n
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
	for _, t := range tallies {
		a.t.merge(t)
	}
	s := &a.s
	for _, k := range append(a.spec.Kinds(), "") {
		if kt := a.t.kinds[k]; kt != nil {
			s.Kinds = append(s.Kinds, *kt)
		}
	}
	s.Rules, s.UnknownFields, s.DeprecatedFields = counts(a.t.rules), counts(a.t.unknown), counts(a.t.deprec)
	for _, c := range counts(a.t.statuses) {
		canon := a.canon[strings.ToLower(strings.TrimSpace(c.Name))]
		if a.enum[c.Name] {
			canon = c.Name
		}
		s.Statuses = append(s.Statuses, StatusCount{Value: c.Name, Canonical: canon, N: c.N})
	}
	s.Integrity = integrity(a.index, a.enum)
	return s
}

// indexChunk is the number of index entries allocated at once.
const indexChunk = 4096

// integrity runs the cross-message checks over the index.
func integrity(chunks [][]entry, enum map[string]bool) []Problem {
	n := 0
	for _, c := range chunks {
		n += len(c)
	}
	index := make([]*entry, 0, n)
	for c := range chunks {
		for i := range chunks[c] {
			index = append(index, &chunks[c][i])
		}
	}
	// the first DELEGATE and HANDBACK of each task id; known holds the
	// task ids of messages of any kind
	delegates := make(map[string]*entry, n)
	handbacks := make(map[string]*entry, n)
	known := make(map[string]struct{}, n)
	for _, e := range index {
		if e.taskID == "" {
			continue
		}
		known[e.taskID] = struct{}{}
		switch e.kind {
		case "delegate":
			if delegates[e.taskID] == nil {
				delegates[e.taskID] = e
			}
		case "handback":
			if handbacks[e.taskID] == nil {
				handbacks[e.taskID] = e
			}
		}
	}
	var out []Problem
	add := func(check string, l Location, format string, args ...any) {
		out = append(out, Problem{Check: check, Location: l, Message: fmt.Sprintf(format, args...)})
	}
	for _, e := range index {
		if e.taskID == "" {
			continue
		}
		switch e.kind {
		case "handback":
			if delegates[e.taskID] == nil {
				add(CheckOrphan, e.loc, "HANDBACK %q answers no DELEGATE", e.taskID)
			}
			if inDoneFolder(e.loc.Path) && !terminal(e.status) {
				add(CheckUnfinished, e.loc, "HANDBACK %q is in a done folder with status %q, which does not finish a task", e.taskID, e.status)
			}
			if first := handbacks[e.taskID]; first != e {
				add(CheckDuplicate, e.loc, "task_id %q has another HANDBACK at %s", e.taskID, first.loc)
			}
		case "delegate":
			if handbacks[e.taskID] == nil {
				folder := path.Dir(e.loc.Path)
				add(CheckPending, e.loc, "DELEGATE %q has no HANDBACK yet (in %s)", e.taskID, folder)
			}
			if first := delegates[e.taskID]; first != e {
				add(CheckDuplicate, e.loc, "task_id %q has another DELEGATE at %s", e.taskID, first.loc)
			}
		}
		refs := []struct {
			field string
			ids   []string
		}{{"parent_task_id", nonEmpty(e.parent)}, {"dependencies", e.deps}, {"children_created", e.children}}
		for _, r := range refs {
			for _, id := range r.ids {
				if _, ok := known[id]; !ok {
					add(CheckReference, e.loc, "%s of %q names unknown task %q", r.field, e.taskID, id)
				}
			}
		}
	}
	out = append(out, cycles(delegates)...)
	slices.SortStableFunc(out, func(a, b Problem) int {
		return cmp.Or(cmp.Compare(a.Check, b.Check), cmp.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line))
	})
	return out
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
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
	for _, seg := range strings.Split(path.Dir(p), "/") {
		switch strings.ToLower(seg) {
		case "done", "completed", "finished", "archive":
			return true
		}
	}
	return false
}

// cycles finds dependency cycles among DELEGATEs (iteratively: a queue
// may hold long chains), each reported once at its smallest task id.
func cycles(delegates map[string]*entry) []Problem {
	ids := make([]string, 0, len(delegates))
	for id := range delegates {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	var out []Problem
	type frame struct {
		id   string
		next int
	}
	for _, root := range ids {
		if color[root] != white {
			continue
		}
		stack := []frame{{root, 0}}
		color[root] = grey
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			deps := delegates[top.id].deps
			if top.next >= len(deps) {
				color[top.id] = black
				stack = stack[:len(stack)-1]
				continue
			}
			dep := deps[top.next]
			top.next++
			if _, isDelegate := delegates[dep]; !isDelegate {
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
					cyc = append(cyc, stack[i].id)
					if stack[i].id == dep {
						break
					}
				}
				slices.Reverse(cyc)
				first := delegates[slices.Min(cyc)]
				out = append(out, Problem{Check: CheckCycle, Location: first.loc,
					Message: "dependency cycle: " + strings.Join(append(cyc, dep), " -> ")})
			}
		}
	}
	return out
}
