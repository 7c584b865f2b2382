package divergence

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/languages/facts"
)

// RuleSpecThreshold is reported where code holds a protocol field to a
// bound the spec contradicts.
const RuleSpecThreshold = "divergence/spec-threshold"

// kindOf is the message kind whose fields a concept's functions judge.
func kindOf(c Concept) kindSet {
	switch c {
	case DelegateValidation:
		return kindDelegate
	case HandbackValidation, Escalation:
		return kindHandback
	}
	return 0
}

// kindLimits returns the spec's bounds on field key of the kind concept
// judges, in spec order.
func (m *Model) kindLimits(c Concept, k thresholdKey) []specLimit {
	kind := kindOf(c)
	var out []specLimit
	for _, l := range m.limits[k] {
		if l.kind&kind != 0 {
			out = append(out, l)
		}
	}
	return out
}

// countBoundary is where comparison `n op t` splits the counts n (0, 1,
// 2...): the first count on its upper side. n < 15, n >= 15, n <= 14 and
// n > 14 all split at 15.
func countBoundary(op string, t float64) (float64, bool) {
	switch op {
	case "<", ">=":
		return math.Ceil(t), true
	case "<=", ">":
		return math.Floor(t) + 1, true
	}
	return 0, false
}

// countBound is the bound a comparison of a count holds it to, from its
// operator and its branch: a floor (at least v) or a ceiling (at most v).
// `n < 15` then reject, `n >= 15` then accept and `n <= 14` then reject
// are all the floor 15; `n == 0` then reject is the floor 1.
func countBound(x constAt) (floor bool, v float64, ok bool) {
	if x.branch == facts.BranchUnknown {
		return false, 0, false
	}
	accept := x.branch == facts.BranchAccept
	switch x.op {
	case "==", "!=":
		if x.value == 0 && (x.op == "==") != accept {
			return true, 1, true
		}
		return false, 0, false
	}
	b, ok := countBoundary(x.op, x.value)
	if !ok {
		return false, 0, false
	}
	upperTrue := x.op == ">" || x.op == ">="
	if upperTrue == accept { // the valid counts are those from b up
		return true, b, true
	}
	return false, b - 1, true
}

type verdict uint8

const (
	unjudged    verdict = iota // the spec does not bound it this way
	agrees                     // the spec's bound, however written
	inside                     // a value within the spec's range: a policy of the code
	contradicts                // a bound the spec contradicts
)

// judgement is what the spec says of one comparison.
type judgement struct {
	verdict verdict
	// for a count: the code's bound and the spec's bounds of that kind
	floor bool
	code  float64
	spec  []specLimit
}

// judge compares constant x, which a function of concept c compares field
// k with, with the spec's bounds on that field. A value (measure "") is
// judged by order comparisons only, against the spec's range: one outside
// it contradicts the spec, whatever the branch. A count (a length, a word
// count) is judged in validations only, where the branch is known: its
// floor against the spec's floors, its ceiling against its ceilings.
func (m *Model) judge(c Concept, k thresholdKey, x constAt) judgement {
	limits := m.kindLimits(c, k)
	if len(limits) == 0 {
		return judgement{}
	}
	if k.measure == "" {
		switch x.op {
		case "<", "<=", ">", ">=":
		default:
			return judgement{}
		}
		j := judgement{verdict: inside}
		v := x.value
		if x.scaled { // quality_score 70 is metrics.quality 0.70
			v = x.norm
		}
		for _, l := range limits {
			if l.Measure != "" {
				continue
			}
			j.spec = append(j.spec, l)
			switch {
			case l.Op[0] == '>' && v < l.Value, l.Op[0] == '<' && v > l.Value:
				j.verdict = contradicts
			case v == l.Value && j.verdict == inside:
				j.verdict = agrees
			}
		}
		if j.spec == nil {
			return judgement{}
		}
		return j
	}
	if c != DelegateValidation && c != HandbackValidation {
		return judgement{}
	}
	floor, v, ok := countBound(x)
	if !ok {
		return judgement{}
	}
	j := judgement{floor: floor, code: v}
	for _, l := range limits {
		if l.Measure != k.measure {
			continue
		}
		var sv float64
		switch l.Op {
		case ">=":
			sv = l.Value
		case ">":
			sv = math.Floor(l.Value) + 1
		case "<=":
			sv = l.Value
		case "<":
			sv = math.Ceil(l.Value) - 1
		}
		if (l.Op[0] == '>') != floor {
			continue
		}
		j.spec = append(j.spec, l)
		if sv == v {
			j.verdict = agrees
		}
	}
	if j.spec == nil {
		return judgement{}
	}
	if j.verdict != agrees {
		j.verdict = contradicts
	}
	return j
}

// specFindings reports the comparisons of candidate cd that the spec
// contradicts, one finding per comparison.
func (m *Model) specFindings(cd *Candidate, ths map[thresholdKey][]constAt) []finding.Finding {
	var out []finding.Finding
	for _, k := range slices.SortedFunc(maps.Keys(ths), thresholdKey.compare) {
		for _, x := range ths[k] {
			j := m.judge(cd.Concept, k, x)
			if j.verdict != contradicts {
				continue
			}
			out = append(out, m.specFinding(cd, k, x, j))
		}
	}
	return out
}

func (m *Model) specFinding(cd *Candidate, k thresholdKey, x constAt, j judgement) finding.Finding {
	written := x.op + " " + num(x.value)
	if x.name != "" {
		written = fmt.Sprintf("%s %s = %s", x.op, x.name, num(x.value))
	}
	fd := finding.Finding{Rule: RuleSpecThreshold, Severity: finding.Error,
		Location: finding.Location{Path: cd.Path, Line: x.pos.Line, Col: x.pos.Col}, Literal: num(x.value)}
	if k.measure == "" {
		fd.Message = fmt.Sprintf("%s compares %s with %s (%s), outside the spec's range: %s",
			cd.Fn.Name, x.field, num(x.value), written, specBounds(j.spec))
		return fd
	}
	dir := "at most"
	if j.floor {
		dir = "at least"
	}
	fd.Message = fmt.Sprintf("%s holds %s to %s %s (%s); the spec says %s",
		cd.Fn.Name, subject(x.field, k.measure), dir, num(j.code), written, specBounds(j.spec))
	fd.Literal, fd.Canonical = num(j.code), num(j.spec[0].Value)
	return fd
}

// specBounds names the spec's bounds and where it writes them:
// "minWords 15 (docs/specs/protocol-core-v1.0.yaml:64)".
func specBounds(ls []specLimit) string {
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = fmt.Sprintf("%s %s (%s:%d)", l.Keyword, num(l.Value), l.File, l.Line)
	}
	return strings.Join(parts, ", ")
}
