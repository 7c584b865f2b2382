package enumdrift

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/msgcheck"
	"github.com/protoscan-dev/protoscan/msgcheck/evidence"
)

// Rule ids of this analyzer: the HANDBACK status has its own (the drift
// the analyzer was made for); every other enum of the specs shares the
// value rules.
const (
	RuleCase    = "enumdrift/status-case"
	RuleLegacy  = "enumdrift/legacy-status"
	RuleUnknown = "enumdrift/unknown-status"
	RuleMissing = "enumdrift/missing-status"

	RuleValueCase    = "enumdrift/value-case"
	RuleValueLegacy  = "enumdrift/legacy-value"
	RuleValueUnknown = "enumdrift/unknown-value"
	RuleValueMissing = "enumdrift/missing-value"
)

// Check reports the enum drift in one file's facts. A literal is judged
// only where its context binds it to a field with an enum in the specs:
//
//   - the value of that field in a mapping that is a message of the
//     field's kind by msgcheck's shape predicate (Spec.ShapeOf: its
//     marker, a type or builder named for the kind, or its identifying
//     fields; never two keys, a call of another name or a table of column
//     titles);
//   - a member of a const block, enum, set, list or Literal that defines
//     the enum (three of its values; in a file that handles the kind, also
//     three spellings of them and nothing else: "Senior Engineer", "Lead
//     Engineer"...), or that a membership test, lookup, item read or enum
//     member ties to the field (status in TERMINAL, slices.Contains(done,
//     h.Status), d["agent"] == AGENTS[1], d["agent"] == Agent.LEAD), or
//     the `enum` of a schema for the field;
//   - a key of a routing table over the enum, or of a table the field is
//     looked up in; the field's values in a list of mappings (routes:
//   - status: X, action: Y);
//   - a comparison, assignment or case on the field (or a variable bound
//     from it), when the same function compares the field with canonical
//     values too, or the file, the receiver or the function names the
//     kind (handle_delegate(agent)).
//
// A definition (const block, enum, Literal) that lacks canonical values is
// a warning; a set, list or schema enum in code that gates the field's
// acceptance and lacks them is an error: it rejects valid messages (see
// rejectsValid).
//
// Values of other things (health checks, HTTP, Kubernetes conditions, job
// states) share none of that context and are left alone. A field with
// enums in several specs (status of HANDBACK and of NEXUS_HANDOFF_V2) is
// judged by the enum its context fits best.
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
	r := Analyze(f, v)
	return r.Findings, r.Statuses
}

// Result is what Analyze finds in one file.
type Result struct {
	Findings []finding.Finding
	Statuses []StatusUse
	// Tables are the file's alias tables (see LearnAliases); they were
	// applied to the file's own findings.
	Tables []AliasTable
	// Imported are the file's tests of a field against a collection it
	// imports (facts.Test.From): the file that defines the collection is
	// analyzed again with them (AnalyzeWith), as its own would be.
	Imported []facts.Test
	// Unknown holds, lower-cased, sorted and unique, the spellings the
	// file binds to an enum's field that no alias explains: an alias table
	// elsewhere in the repository may explain them (see Vocabulary.Explains).
	Unknown []string
}

// AnalyzeWith is Analyze with tests other files make of f's collections
// (Result.Imported, with facts.Test.In set to their file).
func AnalyzeWith(f *facts.File, v *Vocabulary, tests []facts.Test) Result {
	if len(tests) == 0 {
		return Analyze(f, v)
	}
	g := *f
	g.Tests = append(slices.Clip(f.Tests), tests...)
	return Analyze(&g, v)
}

// Analyze is Survey, with the file's alias tables and its unexplained
// spellings.
func Analyze(f *facts.File, v *Vocabulary) Result {
	c := checker{f: f, v: v, reported: map[int]bool{}, used: map[int]bool{}, unknown: map[string]bool{}}
	c.index()
	tables := append(c.aliasTables(), c.aliasSetTables()...)
	if len(tables) > 0 {
		c.v = v.WithAliases(tables)
	}
	c.formerNames()
	c.mappings()
	c.groups()
	c.inlineGates()
	c.routingTables()
	c.tableLists()
	c.comparisons()
	finding.Sort(c.out)
	slices.SortFunc(c.uses, func(a, b StatusUse) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
	var imported []facts.Test
	for _, t := range f.Tests {
		if t.From != "" && t.In == "" && len(v.fieldEnums(t.Key)) > 0 {
			imported = append(imported, t)
		}
	}
	return Result{Findings: c.out, Statuses: c.uses, Tables: tables, Imported: imported, Unknown: slices.Sorted(maps.Keys(c.unknown))}
}

type checker struct {
	f        *facts.File
	v        *Vocabulary
	reported map[int]bool
	out      []finding.Finding
	used     map[int]bool // literals recorded in uses
	uses     []StatusUse
	unknown  map[string]bool
	// specProtocol is, for each mapping of a spec document, the protocol
	// the spec names (see specdoc.go); nil when the file holds no spec.
	specProtocol []string
	// groupProtocol is the same for the groups (string lists) of a spec.
	groupProtocol []string
	// parentKey is the key a nested mapping is the value of, by mapping.
	parentKey []string
	// tests ties groups and mappings, by index, to the field a test looks
	// their name up with.
	groupTests, mappingTests map[int][]facts.Test
	consts                   map[string]int // see constants
	evidence                 map[*Enum]bool
	alias                    []bool // mappings that are alias tables
	// values holds, by mapping, the strings that are values of its keys.
	values [][]int
	// enumAt is the mapping holding an `enum` key, by where its list is.
	enumAt map[facts.Pos]int
}

// foreign tells whether mapping m belongs to a spec of another protocol
// than e's: its values are that protocol's, not drift of e.
func (c *checker) foreign(m int, e *Enum) bool {
	return m >= 0 && c.specProtocol != nil && c.specProtocol[m] != "" && !strings.EqualFold(c.specProtocol[m], e.protocol)
}

// inSpec tells whether the literal at i is part of a spec document.
func (c *checker) inSpec(i int) bool {
	s := &c.f.Strings[i]
	return (s.Mapping >= 0 && c.specProtocol != nil && c.specProtocol[s.Mapping] != "") ||
		(s.Group >= 0 && c.groupProtocol != nil && c.groupProtocol[s.Group] != "")
}

func (c *checker) foreignString(i int, e *Enum) bool {
	s := &c.f.Strings[i]
	if c.foreign(s.Mapping, e) {
		return true
	}
	return s.Group >= 0 && c.groupProtocol != nil && c.groupProtocol[s.Group] != "" && !strings.EqualFold(c.groupProtocol[s.Group], e.protocol)
}

func namesKind(s string, e *Enum) bool {
	if s == "" {
		return false
	}
	low := strings.ToLower(s)
	for _, w := range evidence.KindNames(e.Kind) {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// index builds what the contexts share: spec documents, nested mappings'
// keys, the tests of named collections, and which alias tables there are.
func (c *checker) index() {
	c.specDocs()
	c.parentKey = make([]string, len(c.f.Mappings))
	at := make(map[facts.Pos]int, len(c.f.Mappings))
	for i := range c.f.Mappings {
		at[c.f.Mappings[i].Pos] = i
	}
	c.enumAt = map[facts.Pos]int{}
	for i := range c.f.Mappings {
		for _, e := range c.f.Mappings[i].Entries {
			if e.Key == "enum" {
				c.enumAt[e.ValPos] = i
			}
			if _, nested := e.Value.(map[string]any); nested {
				if j, ok := at[e.ValPos]; ok && j != i {
					c.parentKey[j] = e.Key
				}
			}
		}
	}
	if len(c.f.Tests) > 0 {
		c.groupTests, c.mappingTests = map[int][]facts.Test{}, map[int][]facts.Test{}
		groups, mappings := map[string][]int{}, map[string][]int{}
		for g, gr := range c.f.Groups {
			if gr.Kind != facts.GroupCases && gr.Name != "" {
				groups[gr.Name] = append(groups[gr.Name], g)
			}
		}
		for m := range c.f.Mappings {
			if mp := &c.f.Mappings[m]; mp.InCode && mp.Name != "" {
				mappings[mp.Name] = append(mappings[mp.Name], m)
			}
		}
		scopeOf := func(i int, group bool) string {
			if group {
				return c.f.Groups[i].Scope
			}
			return c.f.Mappings[i].Scope
		}
		// the binding of the test's function, else of its class (Router
		// for Router.route), else the one at file level
		bound := func(t facts.Test, cands []int, group bool) int {
			best, bestLen := -1, -1
			for _, i := range cands {
				sc := scopeOf(i, group)
				if sc == t.Scope {
					return i
				}
				if (sc == "" || strings.HasPrefix(t.Scope, sc+".")) && len(sc) > bestLen {
					best, bestLen = i, len(sc)
				}
			}
			return best
		}
		for _, t := range c.f.Tests {
			if len(c.v.fieldEnums(t.Key)) == 0 || t.Equal {
				continue
			}
			if g := bound(t, groups[t.Collection], true); g >= 0 {
				c.groupTests[g] = append(c.groupTests[g], t)
			}
			if m := bound(t, mappings[t.Collection], false); m >= 0 {
				c.mappingTests[m] = append(c.mappingTests[m], t)
			}
		}
	}
	c.evidence = map[*Enum]bool{}
	c.values = make([][]int, len(c.f.Mappings))
	for i, s := range c.f.Strings {
		if s.Role == facts.RoleValue && s.Mapping >= 0 && s.Mapping < len(c.values) {
			c.values[s.Mapping] = append(c.values[s.Mapping], i)
		}
	}
}

// hasEvidence tells whether the file handles messages of e's kind: the
// file shows protocol evidence of it (package msgcheck/evidence).
func (c *checker) hasEvidence(e *Enum) bool {
	if ev, ok := c.evidence[e]; ok {
		return ev
	}
	ev := c.findEvidence(e)
	c.evidence[e] = ev
	return ev
}

func (c *checker) findEvidence(e *Enum) bool {
	return evidence.Shows(c.f, e.spec, e.Kind)
}

// kindness says how sure we are that a mapping is a message of e's kind.
type kindness uint8

const (
	notKind   kindness = iota
	maybeKind          // a bare {status: ...} in a file that handles the kind
	isKind
)

// kindness tells whether a mapping is a message of e's kind: it has e's
// field and msgcheck's shape predicate says it is one (its marker, a type
// or builder named for the kind, or its identifying fields, with no more
// foreign fields than the kind's, and no column titles), the keys of code
// matched in any spelling (TaskID). In a file that handles the kind, a mapping
// with nothing beside the field but fields of the kind (a status history
// entry) may be one: its spellings close to the enum are judged, an
// unrelated value is not.
func (c *checker) kindness(m *facts.Mapping, e *Enum, useEvidence bool) kindness {
	hasField, others := false, 0
	for _, en := range m.Entries {
		k := normKey(en.Key)
		switch {
		case e.isField(en.Key):
			hasField = true
		case !e.others[k]:
			others++
		}
	}
	if !hasField {
		return notKind
	}
	// code names fields in its language's style (TaskID); a data
	// document's message spells them as the spec does, as msgcheck reads
	// it: {"taskId": ...} in a JSON example is another protocol's record
	r := msgcheck.Record{Keys: m.Keys(), Values: m.Values(), Name: m.TypeName, Call: m.Call, Fold: m.InCode && !m.AsWritten}
	switch {
	case e.spec.HasShape(e.Kind, r):
		return isKind
	case useEvidence && len(m.Entries) <= 2 && others == 0 && c.hasEvidence(e):
		return maybeKind
	}
	return notKind
}

func (c *checker) mappings() {
	for i := range c.f.Mappings {
		m := &c.f.Mappings[i]
		if m.Rejected {
			continue // a test's input that must be refused
		}
		for _, en := range m.Entries {
			if _, isString := en.Value.(string); !isString || len(c.v.messageEnums(en.Key)) == 0 {
				continue
			}
			e, k := c.mappingKind(i)
			if e != nil && k != notKind {
				c.mappingValues(i, e, k)
			}
			break
		}
	}
}

// mappingKind picks the enum kind a mapping is a message of, and how sure
// that is; nil when none.
func (c *checker) mappingKind(i int) (*Enum, kindness) {
	m := &c.f.Mappings[i]
	var maybe *Enum
	for _, en := range m.Entries {
		for _, e := range c.v.messageEnums(en.Key) {
			if c.foreign(i, e) {
				continue
			}
			switch c.kindness(m, e, true) {
			case isKind:
				return e, isKind
			case maybeKind:
				if maybe == nil {
					maybe = e
				}
			}
		}
	}
	if maybe != nil {
		return maybe, maybeKind
	}
	return nil, notKind
}

// mappingValues judges the values of a message mapping's enum fields:
// those of e's kind (a DELEGATE's agent and effort).
func (c *checker) mappingValues(m int, e *Enum, k kindness) {
	for _, i := range c.values[m] {
		s := &c.f.Strings[i]
		for _, fe := range c.v.messageEnums(s.Key) {
			if fe.Kind == e.Kind && fe.spec == e.spec {
				c.judge(i, fe, k == isKind, "in a "+strings.ToUpper(e.Kind))
			}
		}
	}
}

// fit scores how well literals fit an enum: exact canonical values, then
// values that stand for one (case, alias), then values covered.
type fit struct {
	exact, related int
	covered        map[string]bool
}

func (c *checker) fitOf(members []int, e *Enum) fit {
	f := fit{covered: map[string]bool{}}
	var exact map[string]bool // distinct: "success" compared twice is one value
	for _, i := range members {
		cl, to := e.classify(c.f.Strings[i].Value)
		if cl == canonical && !exact[to] {
			if exact == nil {
				exact = map[string]bool{}
			}
			exact[to] = true
			f.exact++
		}
		if cl == canonical || cl == caseDrift || cl == legacy {
			f.related++
			if to != "" { // an old spelling of no known value covers none
				f.covered[to] = true
			}
		}
	}
	return f
}

func better(a, b fit) bool {
	return a.exact > b.exact || (a.exact == b.exact && a.related > b.related)
}

// definesEnum reports whether literals that are not tied to a field form
// a definition of e: they cover three of its values, and its spellings
// are at least half of them unless the name says the field's name. For
// an enum other than the HANDBACK status two of them must be exact: its
// words (continue, merge, abort) are common words. And the vocabulary
// must be e's (see ownsVocabulary).
func (c *checker) definesEnum(f fit, members int, name string, e *Enum) bool {
	if len(f.covered) < 3 {
		return false
	}
	named := strings.Contains(normKey(name), normKey(e.Field))
	if e.common && f.exact < 2 && !c.respelled(f, members, e) {
		return false
	}
	return (2*f.related >= members || named) && c.ownsVocabulary(e, f, members, nil)
}

// respelled tells whether literals that are each a spelling of one of
// e's values, none as the spec writes it, are e's values respelled (an
// enum class Agent of "Senior Engineer", "Lead Engineer"...): only in a
// file that handles e's kind; elsewhere the same words are job titles.
func (c *checker) respelled(f fit, members int, e *Enum) bool {
	return f.related == members && c.hasEvidence(e)
}

// tiedTo tells whether literals tied to e's field (by tests, a schema)
// are a vocabulary of e: an exact value of it and a half of them
// related, or two related values; and the vocabulary is e's (see
// ownsVocabulary).
func (c *checker) tiedTo(e *Enum, f fit, members int, tests []facts.Test) bool {
	return ((f.exact >= 1 && 2*f.related >= members) || f.related >= 2) && c.ownsVocabulary(e, f, members, tests)
}

// ownsVocabulary tells whether a vocabulary (an enum, a set or table,
// a schema's enum) is e's rather than one of its own that shares words
// with e: each of its words is a value of e or a spelling of one, or the
// file handles e's kind, or a test's receiver names the kind
// (delegate["effort"] in LEVELS). The field's name alone is everyone's:
// a benchmark's ResultStatus {success, failure, partial, error, timeout,
// cancelled}, a task board's {pending, in_progress, completed, failed,
// blocked} looked up with task.status and a code run's schema enum
// {success, failure, none} are vocabularies of their own.
func (c *checker) ownsVocabulary(e *Enum, f fit, members int, tests []facts.Test) bool {
	if f.related >= members || c.hasEvidence(e) {
		return true
	}
	for _, t := range tests {
		if namesKind(t.Receiver, e) {
			return true
		}
	}
	return false
}

// surely tells whether an unknown value among literals tied to e's field
// is certainly drift: most of them are e's, and either the file handles
// e's kind or two are exact values (a job's {"done", "failure"} is not
// enough: the field's name alone, status, is everyone's).
func (c *checker) surely(e *Enum, f fit, members int) bool {
	return 2*f.related >= members && (f.exact >= 2 || c.hasEvidence(e))
}

// pick returns the enum among candidates that members fit best, or nil
// when none fits at all.
func (c *checker) pick(members []int, candidates []*Enum, skip func(*Enum) bool) (*Enum, fit) {
	var best *Enum
	var bf fit
	for _, e := range candidates {
		if skip != nil && skip(e) {
			continue
		}
		f := c.fitOf(members, e)
		if f.related == 0 {
			continue
		}
		if best == nil || better(f, bf) {
			best, bf = e, f
		}
	}
	return best, bf
}

func (c *checker) groupForeign(g int) func(*Enum) bool {
	return func(e *Enum) bool {
		return c.groupProtocol != nil && c.groupProtocol[g] != "" && !strings.EqualFold(c.groupProtocol[g], e.protocol)
	}
}

func (c *checker) groups() {
	for gi, g := range c.f.Groups {
		if g.Kind == facts.GroupCases {
			continue // switch cases are judged with the comparisons
		}
		if aliasSet(g.Name) || aliasNote(g.Note) && !c.notesMember(g) || c.unionedAlias(g) {
			continue // the spellings accepted beside the canonical ones
		}
		skip := c.groupForeign(gi)
		var tied []*Enum
		var how string
		for _, t := range c.groupTests[gi] {
			tied = append(tied, c.v.fieldEnums(t.Key)...)
			how = testedAgainst(t)
		}
		if len(tied) == 0 && g.Name == "enum" {
			// a schema's enum: the list under the field's key
			if m, key := c.schemaField(g.Pos); m >= 0 || key != "" {
				tied = c.v.fieldEnums(key)
				how = "in the schema of " + key
			}
		}
		if len(tied) > 0 {
			if e, f := c.pick(g.Members, tied, skip); e != nil && c.tiedTo(e, f, len(g.Members), c.groupTests[gi]) {
				certain := c.surely(e, f, len(g.Members))
				what := fmt.Sprintf("in %s %s, %s", g.Kind, displayName(g.Name), how)
				if len(c.groupTests[gi]) == 0 {
					what = how // the schema says all
				}
				for _, i := range g.Members {
					c.judge(i, e, certain, what)
				}
				if gates(c.groupTests[gi]) {
					c.rejectsValid(g.Pos, g.Name, g.Members, e, f, tied, c.groupTests[gi], fmt.Sprintf("%s %s", g.Kind, displayName(g.Name)), how)
				}
			}
			continue
		}
		e, f := c.pick(g.Members, c.v.enums, skip)
		if e == nil || !c.definesEnum(f, len(g.Members), g.Name, e) {
			continue
		}
		what := fmt.Sprintf("in %s %s", g.Kind, displayName(g.Name))
		// a word of no spelling of e is drift only in a definition named
		// for the field: RoutingDecision {high, medium, low, critical} is
		// a scale of its own that shares three words with effort
		certain := f.related == len(g.Members) || strings.Contains(normKey(g.Name), normKey(e.Field))
		for _, i := range g.Members {
			c.judge(i, e, certain, what)
		}
		if g.Kind == facts.GroupSet {
			continue // a set may rightly hold a subset (terminal statuses)
		}
		if miss := e.missing(f.covered); len(miss) > 0 {
			c.out = append(c.out, finding.Finding{
				Rule: e.rules.missing, Severity: finding.Warning,
				Location: c.loc(g.Pos, facts.Pos{}),
				Message: fmt.Sprintf("%s %s defines %s but lacks %s (%s)",
					g.Kind, displayName(g.Name), e.words.plural, strings.Join(miss, ", "), e.valuesText()),
			})
		}
	}
}

// notesMember tells whether a group's comment names one of its members
// ("# escalated: legacy"): it speaks of that word, not of the group.
func (c *checker) notesMember(g facts.Group) bool {
	low := strings.ToLower(g.Note)
	for _, i := range g.Members {
		if v := strings.ToLower(strings.TrimSpace(c.f.Strings[i].Value)); v != "" && strings.Contains(low, v) {
			return true
		}
	}
	return false
}

// schemaField returns, for the list of a schema's `enum` at pos, the
// mapping holding the `enum` key and the key that mapping is the value of
// (properties: {status: {enum: [...]}} gives status); -1 and "" when the
// list is not a schema's enum.
func (c *checker) schemaField(pos facts.Pos) (int, string) {
	if m, ok := c.enumAt[pos]; ok {
		return m, c.parentKey[m]
	}
	return -1, ""
}

func displayName(n string) string {
	if n == "" {
		return "(unnamed)"
	}
	return n
}

// testedAgainst says what a test ties a collection to: "tested against
// h.status", and the file for a test another file makes.
func testedAgainst(t facts.Test) string {
	if t.In != "" {
		return "tested against " + subjectOf(t.Receiver, t.Key) + " in " + t.In
	}
	return "tested against " + subjectOf(t.Receiver, t.Key)
}

func subjectOf(recv, key string) string {
	if recv != "" {
		return recv + "." + key
	}
	return key
}

// routingTables judges mappings keyed by an enum's values, and tables a
// field's value is looked up in. An alias table (legacy spelling ->
// canonical) is right to hold legacy keys, and is never judged.
func (c *checker) routingTables() {
	keys := map[int][]int{}
	values := map[int][]int{} // the string values of a schema-like mapping's enum key
	for i, s := range c.f.Strings {
		switch {
		case s.Role == facts.RoleKey && s.Mapping >= 0:
			keys[s.Mapping] = append(keys[s.Mapping], i)
		case s.Role == facts.RoleValue && s.Mapping >= 0 && s.Key == "enum":
			values[s.Mapping] = append(values[s.Mapping], i)
		}
	}
	for _, m := range slices.Sorted(maps.Keys(keys)) {
		members := keys[m]
		if c.alias[m] {
			continue
		}
		skip := func(e *Enum) bool { return c.foreign(m, e) }
		if tests := c.mappingTests[m]; len(tests) > 0 {
			var tied []*Enum
			for _, t := range tests {
				tied = append(tied, c.v.fieldEnums(t.Key)...)
			}
			if e, f := c.pick(members, tied, skip); e != nil && c.tiedTo(e, f, len(members), tests) {
				t := tests[0]
				for _, i := range members {
					c.judge(i, e, c.surely(e, f, len(members)), "as a key of "+displayName(c.f.Mappings[m].Name)+", looked up with "+subjectOf(t.Receiver, t.Key))
				}
				if gates(tests) {
					mp := &c.f.Mappings[m]
					c.rejectsValid(mp.Pos, mp.Name, members, e, f, tied, tests, "table "+displayName(mp.Name), testedAgainst(t))
				}
			}
			continue
		}
		e, f := c.pick(members, c.v.enums, skip)
		if e == nil || !c.definesEnum(f, len(members), "", e) {
			continue
		}
		for _, i := range members {
			c.judge(i, e, true, "as a key of a table over "+e.words.plural)
		}
	}
	// a schema fragment in code: {"status": {"type": "string", "enum": [...]}}
	for _, m := range slices.Sorted(maps.Keys(values)) {
		key := c.parentKey[m]
		tied := c.v.fieldEnums(key)
		if len(tied) == 0 {
			continue
		}
		members := values[m]
		if e, f := c.pick(members, tied, func(e *Enum) bool { return c.foreign(m, e) }); e != nil && c.tiedTo(e, f, len(members), nil) {
			for _, i := range members {
				c.judge(i, e, c.surely(e, f, len(members)), "in the schema of "+key)
			}
			if c.schemaGates(m) {
				c.rejectsValid(c.schemaEnumPos(m), "", members, e, f, tied, nil, "the enum of the schema of "+key, "a JSON schema in code")
			}
		}
	}
}

// tableLists judges a routing table written as a list of mappings: the
// items of one list of a data document (routes: - status: X, action: Y),
// or consecutive literals of code with the same keys, that each give an
// enum's field a value.
func (c *checker) tableLists() {
	if len(c.f.Lists) > 0 {
		at := make(map[facts.Pos]int, len(c.f.Mappings))
		for i := range c.f.Mappings {
			if !c.f.Mappings[i].InCode {
				at[c.f.Mappings[i].Pos] = i
			}
		}
		for _, l := range c.f.Lists {
			var items []int
			for _, p := range l.Items {
				if m, ok := at[p]; ok {
					items = append(items, m)
				}
			}
			if len(items) >= 2 {
				c.tableList(items)
			}
		}
	}
	ms := c.f.Mappings
	for start := 0; start < len(ms); {
		end := start + 1
		for end < len(ms) && ms[start].InCode && sameItem(&ms[start], &ms[end]) {
			end++
		}
		if end-start >= 2 {
			items := make([]int, 0, end-start)
			for m := start; m < end; m++ {
				items = append(items, m)
			}
			c.tableList(items)
		}
		start = end
	}
}

// sameItem tells whether b, the literal of code after a, is the next item
// of the list a is in: the same keys, in the same function, unnamed.
func sameItem(a, b *facts.Mapping) bool {
	if !b.InCode || a.Name != "" || b.Name != "" || a.Scope != b.Scope || len(a.Entries) != len(b.Entries) || a.TypeName != b.TypeName {
		return false
	}
	for i := range a.Entries {
		if a.Entries[i].Key != b.Entries[i].Key {
			return false
		}
	}
	return true
}

func (c *checker) tableList(items []int) {
	byKey := map[string][]int{}
	for _, m := range items {
		if c.f.Mappings[m].Rejected {
			continue
		}
		for _, i := range c.values[m] {
			if s := &c.f.Strings[i]; len(c.v.fieldEnums(s.Key)) > 0 {
				byKey[s.Key] = append(byKey[s.Key], i)
			}
		}
	}
	if len(byKey) == 0 {
		return
	}
	for _, key := range slices.Sorted(maps.Keys(byKey)) {
		members := byKey[key]
		if len(members) < 2 {
			continue
		}
		e, _ := c.pick(members, c.v.fieldEnums(key), func(e *Enum) bool { return c.foreign(items[0], e) })
		if e == nil || c.kindOfItems(items) {
			continue
		}
		// routes over the enum name two of its values as they are spelled;
		// a list of records that are all "complete" is a progress log
		exact := map[string]bool{}
		for _, i := range members {
			if v := c.f.Strings[i].Value; e.canonical[v] {
				exact[v] = true
			}
		}
		f := c.fitOf(members, e)
		if len(exact) < 2 {
			continue
		}
		for _, i := range members {
			c.judge(i, e, c.surely(e, f, len(members)), "in a table of "+key+" values")
		}
	}
}

// kindOfItems tells whether the items are messages (mappings() judged
// them already).
func (c *checker) kindOfItems(items []int) bool {
	for _, m := range items {
		if e, k := c.mappingKind(m); e != nil && k == isKind {
			return true
		}
	}
	return false
}

type subject struct{ scope, receiver, field string }

// comparisons judges literals compared with, assigned to or switched on a
// field with an enum. A function that compares the field with two
// canonical values (or one, in a file that handles the kind) is about
// that enum; only then are its other spellings drift. A value of no
// spelling of the enum counts where the subject is surely the field:
// compared with two distinct canonical values, or in a file that handles
// the kind ("done" beside "success" and "failure" in one switch).
func (c *checker) comparisons() {
	groups := map[subject][]int{}
	written := map[subject][2]string{} // the receiver and key as the file first writes them
	var order []subject
	for i, s := range c.f.Strings {
		switch s.Role {
		case facts.RoleCompare, facts.RoleAssign, facts.RoleCase:
		default:
			continue
		}
		if len(c.v.fieldEnums(s.Key)) == 0 {
			continue
		}
		k := subject{s.Scope, s.Receiver, normKey(s.Key)}
		if _, seen := groups[k]; !seen {
			order = append(order, k)
			written[k] = [2]string{s.Receiver, s.Key}
		}
		groups[k] = append(groups[k], i)
	}
	// a constant compared with the field holds one of its values: its
	// literal is compared where the constant is
	for _, t := range c.f.Tests {
		i, ok := c.constants()[t.Collection]
		if !t.Equal || !ok || len(c.v.fieldEnums(t.Key)) == 0 {
			continue
		}
		k := subject{t.Scope, t.Receiver, normKey(t.Key)}
		if _, seen := groups[k]; !seen {
			order = append(order, k)
			written[k] = [2]string{t.Receiver, t.Key}
		}
		if !slices.Contains(groups[k], i) {
			groups[k] = append(groups[k], i)
		}
	}
	for _, k := range order {
		members := groups[k]
		cands := c.v.fieldEnums(written[k][1])
		skip := func(e *Enum) bool { return c.foreignString(members[0], e) }
		// the kind the file handles comes first: its spellings are drift
		var e *Enum
		var f fit
		for _, cand := range cands {
			if skip(cand) || !(c.hasEvidence(cand) || namesKind(k.receiver, cand) || namesKind(k.scope, cand)) {
				continue
			}
			if cf := c.fitOf(members, cand); cf.related > 0 && (e == nil || better(cf, f)) {
				e, f = cand, cf
			}
		}
		if e == nil {
			e, f = c.pick(members, cands, skip)
		}
		if e == nil {
			continue
		}
		// a function named for the kind (handle_delegate(agent)) handles it
		evidence := c.hasEvidence(e) || namesKind(k.receiver, e) || namesKind(k.scope, e)
		if !(f.exact >= 2 || (evidence && f.related >= 1)) {
			continue
		}
		for _, i := range members {
			c.judge(i, e, evidence || f.exact >= 2, "compared with "+subjectOf(written[k][0], written[k][1]))
		}
	}
}

// constants maps the names of the file's string constants to their
// literal: a name bound once at file level (AGENT_SENIOR = "x", a Go
// const); a name bound twice holds no one value.
func (c *checker) constants() map[string]int {
	if c.consts != nil {
		return c.consts
	}
	c.consts = map[string]int{}
	twice := map[string]bool{}
	for i, s := range c.f.Strings {
		if s.Scope != "" || s.Key == "" || s.Mapping >= 0 {
			continue
		}
		switch {
		case s.Role == facts.RoleAssign && s.Group < 0:
		case s.Role == facts.RoleMember && s.Group >= 0 && c.f.Groups[s.Group].Kind == facts.GroupConst:
		default:
			continue
		}
		if _, seen := c.consts[s.Key]; seen {
			twice[s.Key] = true
		}
		c.consts[s.Key] = i
	}
	for k := range twice {
		delete(c.consts, k)
	}
	return c.consts
}

// judge reports the literal at index i unless it is canonical for e.
// Unknown values are reported only when the context is certain; they are
// remembered as spellings an alias table elsewhere may explain.
func (c *checker) judge(i int, e *Enum, certain bool, context string) {
	if c.reported[i] || c.foreignString(i, e) {
		return
	}
	s := c.f.Strings[i]
	cl, to := e.classify(s.Value)
	if e.matrix && (cl != unknown || certain) && !c.used[i] {
		c.used[i] = true
		c.uses = append(c.uses, StatusUse{Value: s.Value, Canonical: to, Location: c.loc(s.Pos, facts.Pos{})})
	}
	if cl == unknown {
		c.unknown[e.Kind+"."+e.Field+"\x00"+strings.ToLower(strings.TrimSpace(s.Value))] = true
	}
	var rule, msg string
	var related []finding.Location
	switch cl {
	case canonical:
		return
	case caseDrift:
		rule = e.rules.cases
		if strings.EqualFold(s.Value, to) {
			msg = fmt.Sprintf("%s %q differs from the canonical %q only in case (%s)", e.noun(), s.Value, to, context)
		} else {
			msg = fmt.Sprintf("%s %q differs from the canonical %q only in case and separators (%s)", e.noun(), s.Value, to, context)
		}
	case legacy:
		rule = e.rules.legacy
		if t, ok := e.legacyTable(s.Value); ok && to == "" {
			msg = fmt.Sprintf("legacy %s %q: the set of old spellings at %s:%d accepts it, and the protocol has no such value (%s; %s)", e.noun(), s.Value, t.Path, t.Line, context, e.valuesText())
			related = append(related, finding.Location{Path: t.Path, Line: t.Line, Col: t.Col,
				Message: fmt.Sprintf("the set of old spellings that holds %q", strings.ToLower(strings.TrimSpace(s.Value)))})
		} else if ok {
			msg = fmt.Sprintf("legacy %s %q: the protocol spells it %q, as the alias table at %s:%d says (%s)", e.noun(), s.Value, to, t.Path, t.Line, context)
			related = append(related, finding.Location{Path: t.Path, Line: t.Line, Col: t.Col,
				Message: fmt.Sprintf("the alias table that maps %q to %q", strings.ToLower(strings.TrimSpace(s.Value)), to)})
		} else {
			msg = fmt.Sprintf("legacy %s %q: the protocol spells it %q (%s)", e.noun(), s.Value, to, context)
		}
	case unknown:
		// no nearest value is guessed: "completed" is not "complete"
		// unless an alias, a table or a synonym says so
		if !certain || c.inSpec(i) {
			return // a spec of the protocol may extend its enums
		}
		rule = e.rules.unknown
		msg = fmt.Sprintf("%q is not a %s (%s; %s)", s.Value, e.label(), context, e.valuesText())
	}
	c.reported[i] = true
	fd := finding.Finding{Rule: rule, Severity: finding.Error, Location: c.loc(s.Pos, s.End), Message: msg,
		Literal: s.Value, Canonical: to, Related: related}
	if to != "" {
		fd.Fix = c.fix(s, to)
	}
	c.out = append(c.out, fd)
}

// noun is what a legacy or case-drifted spelling is called: "status" for
// the HANDBACK status (its messages predate the other enums), else the
// kind and field.
func (e *Enum) noun() string { return e.words.noun }

// valuesText lists the enum for a message: "the statuses are success,
// failure..." for the HANDBACK status, "the values are ..." for others.
func (e *Enum) valuesText() string { return "the " + e.words.list + " are " + e.enumText() }

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
