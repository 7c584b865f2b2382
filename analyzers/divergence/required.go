package divergence

import (
	"fmt"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/shape"
	"github.com/protoscan-dev/protoscan/msgcheck"
	protocol "github.com/protoscan-dev/protoscan/msgcheck/evidence"
)

// RuleRequiredFields is reported where a DELEGATE or HANDBACK validation
// requires other fields than the spec does (an error when a spec-valid
// message fails it, a warning when a message without a required field
// passes it), and where copies of one validation require different fields
// (a warning).
const RuleRequiredFields = "divergence/required-fields"

// kindName is the spec's name of the kind a validation concept checks.
func kindName(c Concept) string {
	switch c {
	case DelegateValidation:
		return "delegate"
	case HandbackValidation:
		return "handback"
	}
	return ""
}

// requiredConcept settles what a function with required fields
// (facts.Function.Required) validates, and keeps those fields only where
// the function shows protocol evidence of that kind (package
// msgcheck/evidence: its name, its literals, or the fields it requires
// and reads taken as one record, with the kind's id field and two core
// fields). A function the name and fields it reads made no candidate
// becomes a validation when its name says it validates and what it
// requires has the kind's shape; a validation of another record (a tool
// reply, an event with task_id and status) has no such shape and stays
// out.
func (m *Model) requiredConcept(f *facts.File, fn *facts.Function, c Concept) (Concept, []facts.Required) {
	if len(fn.Required) == 0 || (c != 0 && c != DelegateValidation && c != HandbackValidation) {
		return c, nil
	}
	keys := make([]string, 0, len(fn.Required)+len(fn.Fields)+len(fn.Params))
	for _, r := range fn.Required {
		keys = append(keys, r.Field)
	}
	for _, p := range fn.Fields {
		keys = append(keys, p[strings.LastIndexByte(p, '.')+1:])
	}
	keys = append(keys, fn.Params...)
	rec := msgcheck.Record{Keys: keys, Fold: true}
	in := protocol.In(f, m.spec, fn)
	has := func(kind string) bool { return in.Has(kind) || m.spec.HasShape(kind, rec) }
	if c != 0 {
		if has(kindName(c)) {
			return c, fn.Required
		}
		return c, nil
	}
	words := nameWords(fn.Name[strings.LastIndexByte(fn.Name, '.')+1:])
	validates := false
	for _, w := range words {
		if strings.HasPrefix(w, "validat") || strings.HasPrefix(w, "verif") || strings.HasPrefix(w, "check") ||
			strings.HasPrefix(w, "require") || w == "valid" || w == "invalid" {
			validates = true
		}
	}
	if !validates || (len(words) > 0 && words[0] == "test") {
		return 0, nil
	}
	var saysDelegate, saysHandback bool
	for _, w := range nameWords(fn.Name) {
		saysDelegate = saysDelegate || strings.HasPrefix(w, "delegat")
		saysHandback = saysHandback || w == "handback"
	}
	hd, hh := has("delegate"), has("handback")
	switch {
	case saysDelegate && hd, hd && !hh && !saysHandback:
		c = DelegateValidation
	case saysHandback && hh, hh && !hd && !saysDelegate:
		c = HandbackValidation
	default:
		return 0, nil
	}
	// it enumerates the message's own required fields
	if m.requiredSet(c, fn.Required).specShared < 2 {
		return 0, nil
	}
	return c, fn.Required
}

// reqSet is a validation's required fields judged against the spec.
type reqSet struct {
	fields     []string // normalized, in source order
	at         map[string]facts.Required
	specShared int // how many of the spec's required fields it requires
	// mixed is set when it also requires two or more of the other kind's
	// required fields that this kind does not define (status and output
	// in a DELEGATE validation): one function validating both kinds
	mixed     bool
	kind      string            // the spec's name of the kind
	kindTitle string            // HANDBACK
	former    map[string]string // former name -> field
	// own and unknown count the fields the kind defines (former names
	// included) and those it does not
	own, unknown int
}

// requiredSet normalizes a validation's required fields.
func (m *Model) requiredSet(c Concept, req []facts.Required) reqSet {
	s := reqSet{kind: kindName(c), kindTitle: strings.ToUpper(kindName(c)), at: map[string]facts.Required{}}
	s.former = map[string]string{}
	for old, f := range m.spec.FormerNames(s.kind) {
		s.former[shape.FieldName(old)] = shape.FieldName(f)
	}
	specReq := m.specRequired(s.kind)
	other := "delegate"
	if s.kind == other {
		other = "handback"
	}
	otherReq := m.specRequired(other)
	foreign := 0
	for _, r := range req {
		n := shape.FieldName(r.Field)
		if _, ok := s.at[n]; ok {
			continue
		}
		s.at[n] = r
		s.fields = append(s.fields, n)
		switch {
		case slices.Contains(specReq, n):
			s.specShared++
		case slices.Contains(otherReq, n) && !m.specField(s.kind, n):
			foreign++
		}
	}
	s.mixed = foreign >= 2
	for _, f := range s.fields {
		if s.former[f] != "" || m.specField(s.kind, f) {
			s.own++
		} else {
			s.unknown++
		}
	}
	return s
}

// judged tells whether the set is of the kind's record, and so judged
// against the spec: it requires a required field of the kind, does not
// validate both kinds, and the fields the kind does not define do not
// outnumber its own (a handback of another protocol that requires task_id
// among a dozen fields of its own is no HANDBACK).
func (s reqSet) judged() bool {
	return s.specShared > 0 && !s.mixed && s.unknown <= s.own
}

// specRequired are the spec's required fields of a kind, normalized, in
// spec order.
func (m *Model) specRequired(kind string) []string {
	req := m.spec.Required(kind)
	out := make([]string, len(req))
	for i, f := range req {
		out[i] = shape.FieldName(f)
	}
	return out
}

// specField tells whether the kind defines the field (core or extension).
func (m *Model) specField(kind, f string) bool {
	return slices.ContainsFunc(m.spec.Fields(kind), func(s string) bool { return shape.FieldName(s) == f })
}

// helperCalls are calls that validate with what the function built:
// they are its own check, not a check elsewhere.
var helperCalls = map[string]bool{"validate": true, "iter_errors": true, "is_valid": true, "model_validate": true,
	"parse_obj": true, "Struct": true, "StructCtx": true}

// checksElsewhere tells whether fn hands its input to another check
// (validate_metrics(msg), v.checkScope(d)): a field it does not require
// itself may be required there.
func checksElsewhere(fn *facts.Function) bool {
	for _, c := range fn.Calls {
		if helperCalls[c] {
			continue
		}
		l := strings.ToLower(c)
		if strings.Contains(l, "valid") || strings.Contains(l, "check") || strings.Contains(l, "verif") || strings.Contains(l, "require") {
			return true
		}
	}
	return false
}

// requiredFindings judges the required fields of validation cd against
// the spec: fields the spec does not require (an error: a spec-valid
// message fails the check), and, for a validation that enumerates two or
// more of the spec's required fields, the spec's required fields it lets
// through (a warning). A set that shares no field with the spec's
// required ones is of another record and is not judged.
func (m *Model) requiredFindings(cd *Candidate) []finding.Finding {
	if len(cd.Fn.Required) == 0 {
		return nil
	}
	s := m.requiredSet(cd.Concept, cd.Fn.Required)
	if !s.judged() {
		return nil
	}
	specReq := m.specRequired(s.kind)
	var unknown, optional, legacy []string
	for _, f := range s.fields {
		switch {
		case slices.Contains(specReq, f):
		case s.former[f] != "":
			legacy = append(legacy, f)
		case m.specField(s.kind, f):
			optional = append(optional, f)
		default:
			unknown = append(unknown, f)
		}
	}
	var out []finding.Finding
	if len(unknown)+len(optional)+len(legacy) > 0 {
		var parts []string
		if len(unknown) > 0 {
			parts = append(parts, fmt.Sprintf("%s, which the protocol does not define", joinAnd(unknown)))
		}
		if len(optional) > 0 {
			parts = append(parts, fmt.Sprintf("%s, which the spec makes optional", joinAnd(optional)))
		}
		for _, f := range legacy {
			parts = append(parts, fmt.Sprintf("%s, the former name of %s", f, s.former[f]))
		}
		first := s.fields[slices.IndexFunc(s.fields, func(f string) bool {
			return !slices.Contains(specReq, f)
		})]
		at := s.at[first]
		msg := fmt.Sprintf("%s requires %s: a spec-valid %s fails this check", cd.Fn.Name, strings.Join(parts, "; "), s.kindTitle)
		if len(legacy) > 0 {
			msg += fmt.Sprintf(" (one that carries %s)", joinAnd(mapEach(legacy, s.former)))
		}
		out = append(out, finding.Finding{Rule: RuleRequiredFields, Severity: finding.Error, Message: msg + " (" + requiredSays(s, specReq) + ")",
			Location: m.requiredPlace(cd, at), Literal: first, Canonical: s.former[first]})
	}
	// a validation named for a field (ValidatePlan, check_scope) checks
	// a part of the message: what it leaves to others is not missing
	if s.specShared >= 2 && !checksElsewhere(&cd.Fn) && !m.namedForField(nameWords(cd.Fn.Name[strings.LastIndexByte(cd.Fn.Name, '.')+1:])) {
		read := map[string]bool{}
		for _, p := range cd.Fn.Fields {
			head, _, _ := strings.Cut(p, ".")
			read[head] = true
		}
		for _, c := range cd.Fn.Consts {
			head, _, _ := strings.Cut(c.Field, ".")
			read[head] = true
		}
		var missing []string
		for _, f := range specReq {
			if _, ok := s.at[f]; ok || read[f] || slices.ContainsFunc(legacy, func(l string) bool { return s.former[l] == f }) {
				continue
			}
			missing = append(missing, f)
		}
		if len(missing) > 0 {
			msg := fmt.Sprintf("%s does not require %s, which the spec requires: a %s without %s passes this check (%s)",
				cd.Fn.Name, joinAnd(missing), s.kindTitle, missing[0], requiredSays(s, specReq))
			out = append(out, finding.Finding{Rule: RuleRequiredFields, Severity: finding.Warning, Message: msg,
				Location: finding.Location{Path: cd.Path, Line: cd.Fn.Pos.Line, Col: cd.Fn.Pos.Col}, Literal: strings.Join(s.fields, ", "),
				Canonical: strings.Join(specReq, ", ")})
		}
	}
	return out
}

// requiredSays names what the code and the spec require.
func requiredSays(s reqSet, specReq []string) string {
	return fmt.Sprintf("it requires %s; the spec requires %s", strings.Join(s.fields, ", "), strings.Join(specReq, ", "))
}

func mapEach(in []string, m map[string]string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = m[s]
	}
	return out
}

// requiredPlace is where a required field is named: in the candidate's
// file when the extractor placed it there (a list or model of the same
// file), else at the function.
func (m *Model) requiredPlace(cd *Candidate, r facts.Required) finding.Location {
	if r.Pos.Line > 0 {
		return finding.Location{Path: cd.Path, Line: r.Pos.Line, Col: r.Pos.Col}
	}
	return finding.Location{Path: cd.Path, Line: cd.Fn.Pos.Line, Col: cd.Fn.Pos.Col}
}

// enumerates tells, per candidate, whether it is a validation that
// requires two or more of the spec's required fields of its kind: two
// such validations of one kind are the same decision, which fields a
// message must carry, written twice (Cluster links them).
func (m *Model) enumerates(cands []Candidate) []bool {
	out := make([]bool, len(cands))
	for i := range cands {
		if len(cands[i].Fn.Required) > 0 {
			s := m.requiredSet(cands[i].Concept, cands[i].Fn.Required)
			out[i] = s.specShared >= 2 && s.judged()
		}
	}
	return out
}

// requiredDiffer reports the members of a validation cluster that require
// different fields, once per cluster, at the first member that differs
// from the reference: the canonical member, else one that requires what
// the spec requires.
func (c *cluster) requiredDiffer() []finding.Finding {
	if k := c.members[0].Concept; k != DelegateValidation && k != HandbackValidation {
		return nil
	}
	var users []int
	sets := make([]reqSet, len(c.members))
	for i, mb := range c.members {
		if len(mb.Fn.Required) == 0 {
			continue
		}
		sets[i] = c.m.requiredSet(mb.Concept, mb.Fn.Required)
		if sets[i].judged() {
			users = append(users, i)
		}
	}
	if len(users) < 2 {
		return nil
	}
	same := func(i, j int) bool {
		a, b := slices.Clone(sets[i].fields), slices.Clone(sets[j].fields)
		slices.Sort(a)
		slices.Sort(b)
		return slices.Equal(a, b)
	}
	differ := false
	for _, i := range users[1:] {
		if !same(i, users[0]) {
			differ = true
		}
	}
	if !differ {
		return nil
	}
	specReq := c.m.specRequired(sets[users[0]].kind)
	ref, why := -1, ""
	for _, i := range users {
		if c.members[i].Canonical {
			ref, why = i, "canonical"
			break
		}
	}
	if ref < 0 {
		for _, i := range users {
			a := slices.Clone(sets[i].fields)
			b := slices.Clone(specReq)
			slices.Sort(a)
			slices.Sort(b)
			if slices.Equal(a, b) {
				ref, why = i, "agrees with the spec"
				break
			}
		}
	}
	at := users[1]
	if ref >= 0 {
		for _, i := range users {
			if !same(i, ref) {
				at = i
				break
			}
		}
	}
	var parts []string
	var related []finding.Location
	for _, i := range users {
		mb := c.members[i]
		note := ""
		if i == ref {
			note = ", " + why
		}
		parts = append(parts, fmt.Sprintf("%s in %s (%s%s)", strings.Join(sets[i].fields, ", "), mb.Fn.Name, where(mb), note))
		related = append(related, finding.Location{Path: mb.Path, Line: mb.Fn.Pos.Line, Col: mb.Fn.Pos.Col,
			Message: fmt.Sprintf("%s requires %s", mb.Fn.Name, strings.Join(sets[i].fields, ", "))})
	}
	mb := c.members[at]
	fd := finding.Finding{Rule: RuleRequiredFields, Severity: finding.Warning,
		Message: fmt.Sprintf("copies of one %s require different fields: %s; the spec requires %s", mb.Concept,
			strings.Join(parts, "; "), strings.Join(specReq, ", ")),
		Location: finding.Location{Path: mb.Path, Line: mb.Fn.Pos.Line, Col: mb.Fn.Pos.Col}, Related: related,
		Literal: strings.Join(sets[at].fields, ", ")}
	if ref >= 0 {
		fd.Canonical = strings.Join(sets[ref].fields, ", ")
	}
	return []finding.Finding{fd}
}
