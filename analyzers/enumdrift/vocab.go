package enumdrift

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/msgcheck"
)

// Vocabulary is what the analyzer knows of the protocol's enums, all of it
// read from the loaded specs (plus a repository's configured synonyms and
// the alias tables its code holds): never from constants in this package.
type Vocabulary struct {
	// Canonical is the HANDBACK status enum, in spec order.
	Canonical []string
	// status is the HANDBACK status; enums holds it first, then every
	// other string enum of a field of a kind of the specs, in spec order.
	status  *Enum
	enums   []*Enum
	byField map[string][]*Enum // normalized field name -> its enums
	// inMessages is byField with the marker field's enums: its values
	// name the kinds, so only a message's own marker is judged by them
	// (handoff_type: Delegate in a DELEGATE); code that tells the kinds
	// apart compares it with every kind's name.
	inMessages map[string][]*Enum
	// ev is what MayShowEvidence looks for, made once.
	ev *evidenceNeedles
	// former holds the enums by the normalized former names of their
	// fields (role for agent), which a file's checker reads only where
	// the file handles the kind (see former.go)
	former map[string][]*Enum
	// withFormer is the vocabulary that reads former names as their
	// fields, made once when first needed
	withFormer func() *Vocabulary
}

// Enum is the string enum of one field of one kind of a spec.
type Enum struct {
	Kind, Field string // as the spec spells them: handback, status
	Canonical   []string
	canonical   map[string]bool
	lower       map[string]string // lower-cased spelling -> canonical value
	folded      map[string]string // spelling without case and separators -> canonical value, when only one folds so
	aliases     map[string]string // lower-cased legacy spelling -> canonical value
	// learned holds the legacy spellings of the repository's own alias
	// tables (see LearnAliases), lower-cased.
	learned map[string]Alias
	// others holds the normalized names of the kind's fields other than
	// this one; coreNames the required ones, as the spec spells them.
	others    map[string]bool
	coreNames []string
	// spec is the spec the enum is read from: its shape predicate tells
	// which mappings are messages of the kind.
	spec *msgcheck.Spec
	// protocol is the protocol the spec names (protocol-core when it names
	// none): a spec in the repository declares this enum only when it is
	// a spec of this protocol.
	protocol string
	// rules are the enum's rule ids, words what its messages call it:
	// the HANDBACK status keeps the ids and words it was first reported
	// under (statusRules, statusWords), every other enum shares the
	// value-* ones.
	rules ruleIDs
	words wording
	// common says its words are common words (continue, merge, abort):
	// a definition of it needs two exact values, and the prefilter the
	// field's name. The HANDBACK status's words are not.
	common bool
	// matrix says its uses are the report's drift matrix (StatusUse).
	matrix bool
	// formerly are the names older messages give the field (the spec's
	// formerly keyword: role for a DELEGATE's agent)
	formerly []string
}

// ruleIDs are the rules of an enum's drift: case and separators, a
// legacy spelling, a value of no spelling, a definition that lacks
// values.
type ruleIDs struct{ cases, legacy, unknown, missing string }

// wording is what an enum's messages call a value ("status", "DELEGATE
// agent value"), its values ("HANDBACK statuses"), and the list of them
// ("statuses", "values").
type wording struct{ noun, plural, list string }

var (
	statusRules = ruleIDs{RuleCase, RuleLegacy, RuleUnknown, RuleMissing}
	valueRules  = ruleIDs{RuleValueCase, RuleValueLegacy, RuleValueUnknown, RuleValueMissing}
	statusWords = wording{noun: "status", plural: "HANDBACK statuses", list: "statuses"}
)

// asHandbackStatus makes e the HANDBACK status: its own rule ids and
// words, words that are not common, and the drift matrix.
func (e *Enum) asHandbackStatus() {
	e.rules, e.words, e.common, e.matrix = statusRules, statusWords, false, true
}

// Alias is a legacy spelling a repository's alias table maps to a
// canonical value: the table is where the finding points for the reason.
type Alias struct {
	To    string
	Table Place
}

// Place is where an alias table is: a file and a line.
type Place struct {
	Path      string
	Line, Col int
}

// defaultProtocol is the protocol of a spec that names none: msgcheck's
// own spec of DELEGATE and HANDBACK.
const defaultProtocol = "protocol-core"

// handbackKind is the spec's kind whose status has its own rules.
const handbackKind = "handback"

// knownLegacy returns the legacy spellings the embedded spec knows
// (done, complete, failed...) that fit e's values: a spelling that is not
// one of them, for a canonical value that is. A repository whose spec
// declares no aliases still means success by "complete".
func knownLegacy(e *Enum) map[string]string {
	_, def, _ := msgcheck.DefaultSpec().Enum(e.Kind, e.Field)
	out := map[string]string{}
	for from, to := range def {
		if _, isValue := e.lower[strings.ToLower(from)]; !isValue && e.canonical[to] {
			out[from] = to
		}
	}
	return out
}

// NewVocabulary reads the enums of spec and of more (the specs of the
// other protocols in use): the handback kind's status, which spec must
// have, and every other string enum of a kind's field. An enum without
// aliases gets the embedded spec's legacy spellings that fit it.
// synonyms adds legacy HANDBACK statuses (spelling -> canonical).
func NewVocabulary(spec *msgcheck.Spec, synonyms map[string]string, more ...*msgcheck.Spec) (*Vocabulary, error) {
	status, ok := newEnum(spec, handbackKind, "status")
	if !ok {
		return nil, fmt.Errorf("spec %s has no string enum for handback.status", spec.Source)
	}
	status.asHandbackStatus()
	for from, to := range synonyms {
		if !status.canonical[to] {
			return nil, fmt.Errorf("synonym %q maps to %q, which is not a HANDBACK status (%s)", from, to, strings.Join(status.Canonical, ", "))
		}
		status.aliases[strings.ToLower(from)] = to
	}
	v := &Vocabulary{Canonical: status.Canonical, status: status, enums: []*Enum{status}, byField: map[string][]*Enum{},
		ev: &evidenceNeedles{}}
	v.inMessages = map[string][]*Enum{}
	v.index(status)
	seen := map[string]bool{}
	for _, sp := range append([]*msgcheck.Spec{spec}, more...) {
		if sp == nil || seen[sp.Source] {
			continue
		}
		seen[sp.Source] = true
		for _, kind := range sp.Kinds() {
			for _, field := range sp.Fields(kind) {
				if sp == spec && kind == handbackKind && field == "status" {
					continue
				}
				if e, ok := newEnum(sp, kind, field); ok {
					v.enums = append(v.enums, e)
					v.index(e)
				}
			}
		}
	}
	v.indexFormer()
	v.ev.specs = v.specs()
	return v, nil
}

func newEnum(spec *msgcheck.Spec, kind, field string) (*Enum, bool) {
	values, aliases, ok := spec.Enum(kind, field)
	if !ok || len(values) == 0 {
		return nil, false
	}
	e := &Enum{Kind: kind, Field: field, Canonical: values, canonical: map[string]bool{}, lower: map[string]string{},
		folded: map[string]string{}, aliases: map[string]string{}, others: map[string]bool{},
		spec: spec, protocol: cmp.Or(strings.TrimSpace(spec.Protocol), defaultProtocol), rules: valueRules, common: true}
	e.words = wording{noun: e.label() + " value", plural: e.label() + " values", list: "values"}
	ambiguous := map[string]bool{}
	for _, c := range values {
		e.canonical[c] = true
		e.lower[strings.ToLower(c)] = c
		f := normKey(c)
		if _, dup := e.folded[f]; dup {
			ambiguous[f] = true
		}
		e.folded[f] = c
	}
	for f := range ambiguous {
		delete(e.folded, f)
	}
	for old, cur := range spec.FormerNames(kind) {
		if cur == field {
			e.formerly = append(e.formerly, old)
		}
	}
	slices.Sort(e.formerly)
	if len(aliases) == 0 {
		aliases = knownLegacy(e)
	}
	for from, to := range aliases {
		e.aliases[strings.ToLower(from)] = to
	}
	required := map[string]bool{}
	for _, f := range spec.Required(kind) {
		required[f] = true
	}
	for _, f := range spec.Fields(kind) {
		if f == field {
			continue
		}
		e.others[normKey(f)] = true
		if required[f] {
			e.coreNames = append(e.coreNames, f)
		}
	}
	return e, true
}

// Enums returns the kind.field names of the enums the vocabulary holds,
// the HANDBACK status first.
func (v *Vocabulary) Enums() []string {
	out := make([]string, len(v.enums))
	for i, e := range v.enums {
		out[i] = e.Kind + "." + e.Field
	}
	return out
}

// fieldEnums returns the enums of the field a key names, in any spelling.
func (v *Vocabulary) fieldEnums(key string) []*Enum {
	if key == "" {
		return nil
	}
	return v.byField[normKey(key)]
}

// messageEnums is fieldEnums for the fields of a message mapping, whose
// marker is judged too.
func (v *Vocabulary) messageEnums(key string) []*Enum {
	if key == "" {
		return nil
	}
	return v.inMessages[normKey(key)]
}

// index files e under its field's name.
func (v *Vocabulary) index(e *Enum) {
	k := normKey(e.Field)
	v.inMessages[k] = append(v.inMessages[k], e)
	if e.Field != msgcheck.MarkerField {
		v.byField[k] = append(v.byField[k], e)
	}
}

// label is how findings name the enum: "HANDBACK status", "DELEGATE agent".
func (e *Enum) label() string { return strings.ToUpper(e.Kind) + " " + e.Field }

// class is how a spelling relates to an enum.
type class uint8

const (
	canonical class = iota
	caseDrift       // SUCCESS for success, senior_engineer for senior-engineer
	legacy          // failed for failure: an alias the spec, config or repository names
	unknown         // waiting: no relation to the enum
)

// classify tells how value relates to the enum and, unless unknown, which
// canonical value it stands for.
func (e *Enum) classify(value string) (class, string) {
	if e.canonical[value] {
		return canonical, value
	}
	low := strings.ToLower(strings.TrimSpace(value))
	if c, ok := e.lower[low]; ok {
		return caseDrift, c
	}
	if c, ok := e.aliases[low]; ok {
		return legacy, c
	}
	if a, ok := e.learned[low]; ok {
		return legacy, a.To
	}
	if c, ok := e.folded[normKey(low)]; ok && low != "" {
		return caseDrift, c
	}
	return unknown, ""
}

// legacyTable returns the table an alias was learned from, if it was.
func (e *Enum) legacyTable(value string) (Place, bool) {
	low := strings.ToLower(strings.TrimSpace(value))
	if _, spec := e.aliases[low]; spec {
		return Place{}, false
	}
	a, ok := e.learned[low]
	return a.Table, ok
}

// normKey folds the spellings of one field name together: task_id, taskId,
// TaskID and task-id are all "taskid".
func normKey(k string) string {
	var b strings.Builder
	for _, r := range k {
		switch {
		case r == '_' || r == '-' || r == ' ':
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r + 'a' - 'A')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func (e *Enum) isField(k string) bool {
	if k == "" {
		return false
	}
	nk := normKey(k)
	if nk == normKey(e.Field) {
		return true
	}
	for _, old := range e.formerly {
		if nk == normKey(old) {
			return true // a message of the kind may hold the field under it
		}
	}
	return false
}

func (e *Enum) enumText() string {
	const most = 10
	if len(e.Canonical) <= most {
		return strings.Join(e.Canonical, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(e.Canonical[:most], ", "), len(e.Canonical)-most)
}

// missing lists the canonical values none of covered stands for.
func (e *Enum) missing(covered map[string]bool) []string {
	var out []string
	for _, c := range e.Canonical {
		if !covered[c] {
			out = append(out, c)
		}
	}
	return out
}
