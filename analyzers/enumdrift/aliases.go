package enumdrift

import (
	"maps"
	"strings"
)

// AliasTable is a table of the repository that maps legacy spellings of
// an enum's values to canonical ones: a Python dict, Go map, YAML or JSON
// mapping whose keys are not values of the enum and whose values are
// (ALIASES = {"complete": "success", "failed": "failure"}). Its entries
// explain the drift they name everywhere in the repository: the finding
// gets the canonical spelling and points at the table.
type AliasTable struct {
	Enum    string            // kind.field
	Entries map[string]string // lower-cased legacy spelling -> canonical value, "" from a set of old spellings
	Place
}

// aliasTables finds the file's alias tables: mappings of at least two
// entries, all string values, that are canonical values of one enum for
// a half or more of them and at least two, with a key that is no value
// of it. The enum they belong to is the one most of their values are
// values of.
func (c *checker) aliasTables() []AliasTable {
	c.alias = make([]bool, len(c.f.Mappings))
	var out []AliasTable
	for m := range c.f.Mappings {
		mp := &c.f.Mappings[m]
		if len(mp.Entries) < 2 {
			continue
		}
		var best *Enum
		bestN := 0
		for _, e := range c.v.enums {
			if c.foreign(m, e) {
				continue
			}
			n := 0
			for _, en := range mp.Entries {
				if s, ok := en.Value.(string); ok && e.canonical[s] {
					n++
				}
			}
			if n > bestN {
				best, bestN = e, n
			}
		}
		if best == nil || bestN < 2 || 2*bestN < len(mp.Entries) {
			continue
		}
		entries := map[string]string{}
		for _, en := range mp.Entries {
			to, ok := en.Value.(string)
			if !ok || !best.canonical[to] {
				continue
			}
			low := strings.ToLower(strings.TrimSpace(en.Key))
			if _, isValue := best.lower[low]; isValue || low == "" {
				continue
			}
			entries[low] = to
		}
		c.alias[m] = true // a table of values, never a routing table
		if len(entries) == 0 {
			continue
		}
		out = append(out, AliasTable{Enum: best.Kind + "." + best.Field, Entries: entries,
			Place: Place{Path: c.f.Path, Line: mp.Pos.Line, Col: mp.Pos.Col}})
	}
	return out
}

// WithAliases returns a copy of v that knows the legacy spellings of
// tables as aliases; the spec's own aliases and the configured synonyms
// come first, and of two tables that map one spelling, the first in
// tables wins (callers pass them in path order, for a deterministic
// result), except that a table naming the canonical value wins over a
// set of old spellings, which names none.
func (v *Vocabulary) WithAliases(tables []AliasTable) *Vocabulary {
	if len(tables) == 0 {
		return v
	}
	out := &Vocabulary{Canonical: v.Canonical, byField: map[string][]*Enum{}, inMessages: map[string][]*Enum{}, ev: v.ev}
	for _, e := range v.enums {
		ne := *e
		ne.learned = maps.Clone(e.learned)
		for _, t := range tables {
			if t.Enum != e.Kind+"."+e.Field {
				continue
			}
			if ne.learned == nil {
				ne.learned = map[string]Alias{}
			}
			for from, to := range t.Entries {
				if _, spec := ne.aliases[from]; spec {
					continue
				}
				// a table that names the target wins over a set
				// of old spellings that cannot
				if old, seen := ne.learned[from]; !seen || old.To == "" && to != "" {
					ne.learned[from] = Alias{To: to, Table: t.Place}
				}
			}
		}
		out.enums = append(out.enums, &ne)
		if e == v.status {
			out.status = &ne
		}
		out.index(&ne)
	}
	out.indexFormer()
	return out
}

// Explains tells whether the vocabulary has an alias for one of the
// spellings Result.Unknown lists: a file with such a spelling must be
// analyzed again with the repository's alias tables.
func (v *Vocabulary) Explains(unknown []string) bool {
	for _, u := range unknown {
		enum, word, ok := strings.Cut(u, "\x00")
		if !ok {
			continue
		}
		for _, e := range v.enums {
			if e.learned != nil && e.Kind+"."+e.Field == enum {
				if _, ok := e.learned[word]; ok {
					return true
				}
			}
		}
	}
	return false
}
