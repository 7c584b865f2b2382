package enumdrift

import (
	"bytes"
	"slices"
	"strings"
	"sync"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/msgcheck"
	"github.com/protoscan-dev/protoscan/msgcheck/evidence"
)

// specs returns the specs the vocabulary's enums are read from, each once,
// in the order of the enums.
func (v *Vocabulary) specs() []*msgcheck.Spec {
	var out []*msgcheck.Spec
	for _, e := range v.enums {
		if !slices.Contains(out, e.spec) {
			out = append(out, e.spec)
		}
	}
	return out
}

// Evidence tells whether a file shows protocol evidence (package
// msgcheck/evidence) of a kind of any spec the vocabulary reads: in its
// text src (a kind's name in capitals, prose and comments included), or
// in its facts f (either may be nil).
func (v *Vocabulary) Evidence(f *facts.File, src []byte) bool {
	for _, sp := range v.ev.specs {
		if evidence.InText(src, sp) {
			return true
		}
	}
	if f == nil {
		return false
	}
	for _, sp := range v.ev.specs {
		for _, k := range sp.Kinds() {
			if evidence.Shows(f, sp, k) {
				return true
			}
		}
	}
	return false
}

// MayShowEvidence reports whether a file whose bytes, with ASCII letters
// lower-cased, are lower may show protocol evidence: it holds a kind's
// name, a spec's core_fields, or msgcheck's signs of a message of the
// vocabulary's specs (the marker, a kind's id field and core fields). A
// file without any shows none, and need not be parsed to know it.
func (v *Vocabulary) MayShowEvidence(lower []byte) bool {
	ev := v.ev
	ev.once.Do(func() {
		ev.words = [][]byte{[]byte("core_fields")}
		for _, sp := range ev.specs {
			ev.signs.AddShapes(sp)
			for _, k := range sp.Kinds() {
				ev.words = append(ev.words, []byte(strings.ToLower(k)))
				for _, w := range evidence.KindWords(k) {
					ev.words = append(ev.words, []byte(w))
				}
			}
		}
	})
	for _, n := range ev.words {
		if bytes.Contains(lower, n) {
			return true
		}
	}
	return ev.signs.In(lower)
}

// evidenceNeedles are what MayShowEvidence looks for: made once per
// vocabulary, shared by the vocabularies WithAliases makes of it, with
// the specs the evidence is of.
type evidenceNeedles struct {
	specs []*msgcheck.Spec
	once  sync.Once
	words [][]byte
	signs msgcheck.Signs
}

// Shared tells whether fd is a drift finding about everyone's words: a
// finding of this analyzer whose value stands for no canonical value, or
// for one of a single word (success, partial, blocked; high, engineer).
// Values of compound words (senior-engineer) are the protocol's own. In a
// tree that shows no protocol evidence anywhere, the scan drops shared
// findings: a task board's complete, partial and blocked are its own.
func (v *Vocabulary) Shared(fd finding.Finding) bool {
	if !isRule(fd.Rule) {
		return false
	}
	return !compound(fd.Canonical)
}

// SharedUse is Shared for a use of a HANDBACK status.
func (v *Vocabulary) SharedUse(u StatusUse) bool { return !compound(u.Canonical) }

func isRule(rule string) bool {
	switch rule {
	case RuleCase, RuleLegacy, RuleUnknown, RuleMissing, RuleValueCase, RuleValueLegacy, RuleValueUnknown, RuleValueMissing:
		return true
	}
	return false
}

// compound tells whether a value is of several words: senior-engineer,
// needs_review, "in progress".
func compound(s string) bool {
	s = strings.Trim(s, "-_ ")
	return strings.ContainsAny(s, "-_ ")
}
