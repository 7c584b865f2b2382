package msgcheck

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/protoscan-dev/protoscan/internal/yamlnode"
)

// maxValueDepth stops validation of absurdly nested values; decoders
// already bound depth, this keeps Validate safe on values built in code.
const maxValueDepth = 256

// state is the walk of one message. probe > 0 means "only tell whether it
// matches" (inside oneOf/anyOf/not), so no finding is built.
type state struct {
	v     *Validator
	kind  *kind
	field *field
	warn  bool // findings of the current field are warnings (an extension)
	probe int
	path  []yamlnode.Step
	// locate keeps a copy of the path in each finding (ValidateNode needs
	// it for line and column; Validate does not)
	locate bool
	cur    *schema // the schema being checked (see validate)
	res    Result
	buf    [8]yamlnode.Step // backing for path, so most walks never allocate
	// text holds the messages (and built field paths) of the walk's
	// findings; finish turns it into one string that every message is a
	// slice of, so an invalid message costs one allocation for all its
	// texts rather than one per finding
	text    []byte
	pending []pendingText
	// checks counts the schemas checked against values of this message,
	// against maxChecks
	checks int
	// former is the former name of the current field its value is
	// checked under (see renamed.go), or ""
	former string
	// compared counts the items uniqueItems compared: a pair compared,
	// or an item looked up among the keys of the items before it (tests
	// bound it)
	compared int
}

// maxChecks bounds the schema checks of one message: a few hundred for a
// real one, and a message of two million values would be many megabytes.
// Schemas that apply several schemas to one value, and do so again at
// every level of a nested message ($ref, allOf... under a property that
// refers back), multiply at every level; past the bound the walk stops
// with a finding (see checkBudget). A check costs tens of nanoseconds, so
// the bound is about a tenth of a second.
const maxChecks = 1 << 21

// checkBudget reports a walk stopped at maxChecks.
func (st *state) checkBudget() {
	if st.checks > maxChecks {
		st.res.add(Finding{Rule: "msgcheck/schema-budget", Message: fmt.Sprintf(
			"the spec's schemas take more than %d checks on this message; the rest of it is not checked", maxChecks)}, true)
	}
}

// pendingText is where a finding's texts are in state.text.
type pendingText struct {
	warning             bool
	index               int // in res.Errors or res.Warnings
	start, pathEnd, end int // the message is text[start:end]; the field text[start:pathEnd], if pathEnd > 0
}

// statePool recycles walk states: validating a valid message then costs no
// allocation beyond what the caller keeps.
var statePool = sync.Pool{New: func() any { return new(state) }}

func (st *state) push(key string) { st.path = append(st.path, yamlnode.Step{Key: key, Index: -1}) }
func (st *state) pushIndex(i int) { st.path = append(st.path, yamlnode.Step{Index: i}) }
func (st *state) pop()            { st.path = st.path[:len(st.path)-1] }

// fieldPath renders the current path as the seed writes it:
// metrics.quality, plan[1].
func fieldPath(path []yamlnode.Step) string {
	if len(path) == 1 && path[0].Index < 0 {
		return path[0].Key
	}
	return string(appendFieldPath(make([]byte, 0, 32), path))
}

func appendFieldPath(b []byte, path []yamlnode.Step) []byte {
	for i, s := range path {
		if s.Index >= 0 {
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(s.Index), 10)
			b = append(b, ']')
			continue
		}
		if i > 0 {
			b = append(b, '.')
		}
		b = append(b, s.Key...)
	}
	return b
}

// ruleID names the rule a finding breaks: the kind, the field's keys (not
// its indices) and the constraint, e.g. msgcheck/handback-metrics-quality-range.
func ruleID(kindName string, path []yamlnode.Step, constraint string) string {
	var b strings.Builder
	b.Grow(64)
	b.WriteString("msgcheck/")
	b.WriteString(kindName)
	for _, s := range path {
		if s.Index < 0 {
			b.WriteByte('-')
			writeRuleWord(&b, s.Key)
		}
	}
	b.WriteByte('-')
	b.WriteString(constraint)
	return b.String()
}

// writeRuleWord writes ruleWord(s) without building it first.
func writeRuleWord(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '_':
			b.WriteByte('-')
		case 'A' <= c && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
		default:
			b.WriteByte(c)
		}
	}
}

// report records a finding for the current path; field-level findings are
// errors for core fields and warnings for extensions.
func (st *state) report(constraint string, text ...string) {
	st.emit(st.warn, constraint, false, text...)
}

func (st *state) emit(warning bool, constraint string, atKey bool, text ...string) {
	var p, rule string
	if info := st.kind.nested[st.cur]; info != nil && len(st.path) == info.depth {
		p, rule = info.path, info.ruleIDs[constraint]
		if st.former != "" {
			p = "" // under the former name: the path says so
		}
	}
	if rule == "" {
		rule = st.rule(constraint)
	}
	st.addText(warning, Finding{Field: p, Rule: rule, path: st.keptPath(st.path), atKey: atKey}, text...)
}

// addText adds f with the message "path: " followed by text, where path
// is f.Field, or the current path written into state.text when f.Field
// is empty.
func (st *state) addText(warning bool, f Finding, text ...string) {
	start, pathEnd := len(st.text), 0
	if f.Field == "" {
		st.text = appendFieldPath(st.text, st.path)
		pathEnd = len(st.text)
	} else {
		st.text = append(st.text, f.Field...)
	}
	st.text = append(st.text, ": "...)
	for _, t := range text {
		st.text = append(st.text, t...)
	}
	st.pend(warning, f, start, pathEnd)
}

// pend adds f, whose message is state.text[start:] (its field, when
// pathEnd > 0, text[start:pathEnd]): finish turns them into strings.
func (st *state) pend(warning bool, f Finding, start, pathEnd int) {
	index := st.res.add(f, warning)
	st.pending = append(st.pending, pendingText{warning, index, start, pathEnd, len(st.text)})
}

// finish gives the findings their texts (see state.text): one new
// string, or with reuse, a view of the Result's own text buffer (see
// ValidateTapeInto), which an audit's invalid messages would otherwise
// allocate a few megabytes of, in fresh pages.
func (st *state) finish(reuse bool) {
	if len(st.pending) == 0 {
		return
	}
	var all string
	if reuse {
		st.res.text = append(st.res.text[:0], st.text...)
		all = unsafe.String(unsafe.SliceData(st.res.text), len(st.res.text))
	} else {
		all = string(st.text)
	}
	for _, p := range st.pending {
		list := st.res.Errors
		if p.warning {
			list = st.res.Warnings
		}
		f := &list[p.index]
		f.Message = all[p.start:p.end]
		if p.pathEnd > 0 {
			f.Field = all[p.start:p.pathEnd]
		}
	}
}

func (st *state) keptPath(p []yamlnode.Step) []yamlnode.Step {
	if !st.locate {
		return nil
	}
	return slices.Clone(p)
}

// rule is the rule id for the current path: the field's precomputed id
// when the path is the field itself or items of it, else built.
func (st *state) rule(constraint string) string {
	if st.field != nil && len(st.path) > 0 && (st.path[0].Key == st.field.name || st.former != "" && st.path[0].Key == st.former) {
		direct := true
		for _, s := range st.path[1:] {
			if s.Index < 0 {
				direct = false
				break
			}
		}
		if id, ok := st.field.ruleIDs[constraint]; ok && direct {
			return id
		}
	}
	return st.ruleAt(st.path, constraint)
}

// ruleAt is ruleID for path, a path of the current message: a field
// checked under its former name has the rule ids of the field.
func (st *state) ruleAt(path []yamlnode.Step, constraint string) string {
	if st.former != "" && len(path) > 0 && path[0].Key == st.former {
		p := slices.Clone(path)
		p[0].Key = st.field.name
		return ruleID(st.kind.name, p, constraint)
	}
	return ruleID(st.kind.name, path, constraint)
}

// lastKey is the name a value goes by in messages: "agent" for agent,
// "dependencies" for dependencies[2].
func (st *state) lastKey() string {
	for i := len(st.path) - 1; i >= 0; i-- {
		if st.path[i].Index < 0 {
			if i == 0 && st.former != "" {
				return st.field.name // the value is checked as the field's
			}
			return st.path[i].Key
		}
	}
	return "value"
}

// validate checks v against s and reports what fails. It returns whether
// v matched, which is all the probe mode needs.
func (st *state) validate(s *schema, v any) bool {
	if st.checks++; st.checks > maxChecks {
		return true // reported once, by checkBudget
	}
	outer := st.cur
	st.cur = s
	ok := st.check(s, v)
	st.cur = outer
	return ok
}

// check is validate's body; validate keeps st.cur, the schema being
// checked, for emit's precomputed paths.
func (st *state) check(s *schema, v any) bool {
	if len(st.path) > maxValueDepth {
		return true
	}
	ok := true
	if s.never {
		if st.probe == 0 {
			st.report("not-allowed", "no value is allowed here")
		}
		return false
	}
	if s.isDeprecated && st.probe == 0 {
		st.deprecated(s)
	}
	if s.ref != nil && !st.validate(s.ref, v) {
		ok = false
		if st.probe > 0 {
			return false
		}
	}
	if s.types != 0 && !typeMatches(s.types, v) {
		if st.probe == 0 {
			st.report("type", "must be ", typeList(s.types), " (got ", jsonType(v), ")")
		}
		return false // further keywords would only repeat the type error
	}
	switch x := v.(type) {
	case string:
		ok = st.str(s, x) && ok
	case map[string]any:
		ok = st.object(s, x) && ok
	case []any:
		ok = st.array(s, x) && ok
	default:
		if f, isNum := asFloat(v); isNum {
			ok = st.number(s, f) && ok
		}
	}
	if !ok && st.probe > 0 {
		return false
	}
	if s.enum != nil && !inEnum(s, v) {
		if st.probe > 0 {
			return false
		}
		ok = false
		st.enumFailure(s, v)
	}
	if s.hasConst && !equalValues(s.constVal, v) {
		if st.probe > 0 {
			return false
		}
		ok = false
		st.reportCustom("const", s, v, "must be ", quote(s.constVal))
	}
	if s.allOf != nil {
		for _, sub := range s.allOf {
			if !st.validate(sub, v) {
				ok = false
				if st.probe > 0 {
					return false
				}
			}
		}
	}
	if s.oneOf != nil {
		ok = st.alternatives(s, s.oneOf, true, v) && ok
	}
	if s.anyOf != nil && (ok || st.probe == 0) {
		ok = st.alternatives(s, s.anyOf, false, v) && ok
	}
	if s.not != nil {
		st.probe++
		matched := st.validate(s.not, v)
		st.probe--
		if matched {
			ok = false
			if st.probe == 0 {
				st.report("not", "must not match the excluded form")
			}
		}
	}
	return ok
}

func (st *state) deprecated(s *schema) {
	what := "Field"
	if len(st.path) == 1 && st.field != nil && !st.field.core {
		what = "Extension field"
	}
	hint := s.deprecated
	if hint == "" {
		hint = "deprecated"
	}
	p := fieldPath(st.path)
	st.res.add(Finding{
		Field:   p,
		Rule:    st.ruleAt(st.path, "deprecated"),
		Message: fmt.Sprintf("%s '%s' is no longer recommended (%s)", what, p, hint),
		path:    st.keptPath(st.path),
		atKey:   true,
	}, true)
}

// reportCustom reports with the schema's errorMessage when it has one,
// keeping the seed's "text (got 'value')" shape, else with generic.
func (st *state) reportCustom(constraint string, s *schema, v any, generic ...string) {
	if x, ok := v.(string); ok {
		st.reportCustomStr(constraint, s, x, generic...)
		return
	}
	if s.errorMessage != "" {
		q1, q2, q3 := quoteParts(v)
		st.report(constraint, s.errorMessage, " (got ", q1, q2, q3, ")")
		return
	}
	st.report(constraint, generic...)
}

// reportCustomStr is reportCustom for a string value, which it quotes
// without building a string: a finding on an audit's hot path costs no
// allocation beyond its text (see finish).
func (st *state) reportCustomStr(constraint string, s *schema, x string, generic ...string) {
	if s.errorMessage != "" {
		head, cut := shortParts(x)
		st.report(constraint, s.errorMessage, " (got '", head, cut, "')")
		return
	}
	st.report(constraint, generic...)
}

func (st *state) str(s *schema, x string) bool {
	// words first: "Test it" is too few words before it is too short
	ok := true
	if s.minWords > 0 {
		if n := countWords(x, s.minWords); n < s.minWords {
			ok = false
			if st.probe == 0 {
				st.reportCustomStr("words", s, x, "must be >=", strconv.Itoa(s.minWords), " words (", strconv.Itoa(n), " provided)")
			}
		}
	}
	// the runes are counted only when the byte length leaves the bounds
	// in doubt: a rune is one to four bytes; a minimum is met without
	// counting when the first minLength bytes are ASCII (a plan step)
	if ok && (s.minLength >= 0 && len(x)/4 < s.minLength && !asciiPrefix(x, s.minLength) ||
		s.maxLength >= 0 && len(x) > s.maxLength) {
		n := utf8.RuneCountInString(x)
		if s.minLength >= 0 && n < s.minLength {
			ok = false
			if st.probe == 0 {
				head, cut := shortParts(x)
				st.reportCustomStr("length", s, x, "must be at least ", characters(s.minLength), " (got '", head, cut, "')")
			}
		} else if s.maxLength >= 0 && n > s.maxLength {
			ok = false
			if st.probe == 0 {
				st.reportCustomStr("length", s, x, "must be at most ", characters(s.maxLength), " (got ", strconv.Itoa(n), ")")
			}
		}
	}
	if ok && s.pattern != nil && !s.pattern.MatchString(x) {
		ok = false
		if st.probe == 0 {
			head, cut := shortParts(x)
			st.reportCustomStr("format", s, x, "must match ", s.pattern.String(), " (got '", head, cut, "')")
		}
	}
	if ok && s.existsIn != nil && st.probe == 0 {
		st.exists(s, x)
	}
	return ok
}

// exists checks a value that names an entry of the repository (a skill).
func (st *state) exists(s *schema, x string) {
	// a name, never a path: whatever uses it must stay in the directory
	if strings.ContainsAny(x, `/\`) || strings.Contains(x, "..") {
		st.report("exists", "invalid ", st.lastKey(), " ", quote(x), " (a name in ", dirList(s.existsIn, " or "), ", without /, \\ or ..)")
		return
	}
	set := st.v.entries[s]
	if set == nil || len(set.present) == 0 {
		if !st.v.uncheckedOnce {
			st.emit(true, "unchecked", false, uncheckedText(s.existsIn, st.v.rootName()))
		}
		return
	}
	if _, found := set.names[x]; !found {
		st.report("exists", "unknown ", st.lastKey(), " ", quote(x), " (not found in ", set.presentText, ")")
	}
}

func dirList(dirs []string, sep string) string {
	out := make([]string, len(dirs))
	for i, d := range dirs {
		out[i] = d + "/"
	}
	return strings.Join(out, sep)
}

func (st *state) number(s *schema, f float64) bool {
	lowOK := (!s.minimum.set || f >= s.minimum.v) && (!s.exMinimum.set || f > s.exMinimum.v)
	highOK := (!s.maximum.set || f <= s.maximum.v) && (!s.exMaximum.set || f < s.exMaximum.v)
	if lowOK && highOK {
		return true
	}
	if st.probe == 0 {
		st.reportCustom("range", s, f, s.rangeMsg, " (got ", formatPlain(f), ")")
	}
	return false
}

// rangeText describes a schema's bounds: "0.0-1.0", ">= 0", "> 0 and < 5".
func rangeText(s *schema) string {
	if s.minimum.set && s.maximum.set && !s.exMinimum.set && !s.exMaximum.set {
		return s.minimum.text + "-" + s.maximum.text
	}
	var parts []string
	if s.minimum.set {
		parts = append(parts, ">= "+s.minimum.text)
	}
	if s.exMinimum.set {
		parts = append(parts, "> "+s.exMinimum.text)
	}
	if s.maximum.set {
		parts = append(parts, "<= "+s.maximum.text)
	}
	if s.exMaximum.set {
		parts = append(parts, "< "+s.exMaximum.text)
	}
	return strings.Join(parts, " and ")
}

func (st *state) array(s *schema, x []any) bool {
	ok := st.itemCount(s, len(x))
	if !ok && st.probe > 0 {
		return false
	}
	if s.uniqueItems && !st.unique(x) {
		ok = false
		if st.probe > 0 {
			return false
		}
	}
	if s.items != nil {
		for i, e := range x {
			st.pushIndex(i)
			good := st.validate(s.items, e)
			st.pop()
			if !good {
				ok = false
				if st.probe > 0 {
					return false
				}
			}
		}
	}
	return ok
}

// itemCount checks minItems and maxItems against an array of n items.
func (st *state) itemCount(s *schema, n int) bool {
	ok := true
	if s.minItems >= 0 && n < s.minItems {
		ok = false
		if st.probe == 0 {
			st.report("items", "must have >=", strconv.Itoa(s.minItems), " items (", strconv.Itoa(n), " provided)")
		}
	}
	if s.maxItems >= 0 && n > s.maxItems {
		ok = false
		if st.probe == 0 {
			st.report("items", fmt.Sprintf("must have <=%d items (%d provided)", s.maxItems, n))
		}
	}
	return ok
}

// unique checks uniqueItems: each repeated item is reported once, at its
// index, naming the first index it repeats.
func (st *state) unique(x []any) bool {
	if len(x) <= 16 {
		return st.uniquePairs(x) // no allocation, and as fast
	}
	// each item's canonical key, so that finding repeats is linear, not
	// quadratic, in a long list; an item of a type decoders do not
	// produce (only code builds those) makes the list fall back to
	// comparing pairs
	keys := make([]string, len(x))
	var key []byte
	for i, item := range x {
		var k keyKind
		switch key, k = appendValueKey(key[:0], item); k {
		case keyNone:
			return st.uniquePairs(x)
		case keyed:
			keys[i] = string(key)
		}
	}
	first := make(map[string]int, len(x))
	ok := true
	for i, item := range x {
		if keys[i] == "" {
			continue // holds a NaN: equal to no item
		}
		st.compared++
		j, seen := first[keys[i]]
		if !seen {
			first[keys[i]] = i
			continue
		}
		ok = false
		if st.probe > 0 {
			return false
		}
		st.pushIndex(i)
		st.report("unique", fmt.Sprintf("repeats item %d (%s)", j, quote(item)))
		st.pop()
	}
	return ok
}

// uniquePairs is unique by comparing every pair of items.
func (st *state) uniquePairs(x []any) bool {
	ok := true
	for i := 1; i < len(x); i++ {
		for j := 0; j < i; j++ {
			st.compared++
			if equalValues(x[i], x[j]) {
				ok = false
				if st.probe > 0 {
					return false
				}
				st.pushIndex(i)
				st.report("unique", fmt.Sprintf("repeats item %d (%s)", j, quote(x[i])))
				st.pop()
				break
			}
		}
	}
	return ok
}

// keyKind is what appendValueKey made of a value.
type keyKind int

const (
	keyed    keyKind = iota // a key: equal values, and only they, share it
	keyNever                // none needed: the value holds a NaN and equals nothing
	keyNone                 // none: a type decoders do not produce
)

// appendValueKey appends a key of v to b (see keyKind); a key is never
// empty.
func appendValueKey(b []byte, v any) ([]byte, keyKind) {
	if f, isNum := asFloat(v); isNum {
		if f != f {
			return b, keyNever
		}
		if f == 0 {
			f = 0 // -0 equals 0
		}
		return strconv.AppendFloat(append(b, 'n'), f, 'g', -1, 64), keyed
	}
	switch x := v.(type) {
	case nil:
		return append(b, 'z'), keyed
	case bool:
		if x {
			return append(b, 't'), keyed
		}
		return append(b, 'f'), keyed
	case string:
		b = strconv.AppendInt(append(b, 's'), int64(len(x)), 10)
		return append(append(b, ':'), x...), keyed
	case []any:
		b = strconv.AppendInt(append(b, '['), int64(len(x)), 10)
		for _, e := range x {
			var k keyKind
			if b, k = appendValueKey(append(b, ','), e); k != keyed {
				return b, k
			}
		}
		return b, keyed
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = strconv.AppendInt(append(b, '{'), int64(len(x)), 10)
		for _, k := range keys {
			b = strconv.AppendInt(append(b, ','), int64(len(k)), 10)
			b = append(append(b, ':'), k...)
			var kind keyKind
			if b, kind = appendValueKey(b, x[k]); kind != keyed {
				return b, kind
			}
		}
		return b, keyed
	}
	return b, keyNone
}

func (st *state) object(s *schema, x map[string]any) bool {
	ok := true
	for _, p := range s.fields {
		val, present := x[p.name]
		if !present {
			if !p.required {
				continue
			}
			ok = false
			if st.probe > 0 {
				return false
			}
			st.push(p.name)
			st.addText(st.warn, Finding{Rule: st.ruleAt(st.path, "required"), path: st.keptPath(st.path[:len(st.path)-1])},
				"required field is missing")
			st.pop()
			continue
		}
		if p.schema == nil {
			continue
		}
		st.push(p.name)
		good := st.validate(p.schema, val)
		st.pop()
		if !good {
			ok = false
			if st.probe > 0 {
				return false
			}
		}
	}
	if s.additional == nil && !s.noAdditional {
		return ok
	}
	var extra []string
	for k := range x {
		if _, known := s.properties[k]; !known {
			extra = append(extra, k)
		}
	}
	return st.additionalFields(s, extra, ok, func(k string) bool { return st.validate(s.additional, x[k]) })
}

// additionalFields checks the members of an object its schema s does not
// name (extra, in any order, a name possibly twice) against
// additionalProperties; check validates the member k. ok is the verdict
// so far, returned updated.
func (st *state) additionalFields(s *schema, extra []string, ok bool, check func(k string) bool) bool {
	slices.Sort(extra)
	for _, k := range slices.Compact(extra) {
		st.push(k)
		if s.noAdditional {
			ok = false
			if st.probe == 0 {
				st.addText(st.warn, Finding{Rule: st.ruleAt(st.path[:len(st.path)-1], "additional"), path: st.keptPath(st.path), atKey: true},
					"field is not allowed here")
			}
		} else if !check(k) {
			ok = false
		}
		st.pop()
		if !ok && st.probe > 0 {
			return false
		}
	}
	return ok
}

// alternatives handles oneOf and anyOf of schema s. When nothing matches,
// it reports s's errorMessage when it has one, else the errors of the one
// alternative whose type fits the value (a string context is judged as a
// string), or else what types would fit.
func (st *state) alternatives(s *schema, list []*schema, exactlyOne bool, v any) bool {
	st.probe++
	matches := 0
	for _, sub := range list {
		if st.validate(sub, v) {
			matches++
		}
	}
	st.probe--
	if matches == 1 || (matches > 1 && !exactlyOne) {
		return true
	}
	if st.probe > 0 {
		return false
	}
	return st.noAlternative(s, list, exactlyOne, matches, v)
}

// noAlternative reports a value that matched none of the alternatives, or
// (oneOf) more than one.
func (st *state) noAlternative(s *schema, list []*schema, exactlyOne bool, matches int, v any) bool {
	if matches > 1 {
		st.report("one-of", fmt.Sprintf("matches %d alternatives, must match exactly one", matches))
		return false
	}
	if s.errorMessage != "" && matches == 0 {
		constraint := "any-of"
		if exactlyOne {
			constraint = "one-of"
		}
		st.reportCustom(constraint, s, v)
		return false
	}
	var fitting *schema
	fits := 0
	for _, sub := range list {
		if t := effectiveTypes(sub); t == 0 || typeMatches(t, v) {
			fitting = sub
			fits++
		}
	}
	switch {
	case fits == 1:
		st.validate(fitting, v)
	case fits == 0:
		st.report("type", "must be ", alternativeTypes(list), " (got ", jsonType(v), ")")
	default:
		constraint := "any-of"
		if exactlyOne {
			constraint = "one-of"
		}
		st.report(constraint, fmt.Sprintf("must match one of the %d alternatives (matches none)", len(list)))
	}
	return false
}

func uniq(xs []string) []string {
	out := xs[:0:0]
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

func effectiveTypes(s *schema) typeMask {
	for s.types == 0 && s.ref != nil {
		s = s.ref
	}
	return s.types
}

func (st *state) enumFailure(s *schema, v any) {
	name := st.lastKey()
	if str, isStr := v.(string); isStr && s.aliases != nil {
		if to, legacy := s.aliases[str]; legacy {
			q1, q2, q3 := quoteParts(v)
			st.report("enum", "invalid ", name, " ", q1, q2, q3, " (legacy alias of '", to, "'; must be one of ", s.enumText, ")")
			return
		}
	}
	q1, q2, q3 := quoteParts(v)
	st.reportCustom("enum", s, v, "invalid ", name, " ", q1, q2, q3, " (must be one of ", s.enumText, ")")
}

func inEnum(s *schema, v any) bool {
	if str, ok := v.(string); ok && s.enumStr != nil {
		_, in := s.enumStr[str]
		return in
	}
	for _, e := range s.enum {
		if equalValues(e, v) {
			return true
		}
	}
	return false
}

// Number reports whether v, a value of a decoded message, is a number,
// and its value.
func Number(v any) (float64, bool) { return asFloat(v) }

// asFloat reports whether v is a number, and its value.
func asFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	case float32:
		return float64(x), true
	case int32:
		return float64(x), true
	case uint64:
		return float64(x), true
	case uint32:
		return float64(x), true
	}
	return 0, false
}

func isInteger(v any) bool {
	switch x := v.(type) {
	case int64, int, int32, uint64, uint32:
		return true
	case float64:
		return x == math.Trunc(x) && !math.IsInf(x, 0)
	case float32:
		f := float64(x)
		return f == math.Trunc(f) && !math.IsInf(f, 0)
	}
	return false
}

func typeMatches(m typeMask, v any) bool {
	switch v.(type) {
	case string:
		return m&tString != 0
	case bool:
		return m&tBoolean != 0
	case nil:
		return m&tNull != 0
	case map[string]any:
		return m&tObject != 0
	case []any:
		return m&tArray != 0
	}
	if _, num := asFloat(v); num {
		return m&tNumber != 0 || (m&tInteger != 0 && isInteger(v))
	}
	return false
}

// jsonType names the JSON type of a value, for messages and field_types.
func jsonType(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case nil:
		return "null"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	if _, num := asFloat(v); num {
		if isInteger(v) {
			return "integer"
		}
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

// typeTexts holds typeList for every mask, built on first use: built
// at start-up, the 128 texts took a third of a millisecond of every
// run, the go vet tool's run per package included.
var typeTexts = sync.OnceValue(func() *[1 << 7]string { // 7 JSON types
	var t [1 << 7]string
	for m := range t {
		t[m] = buildTypeList(typeMask(m))
	}
	return &t
})

func typeList(m typeMask) string { return typeTexts()[m&(1<<7-1)] }

// alternativeTypes describes what the alternatives of a oneOf or anyOf
// accept: "a string or an array".
func alternativeTypes(list []*schema) string {
	var names []string
	for _, sub := range list {
		names = append(names, typeList(effectiveTypes(sub)))
	}
	return strings.Join(uniq(names), " or ")
}

func buildTypeList(m typeMask) string {
	var names []string
	for _, t := range typeNames {
		if m&t.bit != 0 {
			names = append(names, article(t.name))
		}
	}
	if len(names) == 0 {
		return "any value"
	}
	return strings.Join(names, " or ")
}

func article(t string) string {
	switch t {
	case "integer", "array", "object":
		return "an " + t
	case "null":
		return "null"
	}
	return "a " + t
}

func equalValues(a, b any) bool {
	if fa, ok := asFloat(a); ok {
		fb, ok := asFloat(b)
		return ok && fa == fb
	}
	switch x := a.(type) {
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalValues(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equalValues(xv, yv) {
				return false
			}
		}
		return true
	}
	return a == b
}

// normalizeNumber makes every integer an int64 so comparisons and CEL see
// one integer type.
func normalizeNumber(v any) any {
	switch x := v.(type) {
	case int:
		return int64(x)
	case int32:
		return int64(x)
	}
	return v
}

// formatPlain writes a value as the seed's messages do: 1.5, 3, true.
func formatPlain(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	}
	if f, ok := asFloat(v); ok {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

// quoteParts is quote in three parts (quote, text, quote), so a message
// built from parts needs no allocation for it.
func quoteParts(v any) (string, string, string) {
	if x, ok := v.(string); ok {
		return "'", shorten(x), "'"
	}
	return "", quote(v), ""
}

// shorten cuts a long string for a message, so a 10 MB scope does not
// become a 10 MB error.
func shorten(x string) string {
	head, cut := shortParts(x)
	if cut == "" {
		return x
	}
	return head + cut
}

// shortParts is shorten in two parts, the kept head and "..." (or ""),
// for a caller that appends them and need not join them.
func shortParts(x string) (head, cut string) {
	n := 0
	for i := range x {
		if n == 57 && len(x)-i > 3 {
			return x[:i], "..."
		}
		n++
	}
	return x, ""
}

// quote shows a value in a message: strings in single quotes, shortened
// when long, so a 10 MB scope does not become a 10 MB error.
func quote(v any) string {
	switch x := v.(type) {
	case string:
		return "'" + shorten(x) + "'"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	return formatPlain(v)
}

func characters(n int) string {
	if n == 1 {
		return "1 character"
	}
	return strconv.Itoa(n) + " characters"
}

// asciiPrefix reports whether s has at least k bytes and its first k are
// ASCII, so at least k runes.
func asciiPrefix(s string, k int) bool {
	if len(s) < k {
		return false
	}
	for i := 0; i < k; i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
