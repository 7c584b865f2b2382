// Package messages finds the protocol messages among a file's facts (the
// mappings of YAML and JSON documents, of Markdown blocks and front
// matter, and the literal dicts of Python code) and validates each with
// msgcheck, placing every finding at the line and column of the field it
// is about.
//
// The kind of a mapping comes from its handoff_type field, else from the
// spec's signatures (the fields that identify a kind), else, for a data
// document whose file is named after a kind (DELEGATE-001.yaml,
// handbacks.json), from the name when the mapping has two of the kind's
// fields. A mapping inside a message (a HANDBACK's metrics) is part of it,
// not a message of its own.
//
// Code is judged by what it says, never by what it computes: a value the
// source computes is unknown and no finding is made on it, and since code
// may add fields after the literal, a field a code literal lacks is not
// reported missing.
package messages

import (
	"bytes"
	"path"
	"strconv"
	"strings"

	"github.com/protoscan/protoscan/finding"
	"github.com/protoscan/protoscan/languages/facts"
	"github.com/protoscan/protoscan/msgcheck"
)

// Checker validates the messages of files against one spec.
type Checker struct {
	v     *msgcheck.Validator
	spec  *msgcheck.Spec
	kinds []string
	// fields are the fields of each kind, for the file-name rule
	fields map[string]map[string]bool
	// signatures are each kind's signature fields, lower-cased, for the
	// prefilter
	signatures [][][]byte
}

// New returns a Checker validating with v, whose default spec is spec.
func New(v *msgcheck.Validator, spec *msgcheck.Spec) *Checker {
	c := &Checker{v: v, spec: spec, kinds: spec.Kinds(), fields: map[string]map[string]bool{}}
	for _, k := range c.kinds {
		set := map[string]bool{}
		for _, f := range spec.Fields(k) {
			set[f] = true
		}
		c.fields[k] = set
		var sig [][]byte
		for _, f := range spec.Signature(k) {
			sig = append(sig, []byte(strings.ToLower(f)))
		}
		c.signatures = append(c.signatures, sig)
	}
	return c
}

// Outcome is the verdict on one message, for the report's summary.
type Outcome struct {
	Kind             string
	Valid            bool
	Warned           bool
	ErrorRules       []string // the rule of each error
	UnknownFields    []string
	DeprecatedFields []string
	finding.Location
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
	for i := range f.Mappings {
		m := &f.Mappings[i]
		if nested[i] {
			continue
		}
		kind := c.kindOf(f, m)
		if kind == "" {
			continue
		}
		msg, unknown := toMap(m)
		res := c.v.Validate(kind, msg)
		o := Outcome{Kind: kind, Valid: true, Location: finding.Location{Path: f.Path, Line: m.Pos.Line, Col: m.Pos.Col}}
		loc := locator{f: f, byPos: byPos, root: m}
		for _, group := range []struct {
			list    []msgcheck.Finding
			warning bool
		}{{res.Errors, false}, {res.Warnings, true}} {
			for _, e := range group.list {
				if skip(e, m, msg, unknown) {
					continue
				}
				sev := finding.Error
				if group.warning {
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
					o.ErrorRules = append(o.ErrorRules, e.Rule)
				}
				line, col := loc.find(e.Field, e.IsUnknownField() || e.IsDeprecated())
				out = append(out, finding.Finding{Rule: e.Rule, Severity: sev, Message: e.Message,
					Location: finding.Location{Path: f.Path, Line: line, Col: col}})
			}
		}
		outcomes = append(outcomes, o)
	}
	finding.Sort(out)
	return out, outcomes
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
	for _, st := range steps(e.Field) {
		switch x := v.(type) {
		case map[string]any:
			v = x[st.key]
		case []any:
			if st.index < 0 || st.index >= len(x) {
				return false
			}
			v = x[st.index]
		default:
			return false
		}
		if _, isUnknown := v.(facts.Unknown); isUnknown {
			return true
		}
	}
	return false
}

// kindOf tells the kind of a mapping, or "" when it is not a message.
func (c *Checker) kindOf(f *facts.File, m *facts.Mapping) string {
	for _, e := range m.Entries {
		if e.Key == "handoff_type" {
			if s, ok := e.Value.(string); ok {
				k := strings.ToLower(strings.TrimSpace(s))
				for _, kind := range c.kinds {
					if kind == k {
						return kind
					}
				}
			}
			return "" // a kind this spec does not define, or a computed one
		}
	}
	keys := make(map[string]any, len(m.Entries))
	for _, e := range m.Entries {
		keys[e.Key] = true
	}
	if k := c.spec.Detect(keys); k != "" {
		return k
	}
	if m.InCode {
		return ""
	}
	base := strings.ToLower(path.Base(f.Path))
	for _, kind := range c.kinds {
		if !strings.Contains(base, kind) {
			continue
		}
		n := 0
		for _, e := range m.Entries {
			if c.fields[kind][e.Key] {
				n++
			}
		}
		if n >= 2 {
			return kind
		}
	}
	return ""
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

// step is one step of a field path: a key, or an index (key "").
type step struct {
	key   string
	index int
}

// steps parses msgcheck's field paths: metrics.quality, plan[1].
func steps(field string) []step {
	var out []step
	for _, part := range strings.Split(field, ".") {
		key, rest, _ := strings.Cut(part, "[")
		if key != "" {
			out = append(out, step{key: key, index: -1})
		}
		for rest != "" {
			num, after, _ := strings.Cut(rest, "]")
			i, err := strconv.Atoi(num)
			if err != nil {
				break
			}
			out = append(out, step{index: i})
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return out
}

// locator finds where a field path of a message is in the file: the key
// or value position of the deepest entry the facts know.
type locator struct {
	f     *facts.File
	byPos map[facts.Pos]int
	root  *facts.Mapping
}

func (l locator) find(field string, atKey bool) (line, col int) {
	m := l.root
	at := m.Pos
	for i, st := range steps(field) {
		if st.key == "" || m == nil {
			break
		}
		var entry *facts.Entry
		for j := range m.Entries {
			if m.Entries[j].Key == st.key {
				entry = &m.Entries[j]
				break
			}
		}
		if entry == nil {
			break
		}
		at = entry.ValPos
		if atKey && i == len(steps(field))-1 || entry.ValPos.Line == 0 {
			at = entry.KeyPos
		}
		m = nil
		if k, ok := l.byPos[entry.ValPos]; ok {
			m = &l.f.Mappings[k]
		}
	}
	return at.Line, at.Col
}

// MayHaveMessages reports whether the file rel whose bytes, with ASCII
// letters lower-cased, are lower could hold a message: it is named after
// a kind, or names handoff_type, or every signature field of a kind.
func (c *Checker) MayHaveMessages(rel string, lower []byte) bool {
	if bytes.Contains(lower, handoffType) {
		return true
	}
	base := strings.ToLower(path.Base(rel))
	for _, k := range c.kinds {
		if strings.Contains(base, k) {
			return true
		}
	}
	for _, sig := range c.signatures {
		all := len(sig) > 0
		for _, f := range sig {
			if !bytes.Contains(lower, f) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

var handoffType = []byte("handoff_type")
