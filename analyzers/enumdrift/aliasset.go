package enumdrift

import (
	"slices"
	"strings"
	"unicode"

	"github.com/protoscan-dev/protoscan/languages/facts"
)

// aliasSetWords are the words of a collection's name that say it holds
// the spellings to accept beside the canonical ones (LEGACY_STATUSES,
// deprecatedStatuses, STATUS_ALIASES): a table of aliases without their
// targets, whose words are right to differ from the enum's.
var aliasSetWords = map[string]bool{"legacy": true, "deprecated": true, "alias": true, "aliases": true, "synonyms": true, "compat": true, "obsolete": true}

// aliasSet tells whether a group's name says it is a set of aliases.
func aliasSet(name string) bool {
	words := strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == '-' || r == '.' })
	for _, w := range words {
		// camelCase: legacyStatuses, StatusAliases
		start := 0
		for i, r := range w {
			if i > 0 && unicode.IsUpper(r) && !unicode.IsUpper(rune(w[i-1])) {
				if aliasSetWords[strings.ToLower(w[start:i])] {
					return true
				}
				start = i
			}
		}
		if aliasSetWords[strings.ToLower(w[start:])] {
			return true
		}
	}
	return false
}

// aliasNote tells whether the comment about a group says it holds old
// spellings: "# legacy spellings, still accepted", "// deprecated".
func aliasNote(note string) bool {
	if note == "" {
		return false
	}
	low := strings.ToLower(note)
	for _, w := range [...]string{"legacy", "deprecated", "alias", "synonym", "old spelling", "backward compat", "backwards compat"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// unionedAlias tells whether group g is united with a set that defines an
// enum (ACCEPTED = CANONICAL | LEGACY) without defining it itself: it
// holds the spellings accepted beside the canonical ones.
func (c *checker) unionedAlias(g facts.Group) bool {
	if g.Name == "" || len(c.f.Unions) == 0 {
		return false
	}
	byName := func(name string) []int {
		for gi := range c.f.Groups {
			if o := &c.f.Groups[gi]; o.Name == name && o.Kind != facts.GroupCases {
				return o.Members
			}
		}
		return nil
	}
	canonicalSet := func(members []int) bool {
		for _, e := range c.v.enums {
			if f := c.fitOf(members, e); f.exact >= 3 && f.exact == len(members) {
				return true
			}
		}
		return false
	}
	for _, u := range c.f.Unions {
		if !slices.Contains(u.Parts, g.Name) || canonicalSet(g.Members) {
			continue
		}
		for _, p := range u.Parts {
			if p != g.Name && canonicalSet(byName(p)) {
				return true
			}
		}
	}
	return false
}
