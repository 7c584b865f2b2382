package divergence

import (
	"cmp"
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/shape"
)

// Clustering thresholds. Bodies shorter than minSize tokens are too small
// to say anything by shape (a one-line wrapper around the real check);
// minSimilarity is the share of fingerprint hashes two bodies must have in
// common. Both were chosen on the testdata and the two standard libraries.
const (
	minSize       = 8
	minSimilarity = 0.45
)

// thresholdKey is what a constant is compared with: the last segment of
// the field's path ("quality" for metrics.quality) and the measure.
type thresholdKey struct{ field, measure string }

// Cluster groups candidates of one concept that implement the same
// decision and returns one finding per cluster of two or more, and one per
// protocol field the members of a cluster compare with different values.
// The result does not depend on the order of cands.
func Cluster(cands []Candidate, m *Model) []finding.Finding {
	cands = slices.Clone(cands)
	slices.SortFunc(cands, func(a, b Candidate) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Fn.Pos.Offset, b.Fn.Pos.Offset), cmp.Compare(a.Fn.Name, b.Fn.Name))
	})
	cands = slices.CompactFunc(cands, func(a, b Candidate) bool {
		return a.Path == b.Path && a.Fn.Pos == b.Fn.Pos && a.Fn.Name == b.Fn.Name
	})
	ths := make([]map[thresholdKey][]constAt, len(cands))
	named := make([]map[thresholdKey]bool, len(cands))
	for i := range cands {
		ths[i] = m.thresholds(&cands[i].Fn)
		if cands[i].Concept == Escalation {
			ths[i] = m.escalationThresholds(&cands[i].Fn, ths[i])
		}
		named[i] = m.unresolved(&cands[i].Fn)
	}
	enumerates := m.enumerates(cands)
	parent := make([]int, len(cands))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for i := range cands {
		for j := i + 1; j < len(cands); j++ {
			if cands[i].Concept != cands[j].Concept || find(i) == find(j) {
				continue
			}
			if similar(&cands[i].Fn, &cands[j].Fn) && !otherScore(&cands[i], ths[i], ths[j]) || sharesThreshold(ths[i], named[i], ths[j], named[j]) || enumerates[i] && enumerates[j] {
				parent[find(j)] = find(i)
			}
		}
	}
	groups := map[int][]int{}
	var roots []int
	for i := range cands {
		r := find(i)
		if groups[r] == nil {
			roots = append(roots, r)
		}
		groups[r] = append(groups[r], i)
	}
	var out []finding.Finding
	for i := range cands {
		out = append(out, m.specFindings(&cands[i], ths[i])...)
		out = append(out, m.requiredFindings(&cands[i])...)
	}
	out = append(out, canonicalFormats(cands)...)
	for _, r := range roots {
		if members := groups[r]; len(members) >= 2 && hasCode(cands, members) {
			c := &cluster{m: m}
			for _, i := range members {
				c.members = append(c.members, &cands[i])
				c.ths = append(c.ths, ths[i])
			}
			out = append(out, c.findings()...)
		}
	}
	finding.Sort(out)
	return out
}

func similar(a, b *facts.Function) bool {
	return a.Size >= minSize && b.Size >= minSize && shape.Similarity(a.Shape, b.Shape) >= minSimilarity
}

// sharesThreshold reports whether two candidates compare a protocol field
// with a constant: a number (a), or a named constant whose value is not
// known (named), which is still the same comparison.
func sharesThreshold(a map[thresholdKey][]constAt, an map[thresholdKey]bool, b map[thresholdKey][]constAt, bn map[thresholdKey]bool) bool {
	for k := range a {
		if _, ok := b[k]; ok || bn[k] {
			return true
		}
	}
	for k := range an {
		if _, ok := b[k]; ok || bn[k] {
			return true
		}
	}
	return false
}

// constAt is a numeric constant a protocol field is compared with.
type constAt struct {
	value float64
	op    string
	field string // the path as the source reads it
	pos   facts.Pos
	name  string // the constant or parameter it comes from, if named
	// norm is what copies are compared by: the value, or for a count
	// (a length, a number of words) compared by order, the first count
	// on the upper side (< 15, >= 15 and <= 14 all split at 15)
	norm   float64
	branch facts.Branch
	// scaled: value is on 0–100 and norm is it on 0–1 (quality_score 70
	// is 0.70)
	scaled bool
}

// thresholds returns the numeric constants fn compares protocol fields
// with, by field and measure, each bound once, in ascending order.
func (m *Model) thresholds(fn *facts.Function) map[thresholdKey][]constAt {
	var out map[thresholdKey][]constAt
	for _, c := range fn.Consts {
		v, ok := c.Value.(float64)
		if !ok || c.Field == "" || m.kinds(c.Field) == 0 {
			continue
		}
		if out == nil {
			out = map[thresholdKey][]constAt{}
		}
		k := thresholdKey{last(c.Field), c.Measure}
		x := constAt{value: v, op: c.Op, field: c.Field, pos: c.Pos, name: c.Name, norm: v, branch: c.Branch}
		if c.Measure != "" {
			if b, ok := countBoundary(c.Op, v); ok {
				x.norm = b
			}
		}
		if !slices.ContainsFunc(out[k], func(y constAt) bool { return y.norm == x.norm }) {
			out[k] = append(out[k], x)
		}
	}
	for k := range out {
		slices.SortFunc(out[k], func(a, b constAt) int { return cmp.Compare(a.norm, b.norm) })
	}
	return out
}

// unresolved returns the protocol fields fn compares with a named
// constant whose value is not known (of a file the scan does not hold).
func (m *Model) unresolved(fn *facts.Function) map[thresholdKey]bool {
	var out map[thresholdKey]bool
	for _, c := range fn.Consts {
		if c.Value != nil || c.Ref == "" || c.Field == "" || m.kinds(c.Field) == 0 {
			continue
		}
		if out == nil {
			out = map[thresholdKey]bool{}
		}
		out[thresholdKey{last(c.Field), c.Measure}] = true
	}
	return out
}

// cluster is a group of two or more candidates of one concept.
type cluster struct {
	m       *Model
	members []*Candidate
	ths     []map[thresholdKey][]constAt
	ref     int    // the canonical member, or -1
	refWhy  string // "canonical", "agrees with the spec"
	agrees  []bool // per member, for validation: its values are the spec's
	hasSpec bool   // whether any member compares a field the spec bounds
}

// Rule ids of this analyzer.
const (
	RuleDuplicateEscalation    = "divergence/duplicate-escalation"
	RuleDuplicateValidation    = "divergence/duplicate-validation"
	RuleDuplicateNormalization = "divergence/duplicate-normalization"
	RuleConflictingThreshold   = "divergence/conflicting-threshold"
)

func (c *cluster) findings() []finding.Finding {
	c.pickReference()
	code := c.code()
	if len(code) < 2 {
		// one implementation and a document: compared, not duplicated
		return c.conflicts()
	}
	first := code[0]
	rule := RuleDuplicateValidation
	switch first.Concept {
	case Escalation:
		rule = RuleDuplicateEscalation
	case StatusNormalization:
		rule = RuleDuplicateNormalization
	}
	names := make([]string, 0, len(code))
	langs := map[string]bool{}
	related := make([]finding.Location, 0, len(code))
	for i, mb := range c.members {
		if mb.Doc {
			continue
		}
		names = append(names, mb.Fn.Name)
		langs[mb.Lang] = true
		related = append(related, finding.Location{Path: mb.Path, Line: mb.Fn.Pos.Line, Col: mb.Fn.Pos.Col, Message: c.describe(i)})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s implemented %d times (%s)", first.Concept, len(code), joinAnd(names))
	if len(langs) > 1 {
		fmt.Fprintf(&b, " in %d languages", len(langs))
	}
	b.WriteString(c.verdict())
	dup := finding.Finding{Rule: rule, Severity: finding.Warning, Message: b.String(), Related: related,
		Location: finding.Location{Path: first.Path, Line: first.Fn.Pos.Line, Col: first.Fn.Pos.Col}}
	return append(append([]finding.Finding{dup}, c.conflicts()...), c.requiredDiffer()...)
}

// pickReference finds the canonical member: one Options.Canonical or the
// default rule names, else (for validation) the first whose bounds are
// the spec's.
func (c *cluster) pickReference() {
	c.ref = -1
	for i, mb := range c.members {
		if mb.Canonical {
			c.ref, c.refWhy = i, "canonical"
			break
		}
	}
	if c.members[0].Concept != DelegateValidation && c.members[0].Concept != HandbackValidation {
		return
	}
	c.agrees = make([]bool, len(c.members))
	for i, mb := range c.members {
		judged, ok := 0, true
		for k, cs := range c.ths[i] {
			for _, x := range cs {
				switch c.m.judge(mb.Concept, k, x).verdict {
				case agrees:
					judged++
				case contradicts:
					judged++
					ok = false
				}
			}
		}
		if judged > 0 {
			c.hasSpec = true
		}
		c.agrees[i] = judged > 0 && ok
		if c.agrees[i] && c.ref < 0 {
			c.ref, c.refWhy = i, "agrees with the spec"
		}
	}
}

// verdict says which member to keep.
func (c *cluster) verdict() string {
	if c.ref < 0 {
		if c.hasSpec {
			return "; none of them matches the spec's bounds: keep one, fix it and call it from the others"
		}
		return "; keep one and call it from the others"
	}
	ref := c.members[c.ref]
	var agree, differ []string
	for i, mb := range c.members {
		if i == c.ref || mb.Doc {
			continue
		}
		if c.sameAs(i, c.ref) {
			agree = append(agree, mb.Fn.Name)
		} else {
			differ = append(differ, mb.Fn.Name)
		}
	}
	var b strings.Builder
	if c.refWhy == "canonical" {
		fmt.Fprintf(&b, "; %s (%s) is the canonical one", ref.Fn.Name, where(ref))
	} else {
		fmt.Fprintf(&b, "; %s (%s) agrees with the spec", ref.Fn.Name, where(ref))
	}
	if len(agree) > 0 {
		fmt.Fprintf(&b, "; %s %s with it", joinAnd(agree), verb(len(agree), "agrees", "agree"))
	}
	if len(differ) > 0 {
		fmt.Fprintf(&b, "; %s %s from it", joinAnd(differ), verb(len(differ), "differs", "differ"))
	}
	b.WriteString(": call it instead of repeating it")
	return b.String()
}

func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// sameAs reports whether members i and j compare every protocol field
// they share with the same values.
func (c *cluster) sameAs(i, j int) bool {
	for k, a := range c.ths[i] {
		b, ok := c.ths[j][k]
		if ok && !sameValues(a, b) {
			return false
		}
	}
	return true
}

func sameValues(a, b []constAt) bool {
	return slices.EqualFunc(a, b, func(x, y constAt) bool { return x.norm == y.norm })
}

// describe is the related-location text of member i: its name, language
// and the thresholds it uses.
func (c *cluster) describe(i int) string {
	mb := c.members[i]
	var parts []string
	for _, k := range slices.SortedFunc(maps.Keys(c.ths[i]), thresholdKey.compare) {
		for _, x := range c.ths[i][k] {
			parts = append(parts, fmt.Sprintf("%s %s %s", subject(x.field, k.measure), x.op, operand(x)))
		}
	}
	s := fmt.Sprintf("%s (%s)", mb.Fn.Name, mb.Lang)
	if i == c.ref {
		s += " [" + c.refWhy + "]"
	}
	if len(parts) > 0 {
		s += ": " + strings.Join(parts, ", ")
	}
	return s
}

// conflicts returns one finding per protocol field that members compare
// with different values.
func (c *cluster) conflicts() []finding.Finding {
	keys := map[thresholdKey]bool{}
	for _, t := range c.ths {
		for k := range t {
			keys[k] = true
		}
	}
	var out []finding.Finding
	for _, k := range slices.SortedFunc(maps.Keys(keys), thresholdKey.compare) {
		var users []int
		for i, t := range c.ths {
			if _, ok := t[k]; ok {
				users = append(users, i)
			}
		}
		if len(users) < 2 || !c.differ(k, users) {
			continue
		}
		out = append(out, c.conflict(k, users))
	}
	return out
}

func (c *cluster) differ(k thresholdKey, users []int) bool {
	for _, i := range users[1:] {
		if !sameValues(c.ths[i][k], c.ths[users[0]][k]) {
			return true
		}
	}
	return false
}

// conflict reports field k at the first member that differs from the
// reference (or at the first member when there is none).
func (c *cluster) conflict(k thresholdKey, users []int) finding.Finding {
	at := users[0]
	var refVals []constAt
	if c.ref >= 0 {
		refVals = c.ths[c.ref][k]
	}
	if refVals != nil {
		for _, i := range users {
			if !sameValues(c.ths[i][k], refVals) {
				at = i
				break
			}
		}
	}
	field := k.field
	var parts []string
	var related []finding.Location
	for _, i := range users {
		mb := c.members[i]
		vals := c.ths[i][k]
		for _, x := range vals {
			if len(x.field) > len(field) {
				field = x.field
			}
		}
		note := ""
		if i == c.ref {
			note = ", " + c.refWhy
		}
		parts = append(parts, fmt.Sprintf("%s in %s (%s%s)", writtenList(vals), mb.Fn.Name, where(mb), note))
		related = append(related, finding.Location{Path: mb.Path, Line: vals[0].pos.Line, Col: vals[0].pos.Col,
			Message: fmt.Sprintf("%s %s %s in %s", subject(vals[0].field, k.measure), vals[0].op, operands(vals), mb.Fn.Name)})
	}
	msg := fmt.Sprintf("%s is compared with different values in copies of one %s: %s", subject(field, k.measure),
		c.members[0].Concept, strings.Join(parts, "; "))
	if limits := c.m.kindLimits(c.members[0].Concept, k); len(limits) > 0 && c.agrees != nil {
		msg += fmt.Sprintf("; the spec says %s", limitText(field, k.measure, limits))
	}
	mb := c.members[at]
	x := c.ths[at][k][0]
	fd := finding.Finding{Rule: RuleConflictingThreshold, Severity: finding.Error, Message: msg, Related: related,
		Location: finding.Location{Path: mb.Path, Line: x.pos.Line, Col: x.pos.Col}, Literal: numList(c.ths[at][k])}
	if refVals != nil {
		fd.Canonical = onScaleOf(c.ths[at][k][0], refVals)
	}
	return fd
}

func where(mb *Candidate) string {
	return fmt.Sprintf("%s:%d", mb.Path, mb.Fn.Pos.Line)
}

// subject names what a constant is compared with: "metrics.quality", "the
// words of scope", "the length of plan".
func subject(field, measure string) string {
	switch measure {
	case "words":
		return "the word count of " + field
	case "len":
		return "the length of " + field
	}
	return field
}

func limitText(field, measure string, limits []specLimit) string {
	parts := make([]string, len(limits))
	for i, l := range limits {
		parts[i] = fmt.Sprintf("%s %s", l.Op, num(l.Value))
	}
	return subject(field, measure) + " " + strings.Join(parts, " and ")
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// operand is how the code writes a constant: its value, and the
// constant or parameter that names it ("MIN_SCOPE_WORDS (10)").
func operand(x constAt) string {
	switch {
	case x.name != "" && x.scaled:
		return fmt.Sprintf("%s = %s", x.name, written(x)) // QUALITY_FLOOR = 70 (0.70)
	case x.name != "":
		return fmt.Sprintf("%s (%s)", x.name, num(x.value))
	}
	return written(x)
}

func operands(cs []constAt) string {
	parts := make([]string, len(cs))
	for i, x := range cs {
		parts[i] = operand(x)
	}
	return strings.Join(parts, ", ")
}

func numList(cs []constAt) string {
	parts := make([]string, len(cs))
	for i, x := range cs {
		parts[i] = num(x.value)
	}
	return strings.Join(parts, ", ")
}

func joinAnd(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// compare orders threshold keys by field, then measure.
func (a thresholdKey) compare(b thresholdKey) int {
	return cmp.Or(cmp.Compare(a.field, b.field), cmp.Compare(a.measure, b.measure))
}

// isCanonical applies Options.Canonical, or by default names canonical a
// function in a module named after the protocol validator.
func (m *Model) isCanonical(rel, fn string) bool {
	if len(m.opts.Canonical) == 0 {
		for _, seg := range strings.Split(rel, "/") {
			seg = strings.TrimSuffix(seg, path.Ext(seg))
			if n := strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(seg)); n == "protocolvalidator" {
				return true
			}
		}
		return false
	}
	for _, c := range m.canonical {
		if c.glob == nil || !c.glob.Match(rel) {
			continue
		}
		if !c.hasName || c.name == fn || strings.HasSuffix(fn, "."+c.name) {
			return true
		}
	}
	return false
}
