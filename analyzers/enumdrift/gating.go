package enumdrift

import (
	"fmt"
	"strings"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/languages/extract"
	"github.com/protoscan-dev/protoscan/languages/facts"
)

// gates tells whether one of the tests of a collection lets only its
// values through: a validation (if status not in VALID: raise; assert
// status in ALLOWED; if !slices.Contains(valid, s) { return err }), not a
// routing (if agent in ENGINEERS: assign(...)), a lookup or a test whose
// outcome the code does not say.
func gates(tests []facts.Test) bool {
	for _, t := range tests {
		if t.Branch == facts.BranchAccept {
			return true
		}
	}
	return false
}

// rejectsValid reports a collection that gates the acceptance of e's
// field and lacks canonical values of e: the validator rejects valid
// messages. members are the collection's literals, f their fit with e,
// tied the enums of the field; what names the collection ("set
// VALID_STATUSES") and how says what ties it ("tested against h.status").
//
// The collection must be e's vocabulary beyond doubt: two of its values
// exact (or, in a file that handles e's kind, three or more values all
// spellings of e's) and at least half of them e's (a JSend status set {success,
// fail, error} is another protocol's); all of them e's, three exact or a
// test's receiver named for e's kind (a task board's {pending,
// in_progress, success, failure} is its own); and no enum of the field that it
// covers whole (a set of every NEXUS status is no HANDBACK set lacking
// values). A set named for legacy, deprecated or alias spellings, and the
// checks of test code, which refuse on purpose, are left alone.
func (c *checker) rejectsValid(at facts.Pos, name string, members []int, e *Enum, f fit, tied []*Enum, tests []facts.Test, what, how string) {
	// every word a spelling of e's, in a file that handles e's kind, is
	// e's vocabulary too: {complete, failed, partial} is an old HANDBACK set
	spelled := f.related == len(members) && len(members) >= 3 && c.hasEvidence(e)
	if (f.exact < 2 && !spelled) || 2*f.related < len(members) || extract.IsTestPath(c.f.Path) || aliasSet(name) {
		return
	}
	if f.related < len(members) && f.exact < 3 && !receiverNamesKind(tests, e) {
		return // a task board's {pending, in_progress, success, failure}
	}
	for _, o := range tied {
		if o != e && len(o.missing(c.fitOf(members, o).covered)) == 0 {
			return
		}
	}
	// the set lets through its strings as written: a legacy spelling in
	// it ("complete") does not let the canonical value ("success") pass;
	// a case-drifted one may, where the code folds case before the test
	passes := map[string]bool{}
	for _, i := range members {
		if cl, to := e.classify(c.f.Strings[i].Value); cl == canonical || cl == caseDrift {
			passes[to] = true
		}
	}
	miss := e.missing(passes)
	if len(miss) == 0 {
		return
	}
	valid := e.label() + " " + miss[0]
	if len(miss) > 1 {
		valid = e.words.plural + " " + strings.Join(miss, ", ")
	}
	c.out = append(c.out, finding.Finding{
		Rule: e.rules.missing, Severity: finding.Error,
		Location: c.loc(at, facts.Pos{}),
		Message:  fmt.Sprintf("%s rejects the valid %s (%s; %s)", what, valid, how, e.valuesText()),
	})
}

// schemaGates tells whether mapping m, which holds an `enum` for a field,
// is a property of a JSON schema in code: the value of the field's key
// in the schema's `properties`. Such a schema is written to validate
// messages, so its enum gates acceptance.
func (c *checker) schemaGates(m int) bool {
	if !c.f.Mappings[m].InCode || c.parentKey[m] == "" {
		return false
	}
	p := c.f.Mappings[m].Pos
	for i := range c.f.Mappings {
		for _, en := range c.f.Mappings[i].Entries {
			if en.ValPos == p && i != m {
				return c.parentKey[i] == "properties"
			}
		}
	}
	return false
}

// schemaEnumPos is where the list of mapping m's `enum` is.
func (c *checker) schemaEnumPos(m int) facts.Pos {
	for _, en := range c.f.Mappings[m].Entries {
		if en.Key == "enum" {
			return en.ValPos
		}
	}
	return c.f.Mappings[m].Pos
}

// receiverNamesKind tells whether a test reads the field from a receiver
// named for e's kind (handback["status"]).
func receiverNamesKind(tests []facts.Test, e *Enum) bool {
	for _, t := range tests {
		if namesKind(t.Receiver, e) {
			return true
		}
	}
	return false
}

// inlineGates judges the literal collections a function tests a field
// against where it writes them (if status not in ("success", "failure",
// "partial"): raise): read from the function's comparisons (facts.Const)
// with the same field, operator and outcome on one line, they gate
// acceptance as a named set does, and are reported as rejectsValid
// reports one.
func (c *checker) inlineGates() {
	some := false // most files test no field against strings with in
	for fi := range c.f.Functions {
		for _, k := range c.f.Functions[fi].Consts {
			if _, isString := k.Value.(string); isString && (k.Op == "in" || k.Op == "not in") {
				some = true
			}
		}
	}
	if !some {
		return
	}
	at := make(map[facts.Pos]int, len(c.f.Strings))
	for i := range c.f.Strings {
		at[c.f.Strings[i].Pos] = i
	}
	type key struct {
		field, op string
		line      int
		branch    facts.Branch
	}
	for fi := range c.f.Functions {
		var order []key
		sets := map[key][]int{}
		for _, k := range c.f.Functions[fi].Consts {
			if _, isString := k.Value.(string); !isString || k.Field == "" || k.Measure != "" || k.Name != "" || (k.Op != "in" && k.Op != "not in") {
				continue
			}
			i, ok := at[k.Pos]
			if !ok {
				continue
			}
			kk := key{k.Field, k.Op, k.Pos.Line, k.Branch}
			if _, seen := sets[kk]; !seen {
				order = append(order, kk)
			}
			sets[kk] = append(sets[kk], i)
		}
		for _, kk := range order {
			members := sets[kk]
			gate := kk.op == "not in" && kk.branch == facts.BranchReject || kk.op == "in" && kk.branch == facts.BranchAccept
			field := kk.field[strings.LastIndexByte(kk.field, '.')+1:]
			tied := c.v.fieldEnums(field)
			if !gate || len(members) < 2 || len(tied) == 0 {
				continue
			}
			if e, f := c.pick(members, tied, func(e *Enum) bool { return c.foreignString(members[0], e) }); e != nil && c.tiedTo(e, f, len(members), nil) {
				c.rejectsValid(c.f.Strings[members[0]].Pos, "", members, e, f, tied, nil, "the collection written in the test", "tested against "+kk.field)
			}
		}
	}
}
