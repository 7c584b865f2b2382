package enumdrift

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/protoscan/protoscan/finding"
	"github.com/protoscan/protoscan/languages/facts"
	"github.com/protoscan/protoscan/msgcheck"
)

// Rule ids of this analyzer.
const (
	RuleCase    = "enumdrift/status-case"
	RuleLegacy  = "enumdrift/legacy-status"
	RuleUnknown = "enumdrift/unknown-status"
	RuleMissing = "enumdrift/missing-status"
)

// Check reports the HANDBACK status drift in one file's facts. A literal
// is judged only where its context makes it a HANDBACK status:
//
//   - the status value of a mapping that is a HANDBACK by msgcheck's
//     shape predicate (Spec.ShapeOf: its marker, a type or builder named
//     for HANDBACK, or task_id, status and output or metrics; never two
//     keys, a call of another name or a table of column titles);
//   - a member of a const block, enum, set or Literal whose values cover
//     at least three canonical statuses, and the keys of a routing table
//     that do;
//   - a comparison, assignment or case on a status field, when the same
//     function compares that field with canonical statuses too.
//
// Statuses of other things (health checks, HTTP, Kubernetes conditions,
// job states) share none of that context and are left alone.
func Check(f *facts.File, v *Vocabulary) []finding.Finding {
	out, _ := Survey(f, v)
	return out
}

// StatusUse is a literal that Check judged to be a HANDBACK status,
// canonical or not: the drift matrix of the compliance report is made of
// them.
type StatusUse struct {
	Value     string // as written
	Canonical string // the canonical status it stands for; "" for an unknown value
	finding.Location
}

// Survey is Check, and also returns every literal it judged to be a
// HANDBACK status, in source order.
func Survey(f *facts.File, v *Vocabulary) ([]finding.Finding, []StatusUse) {
	c := checker{f: f, v: v, reported: map[int]bool{}, used: map[int]bool{}}
	c.foreignSpecs()
	c.evidence = c.fileEvidence()
	c.mappings()
	c.groups()
	c.routingTables()
	c.comparisons()
	finding.Sort(c.out)
	slices.SortFunc(c.uses, func(a, b StatusUse) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
	return c.out, c.uses
}

type checker struct {
	f        *facts.File
	v        *Vocabulary
	evidence bool // the file handles HANDBACKs (a HANDBACK mapping, type or file name)
	reported map[int]bool
	out      []finding.Finding
	used     map[int]bool // literals recorded in uses
	uses     []StatusUse
	// foreignMapping and foreignGroup mark what belongs to a spec of
	// another protocol (see foreignSpecs); nil when nothing does.
	foreignMapping, foreignGroup []bool
}

func (c *checker) foreign(mapping int) bool {
	return c.foreignMapping != nil && c.foreignMapping[mapping]
}

func containsHandback(s string) bool { return strings.Contains(strings.ToLower(s), "handback") }

// handbackness says how sure we are that a mapping is a HANDBACK.
type handbackness uint8

const (
	notHandback   handbackness = iota
	maybeHandback              // a bare {status: ...} in a file that handles HANDBACKs
	isHandback
)

// handback tells whether a mapping is a HANDBACK: it has a status key
// and msgcheck's shape predicate says it is one (its marker, a type or
// builder named for HANDBACK, or task_id, status and output or metrics,
// with no more foreign fields than HANDBACK ones, and no column titles),
// its keys matched in any spelling (TaskID). In a file that handles
// HANDBACKs a mapping with nothing beside its status but a HANDBACK field
// (a status history entry) may be one: its spellings close to the enum
// are judged, an unrelated value is not.
func (c *checker) handback(m *facts.Mapping) handbackness {
	hasStatus, others := false, 0
	for _, e := range m.Entries {
		k := normKey(e.Key)
		switch {
		case k == "status":
			hasStatus = true
		case !c.v.handback[k]:
			others++
		}
	}
	if !hasStatus {
		return notHandback
	}
	r := msgcheck.Record{Keys: m.Keys(), Values: m.Values(), Name: m.TypeName, Call: m.Call, Fold: true}
	switch {
	case c.v.spec.HasShape(handbackKind, r):
		return isHandback
	case c.evidence && len(m.Entries) <= 2 && others == 0:
		return maybeHandback
	}
	return notHandback
}

func (c *checker) fileEvidence() bool {
	if containsHandback(c.f.Path) {
		return true
	}
	for i := range c.f.Mappings {
		m := &c.f.Mappings[i]
		if containsHandback(m.TypeName) && !c.foreign(i) {
			return true
		}
	}
	for g, gr := range c.f.Groups {
		if containsHandback(gr.Name) && (c.foreignGroup == nil || !c.foreignGroup[g]) {
			return true
		}
	}
	for i, s := range c.f.Strings {
		if containsHandback(s.Receiver) && !c.foreignString(i) {
			return true
		}
	}
	// a mapping with two required HANDBACK fields besides status
	for i := range c.f.Mappings {
		if !c.foreign(i) && c.handback(&c.f.Mappings[i]) == isHandback {
			return true
		}
	}
	return false
}

func (c *checker) mappings() {
	kind := make([]handbackness, len(c.f.Mappings))
	for i := range c.f.Mappings {
		if !c.foreign(i) {
			kind[i] = c.handback(&c.f.Mappings[i])
		}
	}
	for i, s := range c.f.Strings {
		if s.Role != facts.RoleValue || s.Mapping < 0 || kind[s.Mapping] == notHandback || !isStatusKey(s.Key) {
			continue
		}
		c.judge(i, kind[s.Mapping] == isHandback, "in a HANDBACK")
	}
}

// statusSet reports whether literals form a definition of the status
// enum: they cover at least three canonical values, and canonical
// spellings are at least half of them unless the name says "status".
func (c *checker) statusSet(members []int, name string) (covered map[string]bool, ok bool) {
	covered = map[string]bool{}
	related := 0
	for _, i := range members {
		if cl, to := c.v.classify(c.f.Strings[i].Value); cl != unknown {
			covered[to] = true
			related++
		}
	}
	if len(covered) < 3 {
		return covered, false
	}
	return covered, 2*related >= len(members) || isStatusKey(name) || strings.Contains(strings.ToLower(name), "status")
}

func (c *checker) groups() {
	for gi, g := range c.f.Groups {
		if g.Kind == facts.GroupCases {
			continue // switch cases are judged with the comparisons
		}
		if c.foreignGroup != nil && c.foreignGroup[gi] {
			continue // the statuses of another protocol's spec
		}
		covered, ok := c.statusSet(g.Members, g.Name)
		if !ok {
			continue
		}
		what := fmt.Sprintf("in %s %s", g.Kind, displayName(g.Name))
		for _, i := range g.Members {
			c.judge(i, true, what)
		}
		if g.Kind == facts.GroupSet || g.Kind == facts.GroupCases {
			continue // a set may rightly hold a subset (terminal statuses)
		}
		if miss := c.v.missing(covered); len(miss) > 0 {
			c.out = append(c.out, finding.Finding{
				Rule: RuleMissing, Severity: finding.Warning,
				Location: c.loc(g.Pos, facts.Pos{}),
				Message: fmt.Sprintf("%s %s defines HANDBACK statuses but lacks %s (the statuses are %s)",
					g.Kind, displayName(g.Name), strings.Join(miss, ", "), c.v.enumText()),
			})
		}
	}
}

func displayName(n string) string {
	if n == "" {
		return "(unnamed)"
	}
	return n
}

// routingTables judges mappings keyed by statuses. A mapping whose values
// are themselves canonical statuses is a normalisation table (legacy
// spelling -> canonical) and is right to hold legacy keys.
func (c *checker) routingTables() {
	keys := map[int][]int{}
	for i, s := range c.f.Strings {
		if s.Role == facts.RoleKey && s.Mapping >= 0 {
			keys[s.Mapping] = append(keys[s.Mapping], i)
		}
	}
	for m, members := range keys {
		if c.foreign(m) {
			continue
		}
		if _, ok := c.statusSet(members, ""); !ok || c.normalisation(&c.f.Mappings[m]) {
			continue
		}
		for _, i := range members {
			c.judge(i, true, "as a key of a table over HANDBACK statuses")
		}
	}
}

func (c *checker) normalisation(m *facts.Mapping) bool {
	n := 0
	for _, e := range m.Entries {
		if s, ok := e.Value.(string); ok {
			if cl, _ := c.v.classify(s); cl == canonical {
				n++
			}
		}
	}
	return 2*n >= len(m.Entries)
}

type subject struct{ scope, receiver string }

// comparisons judges literals compared with, assigned to or switched on a
// status field. A function that compares the field with two canonical
// statuses (or one, in a file that handles HANDBACKs) is about HANDBACK
// statuses; only then are its other spellings drift, and an unknown one
// counts only in a file that handles HANDBACKs.
func (c *checker) comparisons() {
	groups := map[subject][]int{}
	var order []subject
	for i, s := range c.f.Strings {
		switch s.Role {
		case facts.RoleCompare, facts.RoleAssign, facts.RoleCase:
		default:
			continue
		}
		if !isStatusKey(s.Key) || c.foreignString(i) {
			continue
		}
		k := subject{s.Scope, s.Receiver}
		if _, seen := groups[k]; !seen {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	for _, k := range order {
		members := groups[k]
		exact := map[string]bool{}
		related := 0
		for _, i := range members {
			cl, to := c.v.classify(c.f.Strings[i].Value)
			if cl == canonical {
				exact[to] = true
			}
			if cl != unknown {
				related++
			}
		}
		strong := len(exact) >= 2 || (c.evidence && related >= 1) || containsHandback(k.receiver)
		if !strong {
			continue
		}
		for _, i := range members {
			c.judge(i, c.evidence || containsHandback(k.receiver), "compared with "+subjectText(c.f.Strings[i]))
		}
	}
}

func subjectText(s facts.String) string {
	if s.Receiver != "" {
		return s.Receiver + "." + s.Key
	}
	return s.Key
}

// judge reports the literal at index i unless it is canonical. Unknown
// values are reported only when the context is certain.
func (c *checker) judge(i int, certain bool, context string) {
	if c.reported[i] {
		return
	}
	s := c.f.Strings[i]
	cl, to := c.v.classify(s.Value)
	if (cl != unknown || certain) && !c.used[i] {
		c.used[i] = true
		c.uses = append(c.uses, StatusUse{Value: s.Value, Canonical: to, Location: c.loc(s.Pos, facts.Pos{})})
	}
	var rule, msg string
	switch cl {
	case canonical:
		return
	case caseDrift:
		rule = RuleCase
		msg = fmt.Sprintf("status %q differs from the canonical %q only in case (%s)", s.Value, to, context)
	case legacy:
		rule = RuleLegacy
		msg = fmt.Sprintf("legacy status %q: the protocol spells it %q (%s)", s.Value, to, context)
	case unknown:
		if !certain {
			return
		}
		rule = RuleUnknown
		msg = fmt.Sprintf("%q is not a HANDBACK status (%s; the statuses are %s)", s.Value, context, c.v.enumText())
	}
	c.reported[i] = true
	fd := finding.Finding{Rule: rule, Severity: finding.Error, Location: c.loc(s.Pos, s.End), Message: msg,
		Literal: s.Value, Canonical: to}
	if to != "" {
		fd.Fix = c.fix(s, to)
	}
	c.out = append(c.out, fd)
}

func (c *checker) loc(p, end facts.Pos) finding.Location {
	l := finding.Location{Path: c.f.Path, Line: p.Line, Col: p.Col}
	if end.Line > 0 {
		l.EndLine, l.EndCol = end.Line, end.Col
	}
	return l
}

// fix replaces the literal's text, keeping its quotes, when the extractor
// knows exactly where the literal is.
func (c *checker) fix(s facts.String, to string) *finding.Fix {
	width := s.End.Offset - s.Pos.Offset
	if s.End.Line == 0 || width <= 0 {
		return nil
	}
	start, end := s.Pos.Offset, s.End.Offset
	switch width {
	case len(s.Value):
	case len(s.Value) + 2:
		start, end = start+1, end-1
	default:
		return nil // escapes or concatenation: not a plain spelling to swap
	}
	return &finding.Fix{Message: fmt.Sprintf("Replace %q with %q", s.Value, to),
		Edits: []finding.Edit{{Path: c.f.Path, Offset: start, End: end, New: to}}}
}
