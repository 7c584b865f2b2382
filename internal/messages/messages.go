// Package messages finds the protocol messages among a file's facts (the
// mappings of YAML and JSON documents, of Markdown blocks and front
// matter, and the literal dicts of Python code) and validates each with
// msgcheck, placing every finding at the line and column of the field it
// is about.
//
// A mapping is a message by its shape, as msgcheck's Spec.ShapeOf tells
// it, never by two keys: its handoff_type names the kind, or the type or
// function that builds it is named for the kind (Handback{...},
// make_handback(...); a Python call's keyword arguments count for no other
// call), or it has the kind's id field and two more of its core fields;
// its foreign fields never outnumber the kind's own, and a map of column
// titles or field names is none. A data document whose file is named
// after a kind (DELEGATE-001.yaml, handbacks.json) may also hold the
// kind's messages with two of its fields. A mapping inside a message (a
// HANDBACK's metrics) is part of it, not a message of its own.
//
// Code is judged by what it says, never by what it computes: a value the
// source computes is unknown and no finding is made on it, and since code
// may add fields after the literal, a field a code literal lacks is not
// reported missing.
//
// Beside protocol-core's DELEGATE and HANDBACK, a Checker may check the
// messages of further protocols (see Protocol): NEXUS handoffs, judged by
// package handoff, and phase verdicts, checked against the verdict
// contract of package phase. Those are read in data documents only, and
// only where a signature or a wrapper key named after the kind says so.
package messages

import (
	"path"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/yamlnode"
	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// Checker validates the messages of files: those of protocol-core
// (DELEGATE, HANDBACK) against the spec New is given, and those of each
// further Protocol (NEXUS handoffs, phase verdicts). A mapping is the
// message of the first protocol that claims it, protocol-core first.
// A Checker is safe for concurrent use.
type Checker struct {
	protocols []protocol // protocol-core first
	kinds     []string   // every protocol's kinds, in order
	// names are the kinds a file may be named after (protocol-core's),
	// for the prefilter
	names []string
	// the words that may announce a message: handoff_type, a protocol's
	// wrapper key (NEXUS_HANDOFF), a kind's fields (see msgcheck.Signs)
	signs msgcheck.Signs
}

// New returns a Checker validating the protocol-core messages with v,
// whose default spec is spec, and the messages of each further protocol.
func New(v *msgcheck.Validator, spec *msgcheck.Spec, more ...Protocol) *Checker {
	core := &core{v: v, spec: spec, kinds: spec.Kinds(), fields: map[string]map[string]bool{}}
	for _, k := range core.kinds {
		set := map[string]bool{}
		for _, f := range spec.Fields(k) {
			set[f] = true
		}
		core.fields[k] = set
	}
	c := &Checker{protocols: []protocol{core}, names: core.kinds}
	c.signs.AddShapes(spec)
	for _, p := range more {
		if p != nil {
			c.protocols = append(c.protocols, p)
		}
	}
	for i, p := range c.protocols {
		c.kinds = append(c.kinds, p.kindNames()...)
		if i > 0 { // the further protocols find their messages by signature
			c.signs.AddSignatures(p.specOf())
		}
		c.signs.AddWords(p.prefilterWords()...)
	}
	return c
}

// Kinds returns the kinds of every protocol the Checker checks, in the
// order of the protocols: protocol-core's, then each further one's.
func (c *Checker) Kinds() []string { return slices.Clone(c.kinds) }

// Protocol is a protocol a Checker checks besides protocol-core: see
// Handoffs and Verdicts.
type Protocol interface {
	protocol
}

// protocol is how a Checker finds and judges the messages of one
// protocol.
type protocol interface {
	// specOf is the spec the protocol's messages are checked against.
	specOf() *msgcheck.Spec
	// kindNames are the kinds of its messages, as Outcomes name them.
	kindNames() []string
	// prefilterWords are words any one of which may announce a message
	// of the protocol (lower-cased before use).
	prefilterWords() []string
	// find returns the messages a top-level mapping m of f, whose keys
	// are keys, is or holds; byPos indexes f's mappings by position.
	find(f *facts.File, m *facts.Mapping, keys map[string]any, byPos map[facts.Pos]int) []message
	// judge validates one message of a kind of the protocol.
	judge(kind string, msg map[string]any) []judged
}

// message is a mapping a protocol claims, and its kind.
type message struct {
	m    *facts.Mapping
	kind string
}

// judged is a finding on a message, the field path it points at in the
// source, and whether it is a warning (else an error).
type judged struct {
	msgcheck.Finding
	at      []yamlnode.Step
	atKey   bool
	warning bool
}

// placed is a msgcheck finding pointing where msgcheck points: at the
// path it keeps (ValidateAt), else at its field.
func placed(f msgcheck.Finding, warning bool) judged {
	steps, atKey := f.Path()
	var path []yamlnode.Step
	for _, s := range steps {
		path = append(path, yamlnode.Step(s))
	}
	if path == nil && f.Field != "" {
		path, atKey = yamlnode.ParsePath(f.Field), f.IsUnknownField() || f.IsDeprecated()
	}
	return judged{Finding: f, at: path, atKey: atKey, warning: warning}
}

// Outcome is the verdict on one message, for the report's summary.
type Outcome struct {
	Kind             string
	Valid            bool
	Warned           bool
	Errors           []Error // each error, as its finding carries it
	UnknownFields    []string
	DeprecatedFields []string
	finding.Location
}

// Error is an error of a message: its rule and where its finding is.
type Error struct {
	Rule      string
	Line, Col int
}

// Check validates every message of f and returns the findings (sorted)
// and one Outcome per message, in source order.
func (c *Checker) Check(f *facts.File) ([]finding.Finding, []Outcome) {
	if len(f.Mappings) == 0 {
		return nil, nil
	}
	nested := nestedMappings(f)
	byPos := make(map[facts.Pos]int, len(f.Mappings))
	for i := range f.Mappings {
		byPos[f.Mappings[i].Pos] = i
	}
	var out []finding.Finding
	var outcomes []Outcome
	places := &index{f: f, byPos: byPos} // one per file: 57,000 messages on a line share it
	for i := range f.Mappings {
		if nested[i] {
			continue
		}
		keys := keysOf(&f.Mappings[i])
		for _, p := range c.protocols {
			found := p.find(f, &f.Mappings[i], keys, byPos)
			for _, msg := range found {
				var o Outcome
				out, o = c.judge(f, p, msg, places, out)
				outcomes = append(outcomes, o)
			}
			if len(found) > 0 {
				break
			}
		}
	}
	finding.Sort(out)
	return out, outcomes
}

// judge validates one message, appends its findings, placed at their
// fields, to out, and returns the verdict on it.
func (c *Checker) judge(f *facts.File, p protocol, msg message, places *index, out []finding.Finding) ([]finding.Finding, Outcome) {
	m := msg.m
	value, unknown := toMap(m)
	o := Outcome{Kind: msg.kind, Valid: true, Location: finding.Location{Path: f.Path, Line: m.Pos.Line, Col: m.Pos.Col}}
	loc := locator{index: places, root: m}
	for _, e := range p.judge(msg.kind, value) {
		if skip(e.Finding, m, value, unknown) {
			continue
		}
		sev := finding.Error
		if e.warning {
			sev = finding.Warning
			o.Warned = true
			switch {
			case e.IsUnknownField():
				o.UnknownFields = append(o.UnknownFields, e.Field)
			case e.IsDeprecated():
				o.DeprecatedFields = append(o.DeprecatedFields, e.Field)
			}
		} else {
			o.Valid = false
		}
		line, col := loc.find(e.at, e.atKey)
		if !e.warning {
			o.Errors = append(o.Errors, Error{Rule: e.Rule, Line: line, Col: col})
		}
		out = append(out, finding.Finding{Rule: e.Rule, Severity: sev, Message: e.Message,
			Location: finding.Location{Path: f.Path, Line: line, Col: col}})
		if to := e.RenameTo(); to != "" {
			renameFix(&out[len(out)-1], m, e.Field, to)
		}
	}
	return out, o
}

// core is protocol-core: DELEGATE and HANDBACK, in data documents and in
// code.
type core struct {
	v     *msgcheck.Validator
	spec  *msgcheck.Spec
	kinds []string
	// fields are the fields of each kind, for the file-name rule
	fields map[string]map[string]bool
}

func (c *core) specOf() *msgcheck.Spec   { return c.spec }
func (c *core) kindNames() []string      { return c.kinds }
func (c *core) prefilterWords() []string { return nil }

func (c *core) find(f *facts.File, m *facts.Mapping, _ map[string]any, _ map[facts.Pos]int) []message {
	if k := c.kindOf(f, m); k != "" {
		return []message{{m, k}}
	}
	return nil
}

func (c *core) judge(kind string, msg map[string]any) []judged {
	return fromResult(c.v.ValidateAt(kind, msg, nil))
}

// fromResult lists a msgcheck result's errors, then its warnings, each
// pointing at its field.
func fromResult(res msgcheck.Result) []judged {
	out := make([]judged, 0, len(res.Errors)+len(res.Warnings))
	for _, e := range res.Errors {
		out = append(out, placed(e, false))
	}
	for _, w := range res.Warnings {
		out = append(out, placed(w, true))
	}
	return out
}

// skip drops what the source does not say: findings on computed values,
// and in code, missing fields.
func skip(e msgcheck.Finding, m *facts.Mapping, msg map[string]any, unknown bool) bool {
	if m.InCode && strings.HasSuffix(e.Rule, "-required") {
		return true
	}
	if !unknown {
		return false
	}
	if e.Field == "" {
		return true // a rule over the whole message (CEL) may read a computed value
	}
	var v any = msg
	for _, st := range yamlnode.ParsePath(e.Field) {
		switch x := v.(type) {
		case map[string]any:
			v = x[st.Key]
		case []any:
			if st.Index < 0 || st.Index >= len(x) {
				return false
			}
			v = x[st.Index]
		default:
			return false
		}
		if _, isUnknown := v.(facts.Unknown); isUnknown {
			return true
		}
	}
	return false
}

// kindOf tells the protocol-core kind of a mapping, or "" when it is not
// such a message: msgcheck's ShapeOf decides (marker, a type or call named
// for the kind, or enough core fields); a record of a data document
// named after a kind (DELEGATE-001.yaml, tasks-handback.json) is that
// kind's message whatever else it holds, as the audit reads a queue, if
// it has one field of the kind at all (a delegate_settings.json of
// timeouts is none). A JSON Schema document is never a message, nor is
// a literal a test expects to be refused (facts.Mapping.Rejected).
func (c *core) kindOf(f *facts.File, m *facts.Mapping) string {
	if m.Rejected {
		return "" // a test's input that must be refused
	}
	r := recordOf(m)
	if k := c.spec.ShapeOf(r); k != "" || m.InCode || hasMarker(m) {
		return k
	}
	if !m.Root || msgcheck.IsSchemaDocument(r) {
		return ""
	}
	if kind := c.spec.KindOfName(f.Path); kind != "" {
		for _, e := range m.Entries {
			if c.fields[kind][e.Key] {
				return kind
			}
		}
	}
	return ""
}

// recordOf is what msgcheck's shape predicate reads of a mapping. Keys
// are taken as written: a message's fields are spelled as the spec
// spells them.
func recordOf(m *facts.Mapping) msgcheck.Record {
	return msgcheck.Record{Keys: m.Keys(), Values: m.Values(), Name: m.TypeName, Call: m.Call}
}

// hasMarker reports a mapping that names its kind: whatever it names, the
// marker has said what the mapping is.
func hasMarker(m *facts.Mapping) bool {
	for _, e := range m.Entries {
		if e.Key == msgcheck.MarkerField {
			return true
		}
	}
	return false
}

// keysOf is the set of a mapping's keys, as Spec.Detect takes it.
func keysOf(m *facts.Mapping) map[string]any {
	keys := make(map[string]any, len(m.Entries))
	for _, e := range m.Entries {
		keys[e.Key] = true
	}
	return keys
}

// nestedMappings marks the mappings that are the value of an entry of
// another mapping: their position is that entry's value position.
func nestedMappings(f *facts.File) []bool {
	values := map[facts.Pos]bool{}
	for i := range f.Mappings {
		for _, e := range f.Mappings[i].Entries {
			if _, isMap := e.Value.(map[string]any); isMap {
				values[e.ValPos] = true
			}
		}
	}
	nested := make([]bool, len(f.Mappings))
	for i := range f.Mappings {
		nested[i] = values[f.Mappings[i].Pos]
	}
	return nested
}

// toMap turns a mapping into the value msgcheck validates, and tells
// whether any value in it is computed.
func toMap(m *facts.Mapping) (map[string]any, bool) {
	out := make(map[string]any, len(m.Entries))
	unknown := false
	for _, e := range m.Entries {
		out[e.Key] = e.Value
		if !unknown && hasUnknown(e.Value, 0) {
			unknown = true
		}
	}
	return out, unknown
}

func hasUnknown(v any, depth int) bool {
	if depth > 64 {
		return true // deeper than anything an extractor builds: be careful
	}
	switch x := v.(type) {
	case facts.Unknown:
		return true
	case map[string]any:
		for _, y := range x {
			if hasUnknown(y, depth+1) {
				return true
			}
		}
	case []any:
		for _, y := range x {
			if hasUnknown(y, depth+1) {
				return true
			}
		}
	}
	return false
}

// index finds a file's mappings and lists by position.
type index struct {
	f     *facts.File
	byPos map[facts.Pos]int // mappings by position
	lists map[facts.Pos]int // lists by position, made on first use
}

// list returns the index of the list at p in File.Lists.
func (x *index) list(p facts.Pos) (int, bool) {
	if x.lists == nil {
		x.lists = make(map[facts.Pos]int, len(x.f.Lists))
		for i := range x.f.Lists {
			x.lists[x.f.Lists[i].Pos] = i
		}
	}
	i, ok := x.lists[p]
	return i, ok
}

// locator finds where a path into a message is in the file, as
// yamlnode.Locate finds it in a node tree: the key or value of the
// deepest entry, or the item of the deepest list, the facts know.
type locator struct {
	*index
	root *facts.Mapping
}

func (l locator) find(path []yamlnode.Step, atKey bool) (line, col int) {
	m, at := l.root, l.root.Pos
	for i, st := range path {
		if st.Index < 0 {
			if m == nil {
				break
			}
			var entry *facts.Entry
			for j := range m.Entries {
				if m.Entries[j].Key == st.Key {
					entry = &m.Entries[j]
					break
				}
			}
			if entry == nil {
				break
			}
			if atKey && i == len(path)-1 || entry.ValPos.Line == 0 {
				return entry.KeyPos.Line, entry.KeyPos.Col
			}
			at = entry.ValPos
		} else {
			li, ok := l.list(at)
			if !ok || st.Index >= len(l.f.Lists[li].Items) {
				break
			}
			at = l.f.Lists[li].Items[st.Index]
		}
		m = nil
		if k, ok := l.byPos[at]; ok {
			m = &l.f.Mappings[k]
		}
	}
	return at.Line, at.Col
}

// MayHaveMessages reports whether the file rel whose bytes, with ASCII
// letters lower-cased, are lower could hold a message: it is named after
// a protocol-core kind, or names handoff_type, a protocol-core kind or
// another word that announces a message (nexus_handoff), or the fields
// that make a message of a kind (a protocol-core kind's id field and
// two more of its core fields; every signature field of a further
// protocol's kind): msgcheck.Signs.In.
func (c *Checker) MayHaveMessages(rel string, lower []byte) bool {
	base := strings.ToLower(path.Base(rel))
	for _, k := range c.names {
		if strings.Contains(base, k) {
			return true
		}
	}
	return c.signs.In(lower)
}

// LooksLikeMessage reports whether raw, the text of a part of a file
// that does not parse (a YAML document, a JSON Lines line, a Markdown
// block), looks like a message of a protocol the Checker checks: it
// holds, as whole words, handoff_type or a protocol's wrapper key, a
// kind's name in capitals (HANDBACK, NEXUS_HANDOFF_V2), or the fields
// that make a message of a kind (msgcheck.Signs.Holds). The scan reports
// such a part as an error: a message that cannot be read cannot pass.
func (c *Checker) LooksLikeMessage(raw []byte) bool {
	return c.signs.Holds(raw)
}

// LooksLikeMessageAtTop is LooksLikeMessage with a kind's fields counted
// only as the document's own keys (msgcheck.Signs.HoldsAtTop): for the
// blocks of a document, whose nested records of every kind write a
// task_id and a status.
func (c *Checker) LooksLikeMessageAtTop(raw []byte) bool {
	return c.signs.HoldsAtTop(raw)
}
