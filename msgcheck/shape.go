package msgcheck

import (
	"slices"
	"strings"
)

// MarkerField is the field by which a message names its kind
// (handoff_type: HANDBACK).
const MarkerField = "handoff_type"

// Record is what a scanner knows of a mapping found in a file that may be
// a message: its keys, what their values are, and how the source builds
// it. See Spec.ShapeOf.
type Record struct {
	// Keys are the mapping's keys, as written.
	Keys []string
	// Values are the value of each key, in the order of Keys: a string
	// for a string literal, anything else for anything else. May be nil
	// when the values are not known.
	Values []any
	// Name is the type the mapping is a literal of (Handback{...}), or
	// the function called with it as keyword arguments (Call set:
	// make_handback(task_id=...)); "" for a plain literal.
	Name string
	Call bool
	// Fold matches keys to fields in any spelling (task_id, taskId,
	// TaskID, task-id), for code whose names follow its language's style.
	Fold bool
}

// ShapeOf returns the kind of message r is, or "" when it is none. Two
// keys never make a message: a record is a kind's message when
//
//   - its MarkerField names the kind, whatever else it holds (a marker
//     naming no kind of the spec, or computed, makes it no message), or
//     its TypeField does and it has the kind's id field;
//   - or it is built with a type or function named for the kind
//     (Handback{...}, HandbackMessage(...), make_handback(...),
//     build_delegate(...)); keyword arguments of a call named for no
//     kind (Event(...), TaskStatusUpdateEvent(...)) are no message;
//   - or it has the kind's id field (its first signature field) and at
//     least two more of its core fields: a HANDBACK's task_id, status and
//     output or metrics; a DELEGATE's task_id and two of skill, agent,
//     scope, plan, success_criteria, context.
//
// Without a marker, the fields foreign to the kind (neither core nor
// extension) must not outnumber the kind's own, and a mapping whose values
// are all field names of the kind, title-case labels or type names
// ({"task_id": "Task", "status": "Status"}: a table's column titles;
// {"status": "string"}: the fields' types) is none. When two kinds fit by
// their fields, the one with more of its fields present wins; a tie is no
// message.
func (s *Spec) ShapeOf(r Record) string {
	for i, key := range r.Keys {
		if !r.sameKey(key, MarkerField) {
			continue
		}
		// the marker says the kind: the message is validated whatever
		// else it holds (custom fields are the validator's warnings)
		v, _ := r.value(i).(string)
		if k := s.kind(s.KindNamed(v)); k != nil {
			return k.name
		}
		return ""
	}
	// "type: handback" with the kind's id field: the marker as queues
	// of other tools spell it (a bare "type" names too many things)
	for i, key := range r.Keys {
		if !r.sameKey(key, TypeField) {
			continue
		}
		v, _ := r.value(i).(string)
		if k, id := s.KindOfType(v); k != "" && slices.ContainsFunc(r.Keys, func(key string) bool { return r.sameKey(key, id) }) {
			return k
		}
	}
	if r.Name != "" && !(r.Call && r.Name == "dict") { // dict(a=1) is a plain literal
		for _, k := range s.kinds {
			if namedFor(r.Name, k.name) {
				if !k.fits(r) {
					return ""
				}
				return k.name
			}
		}
		if r.Call {
			return ""
		}
	}
	var best *kind
	bestOwn, tie := -1, false
	for _, k := range s.kinds {
		own, ok := k.shaped(r)
		if !ok || !k.fits(r) {
			continue
		}
		switch {
		case own > bestOwn:
			best, bestOwn, tie = k, own, false
		case own == bestOwn:
			tie = true
		}
	}
	if best == nil || tie {
		return ""
	}
	return best.name
}

// HasShape reports whether r is a message of the kind: ShapeOf(r) is kind.
func (s *Spec) HasShape(kind string, r Record) bool {
	return kind != "" && s.ShapeOf(r) == kind
}

// FitsKind reports whether r, which something else than its fields says
// is a message of the kind (a data file named after the kind), may be
// one: its fields foreign to the kind do not outnumber the kind's own,
// and it is not a table of column titles.
func (s *Spec) FitsKind(kind string, r Record) bool {
	k := s.kind(kind)
	return k != nil && k.fits(r)
}

// shaped tells whether r has the kind's id field and two more of its
// core fields (fewer when the kind has fewer), and how many of the kind's
// fields it has.
func (k *kind) shaped(r Record) (own int, ok bool) {
	id := k.idField()
	if id == "" {
		return 0, false
	}
	hasID, core, cores := false, 0, 0
	for _, f := range k.order {
		if f.core {
			cores++
		}
	}
	for _, key := range r.Keys {
		f := k.lookup(key, r.Fold)
		if f == nil {
			if k.formerOf(key, r.Fold) != nil {
				own++ // a field of the kind, under its former name; never one of the core fields that make the shape
			}
			continue
		}
		own++
		switch {
		case f.name == id:
			hasID = true
		case f.core:
			core++
		}
	}
	return own, hasID && core >= min(2, cores-1) && core > 0
}

// idField is the field that names a message of the kind: the first of its
// signature, else its first core field.
func (k *kind) idField() string {
	if len(k.signature) > 0 {
		return k.signature[0]
	}
	for _, f := range k.order {
		if f.core {
			return f.name
		}
	}
	return ""
}

// fits tells whether r's foreign fields do not outnumber the kind's own
// and r is not a table of column titles.
func (k *kind) fits(r Record) bool {
	own, foreign := 0, 0
	for _, key := range r.Keys {
		if k.lookup(key, r.Fold) != nil || k.formerOf(key, r.Fold) != nil {
			own++
		} else {
			foreign++
		}
	}
	return own > 0 && foreign <= own && !k.titles(r)
}

// titles reports a mapping of two or more entries whose values are all
// strings that are field names of the kind, title-case labels or type
// names: a header or column map ({"task_id": "Task", "status": "Status"},
// {"TaskID": "task_id"}) or the types of the fields ({"task_id":
// "string", "status": "string"}), never a message.
func (k *kind) titles(r Record) bool {
	if len(r.Keys) < 2 || len(r.Values) != len(r.Keys) {
		return false
	}
	for _, v := range r.Values {
		s, ok := v.(string)
		if !ok || k.lookup(s, true) == nil && !isLabel(s) && !valueTypes[s] {
			return false
		}
	}
	return true
}

// valueTypes are the names of value types in JSON Schema, Python and Go.
var valueTypes = map[string]bool{
	"string": true, "number": true, "integer": true, "object": true, "array": true, "boolean": true, "null": true,
	"str": true, "int": true, "float": true, "bool": true, "dict": true, "list": true, "None": true,
	"int64": true, "float64": true, "any": true, "map[string]any": true, "[]string": true,
}

// isLabel reports a title-case label: words separated by single spaces,
// each a capital and lower-case letters or digits ("Task", "Task ID",
// "Quality Score"), or an abbreviation of at most three capitals ("ID").
// A status in capitals ("SUCCESS") is no label.
func isLabel(s string) bool {
	if s == "" {
		return false
	}
	for _, w := range strings.Split(s, " ") {
		if w == "" || w[0] < 'A' || w[0] > 'Z' {
			return false
		}
		upper, lower := 0, 0
		for i := 0; i < len(w); i++ {
			switch c := w[i]; {
			case 'A' <= c && c <= 'Z':
				upper++
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
				lower++
			default:
				return false
			}
		}
		if !(upper == 1 || lower == 0 && upper <= 3) {
			return false
		}
	}
	return true
}

// lookup returns the kind's field named key (in any spelling when fold),
// or nil; the marker is the kind's own even where the spec omits it.
func (k *kind) lookup(key string, fold bool) *field {
	if f := k.field(key); f != nil || !fold {
		return f
	}
	for _, f := range k.order {
		if foldEqual(key, f.name) {
			return f
		}
	}
	return nil
}

func (r Record) value(i int) any {
	if i < len(r.Values) {
		return r.Values[i]
	}
	return nil
}

func (r Record) sameKey(key, name string) bool {
	return key == name || r.Fold && foldEqual(key, name)
}

// foldEqual compares field names ignoring ASCII case, '_' and '-':
// task_id, taskId, TaskID and task-id are one name.
func foldEqual(a, b string) bool {
	i, j := 0, 0
	for {
		for i < len(a) && (a[i] == '_' || a[i] == '-') {
			i++
		}
		for j < len(b) && (b[j] == '_' || b[j] == '-') {
			j++
		}
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		if lowerASCII(a[i]) != lowerASCII(b[j]) {
			return false
		}
		i++
		j++
	}
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// nameSuffixes are the words that may follow a kind's name in the name of
// a type or function that builds its messages (HandbackMessage).
var nameSuffixes = map[string]bool{"message": true, "msg": true, "payload": true, "record": true,
	"dict": true, "data": true, "model": true, "schema": true, "json": true, "obj": true, "object": true}

// namedFor reports whether a type or function name is named for the kind:
// the kind's words are its last words, but for a suffix such as Message
// (Handback, HandbackMessage, make_handback, build_delegate,
// NexusHandoffV2); HandbackStatus and TaskStatusUpdateEvent are not.
func namedFor(name, kindName string) bool {
	words := nameWords(name)
	for len(words) > 0 && nameSuffixes[words[len(words)-1]] {
		words = words[:len(words)-1]
	}
	kw := nameWords(kindName)
	if len(kw) == 0 || len(words) < len(kw) {
		return false
	}
	tail := words[len(words)-len(kw):]
	for i := range kw {
		if tail[i] != kw[i] {
			return false
		}
	}
	return true
}

// nameWords splits an identifier into lower-case words at '_', '-', '.'
// and case changes: HandbackMessage, make_handback, NexusHandoffV2 ->
// [nexus handoff v2]. A run of capitals is one word (HTTPHandback ->
// [http handback]).
func nameWords(s string) []string {
	var out []string
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			out = append(out, strings.ToLower(s[start:end]))
		}
		start = -1
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c == '-' || c == '.' || c == ' ':
			flush(i)
		case 'A' <= c && c <= 'Z':
			// a capital starts a word, unless it continues a run of
			// capitals not followed by a lower-case letter
			prevUpper := i > 0 && 'A' <= s[i-1] && s[i-1] <= 'Z'
			nextLower := i+1 < len(s) && 'a' <= s[i+1] && s[i+1] <= 'z'
			if start < 0 || !prevUpper || nextLower {
				flush(i)
				start = i
			}
		case '0' <= c && c <= '9':
			if start < 0 {
				start = i
			}
		default:
			if start < 0 {
				start = i
			}
		}
	}
	flush(len(s))
	return out
}

// ShapeFields returns the fields ShapeOf counts for a kind: its id field
// and its other core fields (for prefilters: a file without them holds
// no message of the kind recognised by its fields).
func (s *Spec) ShapeFields(kindName string) (id string, core []string) {
	k := s.kind(kindName)
	if k == nil {
		return "", nil
	}
	id = k.idField()
	for _, f := range k.order {
		if f.core && f.name != id {
			core = append(core, f.name)
		}
	}
	return id, core
}

// TypeField is the second spelling of the marker: a record whose "type"
// names a kind (any case) and that has the kind's id field is a message
// of the kind.
const TypeField = "type"

// KindOfType returns the kind a "type" value names (see TypeField) and
// the kind's id field, which the record must have; "" when v names no
// kind or the kind has no id field.
func (s *Spec) KindOfType(v string) (kind, idField string) {
	k := s.kind(s.KindNamed(v))
	if k == nil || k.idField() == "" {
		return "", ""
	}
	return k.name, k.idField()
}
