package enumdrift

import (
	"slices"
	"strings"
	"unicode"

	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/msgcheck"
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
func (c *checker) unionedAlias(g facts.Group) bool { return c.unionedWith(g) != nil }

// unionedWith returns the enum of the canonical set group g is united
// with (see unionedAlias), or nil.
func (c *checker) unionedWith(g facts.Group) *Enum {
	if g.Name == "" || len(c.f.Unions) == 0 {
		return nil
	}
	byName := func(name string) []int {
		for gi := range c.f.Groups {
			if o := &c.f.Groups[gi]; o.Name == name && o.Kind != facts.GroupCases {
				return o.Members
			}
		}
		return nil
	}
	canonicalSet := func(members []int) *Enum {
		for _, e := range c.v.enums {
			if f := c.fitOf(members, e); f.exact >= 3 && f.exact == len(members) {
				return e
			}
		}
		return nil
	}
	for _, u := range c.f.Unions {
		if !slices.Contains(u.Parts, g.Name) || canonicalSet(g.Members) != nil {
			continue
		}
		for _, p := range u.Parts {
			if p == g.Name {
				continue
			}
			if e := canonicalSet(byName(p)); e != nil {
				return e
			}
		}
	}
	return nil
}

// aliasSetTables learns from the sets of old spellings (named, commented
// or united so; see groups): each of their words that is no spelling of
// the enum yet becomes a learned alias without a target, so that the same
// word used elsewhere is called what the repository calls it, a legacy
// spelling, with the set as its source. The enum is the one the set is
// united with, tested against or named for; a set that names none is
// learned from by no enum.
func (c *checker) aliasSetTables() []AliasTable {
	var out []AliasTable
	for gi, g := range c.f.Groups {
		if g.Kind == facts.GroupCases || len(g.Members) == 0 {
			continue
		}
		e := c.unionedWith(g)
		if e == nil && (aliasSet(g.Name) || aliasNote(g.Note) && !c.notesMember(g)) {
			e = c.aliasSetEnum(gi, g)
		}
		if e == nil {
			continue
		}
		entries := map[string]string{}
		for _, i := range g.Members {
			v := c.f.Strings[i].Value
			if cl, _ := e.classify(v); cl != unknown {
				continue // the spec, a table or the case already say what it is
			}
			if low := strings.ToLower(strings.TrimSpace(v)); low != "" {
				entries[low] = ""
			}
		}
		if len(entries) > 0 {
			out = append(out, AliasTable{Enum: e.Kind + "." + e.Field, Entries: entries,
				Place: Place{Path: c.f.Path, Line: g.Pos.Line, Col: g.Pos.Col}})
		}
	}
	return out
}

// aliasSetEnum is the enum a named or commented set of old spellings is
// for: the field it is tested against, else the field its name names
// (LEGACY_STATUSES), or nil.
func (c *checker) aliasSetEnum(gi int, g facts.Group) *Enum {
	skip := c.groupForeign(gi)
	var tied []*Enum
	for _, t := range c.groupTests[gi] {
		tied = append(tied, c.v.fieldEnums(t.Key)...)
	}
	if len(tied) == 0 {
		name := normKey(g.Name)
		for _, e := range c.v.enums {
			if e.Field != msgcheck.MarkerField && strings.Contains(name, normKey(e.Field)) {
				tied = append(tied, e)
			}
		}
	}
	tied = slices.DeleteFunc(tied, skip)
	if e, _ := c.pick(g.Members, tied, nil); e != nil {
		return e
	}
	if len(tied) == 1 {
		return tied[0]
	}
	// several kinds have a status: the HANDBACK status is the one whose
	// old spellings repositories keep
	if c.v.status != nil && slices.Contains(tied, c.v.status) {
		return c.v.status
	}
	return nil
}
