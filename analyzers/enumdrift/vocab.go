package enumdrift

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/protoscan/protoscan/msgcheck"
)

// Vocabulary is what the analyzer knows of the HANDBACK status, all of it
// read from the loaded spec (plus a repository's configured synonyms):
// never from constants in this package.
type Vocabulary struct {
	Canonical []string // the enum, in spec order
	canonical map[string]bool
	lower     map[string]string // lower-cased spelling -> canonical value
	aliases   map[string]string // lower-cased legacy spelling -> canonical value
	// handback holds the normalized names of a HANDBACK's fields other
	// than status.
	handback  map[string]bool
	coreNames []string // the required HANDBACK fields besides status, as the spec spells them
	// spec is the spec the vocabulary is read from: its shape predicate
	// tells which mappings are HANDBACKs.
	spec *msgcheck.Spec
	// protocol is the protocol the spec names (protocol-core when it names
	// none): a spec in the repository declares HANDBACK statuses only when
	// it is a spec of this protocol.
	protocol string
}

// defaultProtocol is the protocol of a spec that names none: msgcheck's
// own spec of DELEGATE and HANDBACK.
const defaultProtocol = "protocol-core"

// handbackKind is the spec's kind whose status the analyzer judges.
const handbackKind = "handback"

// knownLegacy returns the legacy spellings the embedded spec knows
// (done, complete, failed...) that fit v's statuses: a spelling that is
// not one of them, for a canonical status that is. A repository whose
// spec declares no aliases still means success by "done".
func knownLegacy(v *Vocabulary) map[string]string {
	_, def, _ := msgcheck.DefaultSpec().Enum(handbackKind, "status")
	out := map[string]string{}
	for from, to := range def {
		if _, isStatus := v.lower[strings.ToLower(from)]; !isStatus && v.canonical[to] {
			out[from] = to
		}
	}
	return out
}

// NewVocabulary reads the status enum and its aliases from the spec's
// handback kind; a spec without aliases gets the embedded spec's legacy
// spellings that fit its enum. synonyms adds legacy spellings (spelling
// -> canonical).
func NewVocabulary(spec *msgcheck.Spec, synonyms map[string]string) (*Vocabulary, error) {
	values, aliases, ok := spec.Enum(handbackKind, "status")
	if !ok {
		return nil, fmt.Errorf("spec %s has no string enum for handback.status", spec.Source)
	}
	v := &Vocabulary{Canonical: values, canonical: map[string]bool{}, lower: map[string]string{},
		aliases: map[string]string{}, handback: map[string]bool{},
		spec: spec, protocol: cmp.Or(strings.TrimSpace(spec.Protocol), defaultProtocol)}
	for _, c := range values {
		v.canonical[c] = true
		v.lower[strings.ToLower(c)] = c
	}
	if len(aliases) == 0 {
		aliases = knownLegacy(v)
	}
	for from, to := range aliases {
		v.aliases[strings.ToLower(from)] = to
	}
	for from, to := range synonyms {
		if !v.canonical[to] {
			return nil, fmt.Errorf("synonym %q maps to %q, which is not a HANDBACK status (%s)", from, to, strings.Join(values, ", "))
		}
		v.aliases[strings.ToLower(from)] = to
	}
	required := map[string]bool{}
	for _, f := range spec.Required(handbackKind) {
		required[f] = true
	}
	for _, f := range spec.Fields(handbackKind) {
		if f == "status" {
			continue
		}
		v.handback[normKey(f)] = true
		if required[f] {
			v.coreNames = append(v.coreNames, f)
		}
	}
	return v, nil
}

// class is how a spelling relates to the enum.
type class uint8

const (
	canonical class = iota
	caseDrift       // SUCCESS for success
	legacy          // failed for failure: an alias the spec or config names
	unknown         // waiting: no relation to the enum
)

// classify tells how value relates to the enum and, unless unknown, which
// canonical value it stands for.
func (v *Vocabulary) classify(value string) (class, string) {
	if v.canonical[value] {
		return canonical, value
	}
	low := strings.ToLower(strings.TrimSpace(value))
	if c, ok := v.lower[low]; ok {
		return caseDrift, c
	}
	if c, ok := v.aliases[low]; ok {
		return legacy, c
	}
	return unknown, ""
}

// normKey folds the spellings of one field name together: task_id, taskId,
// TaskID and task-id are all "taskid".
func normKey(k string) string {
	var b strings.Builder
	for _, r := range k {
		switch {
		case r == '_' || r == '-':
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r + 'a' - 'A')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isStatusKey(k string) bool { return normKey(k) == "status" }

func (v *Vocabulary) enumText() string { return strings.Join(v.Canonical, ", ") }

// missing lists the canonical values none of covered stands for.
func (v *Vocabulary) missing(covered map[string]bool) []string {
	var out []string
	for _, c := range v.Canonical {
		if !covered[c] {
			out = append(out, c)
		}
	}
	return out
}
