package msgcheck

import (
	"math"
	"slices"

	"github.com/protoscan-dev/protoscan/internal/yamlnode"
	"github.com/protoscan-dev/protoscan/jsonmsg"
)

// This file validates a message while it is still JSON tokens (a
// jsonmsg.Tape), for the audit's hot path: decoding into maps and boxed
// values cost as much as validating them. The walk mirrors validate.go's
// structural checks (types, objects, arrays, alternatives) token by token
// and calls the same leaf checks (str, number, enums, exists, deprecated)
// and the same reporting, so a Result from here is the Result Validate
// gives for the value Decode builds from the same text; the differential
// test and fuzz target in tape_test.go hold it to that.

// maxTapeFields bounds the fields of a kind the tape walk handles; a
// bigger kind goes through Validate.
const maxTapeFields = 64

// ValidateTape validates the message on t (parsed from one JSON text)
// exactly as Validate validates the value jsonmsg.Decode makes of that
// text, without building the value. ok is false when the message needs
// what only Validate does: CEL rules, a choice among several spec
// versions, a top-level member named twice, a top level that is not an
// object. The caller then decodes and calls Validate. The Result's
// FieldTypes are not available.
func (v *Validator) ValidateTape(kindName string, t *jsonmsg.Tape) (res Result, ok bool) {
	ok = v.ValidateTapeInto(kindName, t, &res)
	return res, ok
}

// ValidateTapeInto is ValidateTape writing its Result into res, whose
// Errors and Warnings arrays and texts' memory it reuses: a caller that
// counts the findings of each message and drops them (the audit)
// allocates nothing for them. The findings in res, their strings
// included, are valid until the next call with res: a string kept
// longer must be copied (strings.Clone). Its lists may be empty rather
// than nil. When ok is false, res holds no findings.
func (v *Validator) ValidateTapeInto(kindName string, t *jsonmsg.Tape, res *Result) (ok bool) {
	// no strings of the last message kept alive: its findings are the
	// lists' lengths (past them, the arrays hold zeros or what a caller
	// cut off itself), and clearing whole capacities cost 2 % of an audit
	clear(res.Errors)
	clear(res.Warnings)
	errs, warns, text := res.Errors[:0], res.Warnings[:0], res.text
	*res = Result{Errors: errs, Warnings: warns, text: text}
	if len(t.Toks) == 0 || t.Toks[0].Kind != jsonmsg.Object || len(v.specs) > 1 {
		return false
	}
	spec := v.specs[0]
	var k *kind
	if kindName == "" {
		k = spec.messageKindTape(t)
	} else {
		k = spec.kind(kindName)
	}
	if k == nil || len(k.rules) > 0 || len(k.order) > maxTapeFields {
		return false // unknown-kind findings, CEL: Validate's job
	}
	// slots[f.pos] is 1 + the token index of field f's value
	var slots [maxTapeFields]int32
	unknown := 0
	root := &t.Toks[0]
	for i, n := 1, 0; n < int(root.Len); n++ {
		if f := k.field(t.Toks[i].Str); f != nil {
			if slots[f.pos] != 0 {
				return false // a name twice: Validate sees the last
			}
			slots[f.pos] = int32(i + 2)
		} else {
			unknown++
		}
		i = int(t.Toks[i+1].Next)
	}
	st := statePool.Get().(*state)
	st.v, st.res, st.path, st.locate = v, Result{Valid: true, Errors: errs, Warnings: warns, text: text}, st.buf[:0], false
	st.text, st.pending = st.text[:0], st.pending[:0]
	st.res.SpecVersion = spec.Version
	st.res.Kind = k.name
	st.kind, st.checks, st.compared = k, 0, 0
	ok = st.tapeFields(k, t, &slots, unknown)
	if ok {
		st.checkBudget()
		st.finish(true)
		*res = st.res
	}
	st.v, st.kind, st.field, st.res = nil, nil, nil, Result{}
	if cap(st.text) > maxPooledText {
		st.text, st.pending = nil, nil
	}
	statePool.Put(st)
	return ok
}

// tapeFields is Validator.validate's field loop over the tape.
func (st *state) tapeFields(k *kind, t *jsonmsg.Tape, slots *[maxTapeFields]int32, unknown int) bool {
	res := &st.res
	checkLater := true
	if !k.declaresVersions {
		// Validator.specFor: the first version key present is checked
		for _, key := range versionKeys {
			if i := t.Member(0, key); i >= 0 {
				st.v.checkVersion(key, t.Value(i), res)
				break
			}
		}
		checkLater = false
	}
	for _, f := range k.order {
		at := int(slots[f.pos]) - 1
		if at < 0 && f.formerly != nil {
			for _, old := range f.formerly {
				if i := t.Member(0, old); i >= 0 {
					st.renamed(f, old)
					st.validateTok(f.schema, t, i)
					st.former = ""
					break
				}
			}
			if st.field == f {
				continue
			}
		}
		if at < 0 {
			if f.required {
				st.addText(false, Finding{Field: f.name, Rule: f.ruleIDs["required"]}, "required field is missing")
			}
			continue
		}
		if checkLater && f.isVersion {
			if f.name == versionKeys[0] || slots[k.fields[versionKeys[0]].pos] == 0 {
				st.v.checkVersion(f.name, t.Value(at), res)
				checkLater = false
			}
		}
		st.field, st.warn = f, !f.core
		st.path = append(st.path[:0], yamlnode.Step{Key: f.name, Index: -1})
		st.validateTok(f.schema, t, at)
	}
	if unknown > 0 {
		var few [8]string // most messages with unknown fields have one or two
		names := few[:0]
		root := &t.Toks[0]
		for i, n := 1, 0; n < int(root.Len); n++ {
			if k.field(t.Toks[i].Str) == nil && !(t.Toks[i+1].Kind == jsonmsg.String && typeMarks(k, t.Toks[i].Str, t.Toks[i+1].Str)) {
				names = append(names, t.Toks[i].Str)
			}
			i = int(t.Toks[i+1].Next)
		}
		slices.Sort(names)
		for i := 1; i < len(names); i++ {
			if names[i] == names[i-1] {
				return false // an unknown name twice: Validate reports it once
			}
		}
		for _, name := range names {
			if f := k.formerly[name]; f != nil {
				if checked := checkedAs(f, func(n string) bool { return t.Member(0, n) >= 0 }); checked != name {
					st.res.add(formerFinding(k, f, name, checked), true)
				}
				continue
			}
			// the text goes where the other findings' texts go (see
			// finish), rather than into a string of its own
			start := len(st.text)
			st.text = appendUnknownField(st.text, k, name)
			st.pend(true, Finding{Field: name, Rule: k.unknownRule}, start, 0)
		}
	}
	return true
}

// DetectTape is Detect for a message on a tape whose top level names
// each member once.
func (s *Spec) DetectTape(t *jsonmsg.Tape) string {
	if len(t.Toks) == 0 || t.Toks[0].Kind != jsonmsg.Object {
		return ""
	}
	if k := s.detectTape(t); k != nil {
		return k.name
	}
	return ""
}

// detectTape is Spec.detect over the top-level members of t, which are
// known to carry each name once.
func (s *Spec) detectTape(t *jsonmsg.Tape) *kind {
	var best *kind
	bestScore, tie := -1, false
	root := &t.Toks[0]
	for _, k := range s.kinds {
		if len(k.signature) == 0 {
			continue
		}
		all := true
		for _, f := range k.signature {
			if t.Member(0, f) < 0 {
				all = false
				break
			}
		}
		if !all {
			continue
		}
		score := 0
		for i, n := 1, 0; n < int(root.Len); n++ {
			if _, ok := k.fields[t.Toks[i].Str]; ok {
				score++
			}
			i = int(t.Toks[i+1].Next)
		}
		switch {
		case score > bestScore:
			best, bestScore, tie = k, score, false
		case score == bestScore:
			tie = true
		}
	}
	if tie {
		return nil
	}
	return best
}

// validateTok is validate for the value at token i.
func (st *state) validateTok(s *schema, t *jsonmsg.Tape, i int) bool {
	if st.checks++; st.checks > maxChecks {
		return true // reported once, by checkBudget
	}
	outer := st.cur
	st.cur = s
	ok := st.checkTok(s, t, i)
	st.cur = outer
	return ok
}

// checkTok is check for the value at token i.
func (st *state) checkTok(s *schema, t *jsonmsg.Tape, i int) bool {
	if len(st.path) > maxValueDepth {
		return true
	}
	if tok := &t.Toks[i]; s.leafString && tok.Kind == jsonmsg.String {
		return st.str(s, tok.Str) // what the steps below come to
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
	if s.ref != nil && !st.validateTok(s.ref, t, i) {
		ok = false
		if st.probe > 0 {
			return false
		}
	}
	tok := &t.Toks[i]
	if s.types != 0 && !tokTypeMatches(s.types, tok) {
		if st.probe == 0 {
			st.report("type", "must be ", typeList(s.types), " (got ", tokType(tok), ")")
		}
		return false
	}
	switch tok.Kind {
	case jsonmsg.String:
		ok = st.str(s, tok.Str) && ok
	case jsonmsg.Object:
		ok = st.objectTok(s, t, i) && ok
	case jsonmsg.Array:
		ok = st.arrayTok(s, t, i) && ok
	case jsonmsg.Number:
		ok = st.number(s, tok.Num) && ok
	}
	if !ok && st.probe > 0 {
		return false
	}
	if s.enum != nil && !inEnumTok(s, t, i) {
		if st.probe > 0 {
			return false
		}
		ok = false
		st.enumFailure(s, t.Value(i))
	}
	if s.hasConst {
		if val := t.Value(i); !equalValues(s.constVal, val) {
			if st.probe > 0 {
				return false
			}
			ok = false
			st.reportCustom("const", s, val, "must be ", quote(s.constVal))
		}
	}
	for _, sub := range s.allOf {
		if !st.validateTok(sub, t, i) {
			ok = false
			if st.probe > 0 {
				return false
			}
		}
	}
	if s.oneOf != nil {
		ok = st.alternativesTok(s, s.oneOf, true, t, i) && ok
	}
	if s.anyOf != nil && (ok || st.probe == 0) {
		ok = st.alternativesTok(s, s.anyOf, false, t, i) && ok
	}
	if s.not != nil {
		st.probe++
		matched := st.validateTok(s.not, t, i)
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

func inEnumTok(s *schema, t *jsonmsg.Tape, i int) bool {
	if tok := &t.Toks[i]; tok.Kind == jsonmsg.String && s.enumStr != nil {
		_, in := s.enumStr[tok.Str]
		return in
	}
	return inEnum(s, t.Value(i))
}

func tokTypeMatches(m typeMask, tok *jsonmsg.Tok) bool {
	switch tok.Kind {
	case jsonmsg.String:
		return m&tString != 0
	case jsonmsg.True, jsonmsg.False:
		return m&tBoolean != 0
	case jsonmsg.Null:
		return m&tNull != 0
	case jsonmsg.Object:
		return m&tObject != 0
	case jsonmsg.Array:
		return m&tArray != 0
	case jsonmsg.Number:
		return m&tNumber != 0 || (m&tInteger != 0 && integral(tok.Num))
	}
	return false
}

func integral(f float64) bool { return f == math.Trunc(f) && !math.IsInf(f, 0) }

// tokType is jsonType for a token.
func tokType(tok *jsonmsg.Tok) string {
	switch tok.Kind {
	case jsonmsg.String:
		return "string"
	case jsonmsg.True, jsonmsg.False:
		return "boolean"
	case jsonmsg.Null:
		return "null"
	case jsonmsg.Object:
		return "object"
	case jsonmsg.Array:
		return "array"
	}
	if integral(tok.Num) {
		return "integer"
	}
	return "number"
}

// arrayTok is array for the Array at token i: its items are counted on
// the tape, and built as values only for uniqueItems, whose messages
// quote them.
func (st *state) arrayTok(s *schema, t *jsonmsg.Tape, i int) bool {
	ok := st.itemCount(s, int(t.Toks[i].Len))
	if !ok && st.probe > 0 {
		return false
	}
	if s.uniqueItems && !st.unique(t.Value(i).([]any)) {
		ok = false
		if st.probe > 0 {
			return false
		}
	}
	if s.items != nil {
		ok = st.itemsTok(s.items, t, i) && ok
	}
	return ok
}

func (st *state) itemsTok(items *schema, t *jsonmsg.Tape, i int) bool {
	ok := true
	end := int(t.Toks[i].Next)
	for j, n := i+1, 0; j < end; j, n = int(t.Toks[j].Next), n+1 {
		st.pushIndex(n)
		good := st.validateTok(items, t, j)
		st.pop()
		if !good {
			ok = false
			if st.probe > 0 {
				return false
			}
		}
	}
	return ok
}

// objectTok is object for the Object at token i.
func (st *state) objectTok(s *schema, t *jsonmsg.Tape, i int) bool {
	ok := true
	for _, p := range s.fields {
		at := t.Member(i, p.name)
		if at < 0 {
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
		good := st.validateTok(p.schema, t, at)
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
	tok := &t.Toks[i]
	for j, n := i+1, 0; n < int(tok.Len); n++ {
		if _, known := s.properties[t.Toks[j].Str]; !known {
			extra = append(extra, t.Toks[j].Str)
		}
		j = int(t.Toks[j+1].Next)
	}
	return st.additionalFields(s, extra, ok, func(k string) bool { return st.validateTok(s.additional, t, t.Member(i, k)) })
}

// alternativesTok is alternatives for the value at token i.
func (st *state) alternativesTok(s *schema, list []*schema, exactlyOne bool, t *jsonmsg.Tape, i int) bool {
	st.probe++
	matches := 0
	for _, sub := range list {
		if st.validateTok(sub, t, i) {
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
	// the reports are noAlternative's; only when one alternative fits is
	// it walked again, on the tape
	if tok := &t.Toks[i]; matches == 0 && s.errorMessage == "" {
		var fitting *schema
		fits := 0
		for _, sub := range list {
			if ty := effectiveTypes(sub); ty == 0 || tokTypeMatches(ty, tok) {
				fitting = sub
				fits++
			}
		}
		if fits == 1 {
			st.validateTok(fitting, t, i)
			return false
		}
	}
	return st.noAlternative(s, list, exactlyOne, matches, t.Value(i))
}
