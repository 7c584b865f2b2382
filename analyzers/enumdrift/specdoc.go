package enumdrift

import (
	"reflect"
	"strings"

	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/msgcheck/evidence"
)

// A protoscan spec in the repository (a copy of the NEXUS handoff spec
// under docs/specs, a spec block in a Markdown page) declares the
// statuses of the protocol it names: its enums, and tables keyed by them
// (x-nexus-handoff's inferred_confidence), are HANDBACK statuses only
// when that protocol is the HANDBACK's. The statuses of another protocol
// (NEXUS's SUCCESS, PARTIAL, BLOCKED, FAILED; a verdict's pass, fail) are
// not drift, whatever their spelling.
//
// A spec is told from its shape, as msgcheck.ParseSpec reads it: a
// mapping of a data document (YAML, JSON, a Markdown block; not code)
// with a string protocol, a version, and at least one message kind (a
// mapping holding core_fields). The file's name and path play no part.

// specShape tells whether m has the shape of a protoscan spec, and the
// protocol it names.
func specShape(m *facts.Mapping) (protocol string, ok bool) {
	return evidence.SpecDocument(m)
}

// specDocs records, for the mappings and string lists of each spec
// document of the file, the protocol the spec names: an enum is judged
// in a spec only when the spec is of the enum's protocol (see above).
// Nothing is recorded in most files, at the cost of one pass over the
// mappings' keys.
func (c *checker) specDocs() {
	found := false
	for i := range c.f.Mappings {
		if _, ok := specShape(&c.f.Mappings[i]); ok {
			found = true
			break
		}
	}
	if !found {
		return
	}
	c.specProtocol = make([]string, len(c.f.Mappings))
	lists := map[facts.Pos]string{} // where the string lists of spec mappings start
	// The extractor of data documents (languages/nodefacts) appends a
	// mapping, then the mappings under it, depth first: a document's
	// mappings are consecutive, from its root on. The roots are found by
	// stepping over each one's subtree; mappings of code (Python blocks of
	// a Markdown file) are stepped over one at a time.
	seen := map[uintptr]bool{}
	for r := 0; r < len(c.f.Mappings); {
		m := &c.f.Mappings[r]
		if m.InCode {
			r++
			continue
		}
		end := subtree(c.f.Mappings, r, seen)
		if p, ok := specShape(m); ok {
			p = strings.TrimSpace(p)
			for i := r; i < end; i++ {
				c.specProtocol[i] = p
				for _, e := range c.f.Mappings[i].Entries {
					if _, isList := e.Value.([]any); isList {
						lists[e.ValPos] = p
					}
				}
			}
		}
		r = end
	}
	c.groupProtocol = make([]string, len(c.f.Groups))
	for g := range c.f.Groups {
		if c.f.Groups[g].Kind == facts.GroupSet {
			c.groupProtocol[g] = lists[c.f.Groups[g].Pos]
		}
	}
}

// subtree returns the index just past the mappings nested in mappings[r]
// (which the extractor appended right after it, depth first). A mapping
// value met again (a YAML alias of an anchored mapping) was extracted
// where it was first met, and is not counted twice: seen holds the
// mapping values met so far. A value that does not match the next
// mapping's keys (an alias of the root itself) is taken as met.
func subtree(mappings []facts.Mapping, r int, seen map[uintptr]bool) int {
	next := r + 1
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if depth > 256 || next >= len(mappings) {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			id := reflect.ValueOf(x).Pointer()
			if seen[id] || !sameKeys(x, &mappings[next]) {
				seen[id] = true
				return
			}
			seen[id] = true
			i := next
			next++
			for _, e := range mappings[i].Entries {
				walk(e.Value, depth+1)
			}
		case []any:
			for _, y := range x {
				walk(y, depth+1)
			}
		}
	}
	for _, e := range mappings[r].Entries {
		walk(e.Value, 1)
	}
	return next
}

// sameKeys tells whether the mapping value v was extracted as m: they
// have the same keys (m may list a key twice, v holds it once).
func sameKeys(v map[string]any, m *facts.Mapping) bool {
	if m.InCode || len(m.Entries) < len(v) {
		return false
	}
	keys := make(map[string]bool, len(v))
	for _, e := range m.Entries {
		if _, ok := v[e.Key]; !ok {
			return false
		}
		keys[e.Key] = true
	}
	return len(keys) == len(v)
}
