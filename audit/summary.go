package audit

import (
	"cmp"
	"iter"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/msgcheck"
)

// Summary is the outcome of an audit.
type Summary struct {
	// Messages are the messages read: Valid, Invalid (decoded, with
	// errors) and Malformed (not decodable: a line, a file or a YAML
	// document that does not parse, or a message with a duplicate key)
	// add up to it. Kinds break Valid and Invalid down; each Malformed
	// one is a Problem (CheckMalformed).
	Messages  int
	Valid     int
	Invalid   int
	Malformed int
	// Schemas are the JSON Schema documents read among the messages
	// (msgcheck.IsSchemaMap), named for no kind but by their file: they
	// are no messages, and not in Messages.
	Schemas int
	Kinds   []KindTotals
	// Rules counts the errors, then the warnings, per rule id, most
	// frequent first; UnknownFields and DeprecatedFields the field names
	// seen.
	Rules            []RuleCount
	UnknownFields    []Count
	DeprecatedFields []Count
	// Statuses is the distribution of HANDBACK statuses as written, with
	// the canonical value each stands for ("" when none).
	Statuses []StatusCount
	// Integrity are the cross-message problems; a nil Integrity has
	// none.
	Integrity *Integrity
	// Problems are inputs that could not be read (CheckUnreadable) and
	// messages that could not be decoded (CheckMalformed), in input order.
	Problems []Problem
	// InvalidMessages are the Invalid messages, in input order, each at
	// its file and line with its first error.
	InvalidMessages Invalids
}

// Invalids is a list of Invalid messages, kept in chunks of fixed
// capacity: the audit's one serial goroutine appends to it, and one
// growing slice would be copied again at each growth, in fresh memory.
// The zero value is an empty list.
type Invalids struct {
	chunks [][]Invalid // each full but the last
}

// invalidChunk is the capacity of a chunk of Invalids.
const invalidChunk = 4096

// Append adds m at the end of the list.
func (l *Invalids) Append(m Invalid) {
	if n := len(l.chunks); n == 0 || len(l.chunks[n-1]) == invalidChunk {
		l.chunks = append(l.chunks, make([]Invalid, 0, invalidChunk))
	}
	last := &l.chunks[len(l.chunks)-1]
	*last = append(*last, m)
}

// Len is the number of messages in the list.
func (l *Invalids) Len() int {
	n := len(l.chunks)
	if n == 0 {
		return 0
	}
	return (n-1)*invalidChunk + len(l.chunks[n-1])
}

// All yields the messages in order, with their index.
func (l *Invalids) All() iter.Seq2[int, Invalid] {
	return func(yield func(int, Invalid) bool) {
		i := 0
		for _, c := range l.chunks {
			for _, m := range c {
				if !yield(i, m) {
					return
				}
				i++
			}
		}
	}
}

// Invalid is a message that was decoded and has errors: where it is (the
// line where it starts), its kind, its first error (rule id and text) and
// how many errors it has.
type Invalid struct {
	Location
	Kind          string
	Rule, Message string
	Errors        int
}

// Compliance is the share of valid messages in percent (100 with none).
func (s *Summary) Compliance() float64 {
	if s.Messages == 0 {
		return 100
	}
	return 100 * float64(s.Valid) / float64(s.Messages)
}

// WithWarnings is the number of messages with at least one warning,
// valid or not (a malformed message has none).
func (s *Summary) WithWarnings() int {
	n := 0
	for _, k := range s.Kinds {
		n += k.Warns
	}
	return n
}

// KindTotals are the counts of one kind.
type KindTotals struct {
	Kind                            string
	Messages, Valid, Invalid, Warns int
}

// RuleCount is how many findings of one severity a rule gave.
type RuleCount struct {
	Rule     string
	Severity string // SeverityError or SeverityWarning
	N        int
}

// The severities of RuleCount.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
)

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
	CheckMalformed  = "malformed"  // a message that could not be decoded: counted in Summary.Malformed
)

// RuleID is the id under which `protoscan explain` documents a check:
// "audit/orphan".
func RuleID(check string) string { return "audit/" + check }

// aggregator reduces items to counters and the index; it runs on one
// goroutine (the collector).
type aggregator struct {
	spec *msgcheck.Spec
	s    Summary
	t    *tally // the workers' tallies, merged
	// index is built as the messages arrive (in input order, while the
	// workers still validate), so that integrity is one pass at the end
	index *index
	canon map[string]string // lower-case spelling -> canonical status
	enum  map[string]bool
}

func newAggregator(spec *msgcheck.Spec) *aggregator {
	a := &aggregator{spec: spec, t: newTally(), canon: map[string]string{}, enum: map[string]bool{},
		index: newIndex()}
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
	kinds []*KindTotals // a handful: looked through, not hashed
	// errors and warnings by rule id: the spec's strings, never a message's
	rules, warnRules map[string]int
	// names and spellings read from messages (see inc)
	unknown, deprec, statuses map[string]*int
}

func newTally() *tally {
	return &tally{rules: map[string]int{}, warnRules: map[string]int{}, unknown: map[string]*int{},
		deprec: map[string]*int{}, statuses: map[string]*int{}}
}

// count adds a validated message (not a malformed one), whose findings
// are res, to the tally.
func (t *tally) count(it *item, res *msgcheck.Result) {
	kt := t.kind(res.Kind)
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
		t.warnRules[f.Rule]++
		switch {
		case f.IsUnknownField():
			inc(t.unknown, f.Field)
		case f.IsDeprecated():
			inc(t.deprec, f.Field)
		}
	}
	if res.Kind == "handback" && it.status != "" {
		inc(t.statuses, it.status)
	}
}

// kind returns the totals of a kind, added if new.
func (t *tally) kind(name string) *KindTotals {
	for _, kt := range t.kinds {
		if kt.Kind == name {
			return kt
		}
	}
	kt := &KindTotals{Kind: name}
	t.kinds = append(t.kinds, kt)
	return kt
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
	for _, kt := range u.kinds {
		mine := t.kind(kt.Kind)
		mine.Messages += kt.Messages
		mine.Valid += kt.Valid
		mine.Invalid += kt.Invalid
		mine.Warns += kt.Warns
	}
	for k, n := range u.rules {
		t.rules[k] += n
	}
	for k, n := range u.warnRules {
		t.warnRules[k] += n
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

// add takes a message of batch b in input order: the totals, its
// verdict's problems and its index entry.
func (a *aggregator) add(b *batch, it *item) {
	if it.unread != "" {
		a.problem(it.loc, it.unread)
		return
	}
	if it.schema {
		a.s.Schemas++
		return
	}
	a.s.Messages++
	if it.decodeErr != nil {
		a.s.Malformed++
		a.s.Problems = append(a.s.Problems, Problem{Check: CheckMalformed, Message: it.decodeErr.Error(), Location: it.loc})
		return
	}
	if it.valid {
		a.s.Valid++
	} else {
		a.s.Invalid++
		inv := Invalid{Location: it.loc, Kind: it.errKind, Rule: it.errRule, Message: it.errMsg, Errors: it.errN}
		if inv.Line == 0 {
			inv.Line = 1 // a file of one message: it starts there
		}
		a.s.InvalidMessages.Append(inv)
	}
	a.index.add(it.indexKind, it.loc, b.ids[it.idsFrom:it.idsTo])
}

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
		if i := slices.IndexFunc(a.t.kinds, func(kt *KindTotals) bool { return kt.Kind == k }); i >= 0 {
			s.Kinds = append(s.Kinds, *a.t.kinds[i])
		}
	}
	for _, c := range counts(a.t.rules) {
		s.Rules = append(s.Rules, RuleCount{c.Name, SeverityError, c.N})
	}
	for _, c := range counts(a.t.warnRules) {
		s.Rules = append(s.Rules, RuleCount{c.Name, SeverityWarning, c.N})
	}
	s.UnknownFields, s.DeprecatedFields = counts(deref(a.t.unknown)), counts(deref(a.t.deprec))
	for _, c := range counts(deref(a.t.statuses)) {
		canon := a.canon[strings.ToLower(strings.TrimSpace(c.Name))]
		if a.enum[c.Name] {
			canon = c.Name
		}
		s.Statuses = append(s.Statuses, StatusCount{Value: c.Name, Canonical: canon, N: c.N})
	}
	s.Integrity = a.index.integrity(workers) // the index is its own now
	return s
}
