// Package divergence finds protocol decisions implemented more than once:
// escalation decisions, DELEGATE and HANDBACK validation and status
// normalisation written again in several places and languages, and the
// copies that compare the same protocol field with different constants.
//
// It works on function facts (languages/facts.Function): a function is a
// candidate when its name or body ties it to one of those concepts AND it
// reads the protocol's fields (from the spec in effect), so a validate() of
// URLs or an escalation of log levels is never one. An escalation decision
// is also found by what it does on a score of the work (subject.go): it
// escalates, or routes to a human or principal reviewer, when
// quality_score, confidence or metrics.quality crosses a cut-off; scores
// are compared on one scale (quality_score 70 is metrics.quality 0.70).
// Functions of vendored code (third_party/) are no candidates.
// Candidates of one concept are clustered when their bodies share
// structure (the winnowed
// fingerprints of languages/shape, which erase names, values and language)
// or when they compare the same protocol field with constants. Each cluster
// of two or more is one finding; differing constants are another. A
// threshold is a literal, a named constant, a parameter's default or a
// constant of another file (Resolve looks those up over the tree), and
// every candidate's thresholds are judged against the spec's bounds
// (RuleSpecThreshold). A validation's required fields (the fields it
// refuses a message without, facts.Function.Required) are judged against
// the spec's required fields and the former names of its fields, and
// between the copies of one validation (RuleRequiredFields), where the
// function shows protocol evidence of the kind it validates.
//
// There are two faces, as for enumdrift: Candidates + Cluster for the
// polyglot scan, and Analyzer for go vet, which exports each package's
// candidates as facts so that copies in imported packages are found too.
package divergence

import (
	"strings"

	"github.com/protoscan-dev/protoscan/internal/glob"
	"github.com/protoscan-dev/protoscan/languages/shape"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// Options configure the model beyond the spec.
type Options struct {
	// Canonical names the canonical implementations: "GLOB" (a slash path
	// glob, doublestar syntax, matched against the file) or "GLOB:NAME"
	// (a function or method in it). By default, a function in a module
	// named after the protocol validator is canonical. NewModel compiles
	// the globs with internal/glob; one it refuses names nothing.
	Canonical []string
	// SpecName names a spec file in findings (the spec's file:line of
	// divergence/spec-threshold), as the report names files: a spec
	// inside the scanned tree relative to it. Nil keeps the name the
	// spec was loaded by (msgcheck.Limit.File).
	SpecName func(file string) string
}

// Model is what divergence knows about the protocol, from the spec.
type Model struct {
	// fields maps a normalized field name (top-level fields, nested
	// properties and their dotted paths) to the kinds that define it.
	fields   map[string]kindSet
	top      map[string]bool // the top-level fields
	statuses map[string]bool // canonical HANDBACK statuses and aliases, lower case
	limits   map[thresholdKey][]specLimit
	opts     Options
	// spec is the spec the model is read from: its kinds are what
	// protocol evidence (package msgcheck/evidence) is evidence of.
	spec *msgcheck.Spec
	// canonical is opts.Canonical compiled
	canonical []canonicalGlob
	// the prefilter's needles: protocol fields and statuses
	fieldNeedles  []fieldNeedle
	statusNeedles [][]byte
	// fmts are the spec's formats of fields, compiled on first use
	// (format.go)
	fmts formatModel
}

// canonicalGlob is an entry of Options.Canonical compiled.
type canonicalGlob struct {
	glob    *glob.Glob // nil: the glob was refused
	name    string
	hasName bool
}

type kindSet uint8

// specLimit is a bound of the spec and the kind whose field it bounds.
type specLimit struct {
	msgcheck.Limit
	kind kindSet
}

const (
	kindDelegate kindSet = 1 << iota
	kindHandback
)

// genericFields are protocol fields whose names are common outside the
// protocol (an HTTP status, a parser's context, an OAuth scope): reading
// one of them alone does not make a function protocol code.
var genericFields = map[string]bool{
	"status": true, "output": true, "context": true, "plan": true, "agent": true, "skill": true,
	"metrics": true, "cost": true, "tokens": true, "priority": true, "effort": true,
	"dependencies": true, "scope": true, "version": true,
}

// NewModel reads the fields, statuses and bounds of the DELEGATE and
// HANDBACK kinds from spec.
func NewModel(spec *msgcheck.Spec, opts Options) *Model {
	m := &Model{fields: map[string]kindSet{}, top: map[string]bool{}, statuses: map[string]bool{},
		limits: map[thresholdKey][]specLimit{}, opts: opts, spec: spec}
	for _, pat := range opts.Canonical {
		g, name, hasName := strings.Cut(pat, ":")
		c := canonicalGlob{name: name, hasName: hasName}
		c.glob, _ = glob.Compile(g)
		m.canonical = append(m.canonical, c)
	}
	for _, k := range []struct {
		name string
		set  kindSet
	}{{"delegate", kindDelegate}, {"handback", kindHandback}} {
		for _, f := range spec.Fields(k.name) {
			m.fields[shape.FieldName(f)] |= k.set
			m.top[shape.FieldName(f)] = true
		}
		for _, l := range spec.Limits(k.name) {
			p := shape.FieldName(l.Path)
			m.fields[p] |= k.set
			if i := strings.LastIndexByte(p, '.'); i >= 0 {
				m.fields[p[i+1:]] |= k.set // metrics.quality is read as quality too
			}
			if opts.SpecName != nil {
				l.File = opts.SpecName(l.File)
			}
			key := thresholdKey{last(p), l.Measure}
			m.limits[key] = append(m.limits[key], specLimit{l, k.set})
		}
	}
	if values, aliases, ok := spec.Enum("handback", "status"); ok {
		for _, v := range values {
			m.statuses[strings.ToLower(v)] = true
		}
		for a := range aliases {
			m.statuses[strings.ToLower(a)] = true
		}
	}
	m.buildPrefilter()
	return m
}

// kinds returns the kinds that define the field at path p. A bare name
// ("retry_count", "quality") is a top-level field or a nested property; a
// dotted path matches by its full path or one of its suffixes
// ("handback.metrics.quality" is metrics.quality, "self.status" is status),
// so that context.client_config or scope.children, attributes of objects
// that are not messages, do not.
func (m *Model) kinds(p string) kindSet {
	if s, ok := m.fields[p]; ok {
		return s
	}
	for i := 0; i < len(p); i++ {
		if p[i] == '.' {
			if s, ok := m.fields[p[i+1:]]; ok && s != 0 && (strings.IndexByte(p[i+1:], '.') >= 0 || m.top[p[i+1:]]) {
				return s
			}
		}
	}
	return 0
}

func last(p string) string {
	if i := strings.LastIndexByte(p, '.'); i >= 0 {
		return p[i+1:]
	}
	return p
}
