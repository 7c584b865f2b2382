package enumdrift

import (
	"bytes"
	"maps"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/analyzers/internal/prefilter"
	"github.com/protoscan-dev/protoscan/msgcheck/evidence"
)

// Prefilter tells from a file's bytes (and name) whether Check could
// report anything in it, so the scan can skip parsing the rest. What each
// context of Check needs, and so what a file must hold, per enum:
//
//   - a const block, enum, set or routing table: three of its values (in
//     any spelling: case, and "_", "-", "" or " " between words); for an
//     enum other than the HANDBACK status, whose words are common words,
//     also the field's name (type Agent, AGENTS);
//   - anything else binds a literal to the enum's field, so the field's
//     name must be there, and with it: for the HANDBACK status, the word
//     "handback" (in the file or its name), or two of the HANDBACK's
//     other required fields (task_id, output, metrics), or two statuses;
//     for another enum, the same with one of its values besides;
//   - an alias table: two values of the enum and the word "alias" or
//     "legacy".
//
// Values, field names and words are matched as whole words (not inside
// "successful" or "status_code"): Check compares whole literals and keys,
// which the source delimits. In Go, Python and JSON a value is a string
// literal, so it must follow a quote there (functools.partial is not
// one). A file with none of that is skipped. Keys spelled with separators
// inside a word ("sta_tus") are not seen.
type Prefilter struct {
	enums []enumFilter
	// fields are the enums' field names, each once, in their spellings;
	// words the values' spellings, each once (the NEXUS statuses are the
	// HANDBACK's words): a file is searched for each once.
	fields [][][]byte
	words  [][]byte
}

type enumFilter struct {
	common  bool       // the enum's words are common: see Enum.common
	field   int        // the field's name: its index in Prefilter.fields
	kind    [][]byte   // the words of the kind's name
	needles []int      // lower-case spellings of values: indices in Prefilter.words
	targets []string   // the canonical value each needle stands for
	core    [][][]byte // the kind's other required fields, in their spellings
}

// spellings returns the lower-case spellings of a name with separators:
// task_id is written task_id, taskid (taskId, TaskID) or task-id.
func spellings(name string) [][]byte {
	low := strings.ToLower(name)
	var out [][]byte
	seen := map[string]bool{}
	for _, sep := range []string{"_", "", "-"} {
		s := strings.NewReplacer("_", sep, "-", sep).Replace(low)
		if !seen[s] {
			seen[s] = true
			out = append(out, []byte(s))
		}
	}
	return out
}

// valueSpelling is the one needle of a value: its lower-case words
// joined by "\x00", which stands for any separator ("_", "-", " " or
// none): senior-engineer is written senior_engineer, seniorengineer
// (SeniorEngineer) or "Senior Engineer". One pass over the file finds
// every spelling (see containsSpelled).
func valueSpelling(value string) []byte {
	parts := strings.FieldsFunc(strings.ToLower(value), func(r rune) bool { return r == '_' || r == '-' || r == ' ' })
	return []byte(strings.Join(parts, "\x00"))
}

// NewPrefilter builds the prefilter for a vocabulary.
func NewPrefilter(v *Vocabulary) *Prefilter {
	p := &Prefilter{}
	fieldIndex, wordIndex := map[string]int{}, map[string]int{}
	for _, e := range v.enums {
		k := normKey(e.Field)
		fi, ok := fieldIndex[k]
		if !ok {
			fi = len(p.fields)
			fieldIndex[k] = fi
			p.fields = append(p.fields, spellings(e.Field))
		}
		for _, old := range e.formerly { // role for agent: the file may name the field so
			for _, s := range spellings(old) {
				if !slices.ContainsFunc(p.fields[fi], func(b []byte) bool { return bytes.Equal(b, s) }) {
					p.fields[fi] = append(p.fields[fi], s)
				}
			}
		}
		ef := enumFilter{common: e.common, field: fi}
		for _, w := range evidence.KindNames(e.Kind) {
			ef.kind = append(ef.kind, []byte(w))
		}
		add := func(spelling, to string) {
			s := valueSpelling(spelling)
			if len(s) == 0 {
				return
			}
			wi, ok := wordIndex[string(s)]
			if !ok {
				wi = len(p.words)
				wordIndex[string(s)] = wi
				p.words = append(p.words, s)
			}
			ef.needles = append(ef.needles, wi)
			ef.targets = append(ef.targets, to)
		}
		for _, c := range e.Canonical {
			add(c, c)
		}
		for _, from := range slices.Sorted(maps.Keys(e.aliases)) {
			add(from, e.aliases[from])
		}
		for _, from := range slices.Sorted(maps.Keys(e.learned)) {
			add(from, e.learned[from].To)
		}
		for _, f := range e.coreNames {
			ef.core = append(ef.core, spellings(f))
		}
		p.enums = append(p.enums, ef)
	}
	return p
}

var (
	aliasWord  = []byte("alias")
	legacyWord = []byte("legacy")
)

// Match reports whether the file may hold drift. quoted says every
// string of the file's language is quoted (Go, Python, JSON; not YAML
// or Markdown: extract.Lang.QuotedStrings), so that a value may be
// looked for between quotes. buf is scratch space reused across calls
// (one per worker); the grown buffer is returned and holds src with
// ASCII letters lower-cased, for other prefilters to reuse.
func (p *Prefilter) Match(name string, quoted bool, src, buf []byte) (bool, []byte) {
	lower := append(buf[:0], src...)
	for i, b := range lower {
		if 'A' <= b && b <= 'Z' {
			lower[i] = b + 'a' - 'A'
		}
	}
	lowName := strings.ToLower(name)
	var fields [8]int8 // per field: 0 not searched yet, 1 present, -1 absent
	present := func(fi int) bool {
		if fi >= len(fields) {
			return anyWord(lower, p.fields[fi], false)
		}
		if fields[fi] == 0 {
			fields[fi] = -1
			if anyWord(lower, p.fields[fi], false) {
				fields[fi] = 1
			}
		}
		return fields[fi] == 1
	}
	var small [64]int8 // per word: 0 not searched yet, 1 found, -1 not
	found := small[:0]
	if len(p.words) <= len(small) {
		found = small[:len(p.words)]
	} else {
		found = make([]int8, len(p.words))
	}
	has := func(wi int) bool {
		if found[wi] == 0 {
			found[wi] = -1
			if containsSpelled(lower, p.words[wi], quoted) {
				found[wi] = 1
			}
		}
		return found[wi] == 1
	}
	within := func(fi int) bool {
		for _, sp := range p.fields[fi] {
			if bytes.Contains(lower, sp) {
				return true
			}
		}
		return false
	}
	for i := range p.enums {
		if p.enums[i].match(lower, lowName, present, within, has) {
			return true, lower
		}
	}
	return false, lower
}

// match: present(field) says the field's name is a word of the file,
// within(field) that it is part of one; has(word) that a value is spelled.
func (ef *enumFilter) match(lower []byte, lowName string, present, within, has func(int) bool) bool {
	hasField := present(ef.field)
	if ef.common && !hasField {
		// the words of most enums are common words: without the field's
		// name (type Agent, AGENTS, "agent":), the file is not read for them
		return false
	}
	values := ef.values(has, 3)
	if values >= 3 {
		return true
	}
	oldWords := bytes.Contains(lower, aliasWord) || bytes.Contains(lower, legacyWord)
	if values >= 2 && oldWords {
		return true
	}
	if !hasField {
		// a set of old spellings names the field in its own name
		// (LEGACY_STATUSES): it is learned from (see aliasSetTables)
		return values >= 1 && oldWords && within(ef.field)
	}
	if values >= 2 {
		return true
	}
	if ef.common && values == 0 {
		return false
	}
	for _, w := range ef.kind {
		if bytes.Contains(lower, w) || strings.Contains(lowName, string(w)) {
			return true
		}
	}
	fields := 0
	for _, sp := range ef.core {
		if anyWord(lower, sp, false) {
			fields++
		}
	}
	return fields >= 2
}

func anyWord(lower []byte, spellings [][]byte, quoted bool) bool {
	for _, s := range spellings {
		if containsWord(lower, s, quoted) {
			return true
		}
	}
	return false
}

// values counts the distinct canonical values spelled in the file, up to
// most.
func (ef *enumFilter) values(has func(int) bool, most int) int {
	var seen []string
	for i, needle := range ef.needles {
		t := ef.targets[i]
		if t == "" {
			continue // an old spelling of no known value
		}
		dup := false
		for _, s := range seen {
			dup = dup || s == t
		}
		if !dup && has(needle) {
			seen = append(seen, t)
			if len(seen) == most {
				break
			}
		}
	}
	return len(seen)
}

func containsWord(lower, needle []byte, quoted bool) bool {
	return prefilter.ContainsWord(lower, needle, prefilter.Ident, quoted)
}

// containsSpelled is containsWord for a value's needle (valueSpelling):
// its first word is looked for, and each place it is found is read on
// for the other words, with any separator or none between them.
func containsSpelled(lower, needle []byte, quoted bool) bool {
	first, rest, multi := bytes.Cut(needle, []byte{0})
	if !multi {
		return containsWord(lower, needle, quoted)
	}
	for off := 0; ; {
		i := bytes.Index(lower[off:], first)
		if i < 0 {
			return false
		}
		start := off + i
		off = start + 1
		if !prefilter.StartsWord(lower, start, prefilter.Ident, quoted) {
			continue
		}
		if end, ok := spelledFrom(lower, start+len(first), rest); ok && prefilter.EndsWord(lower, end, prefilter.Ident) {
			return true
		}
	}
}

// spelledFrom reads the words of rest ("\x00"-separated) from lower at
// i, each after one separator or none, and returns where they end.
func spelledFrom(lower []byte, i int, rest []byte) (int, bool) {
	for len(rest) > 0 {
		w, more, _ := bytes.Cut(rest, []byte{0})
		if i < len(lower) && (lower[i] == '_' || lower[i] == '-' || lower[i] == ' ') {
			i++
		}
		if !bytes.HasPrefix(lower[i:], w) {
			return 0, false
		}
		i, rest = i+len(w), more
	}
	return i, true
}
