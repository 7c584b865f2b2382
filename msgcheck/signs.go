package msgcheck

import (
	"bytes"
	"strings"
)

// Signs are the words by which text, before or without being parsed, may
// announce a message of some specs' kinds: the one raw-text message
// predicate, which the scan's prefilter, the scan's parse problems (and
// any reader of queues or files that wants it) share, so that a kind's
// marker or fields are listed in one place, the specs.
//
// A text shows a sign when it holds
//
//   - MarkerField (handoff_type), or a word added with AddWords (the
//     NEXUS_HANDOFF wrapper key), or a kind's name written in capitals
//     (HANDBACK, NEXUS_HANDOFF_V2: the way messages and queues name their
//     kind);
//   - or, for a kind added with AddShapes, the fields ShapeOf recognises
//     it by: its id field and two more of its core fields (fewer when it
//     has fewer), or its id field and its name (make_handback(task_id=...));
//     a kind without an id field is a word of its own;
//   - or, for a kind added with AddSignatures, every field of its
//     signature (as Detect recognises it).
//
// In asks it of a whole file, cheaply and loosely (any substring, a
// prefilter); Holds asks it of a piece of text that did not parse (whole
// words only), to tell a broken message, which must fail a gate, from
// broken data, which must not. The zero Signs holds MarkerField alone.
type Signs struct {
	words  [][]byte // lower-cased; any one is a sign
	caps   [][]byte // kind names in capitals, matched as written
	shapes []shapeSign
}

// shapeSign is a set of fields that is a sign together: every one of all,
// and need of some.
type shapeSign struct {
	all, some [][]byte
	need      int
}

func lowerAll(words []string) [][]byte {
	out := make([][]byte, len(words))
	for i, w := range words {
		out[i] = []byte(strings.ToLower(w))
	}
	return out
}

// AddWords adds words any one of which announces a message (matched in
// any case).
func (g *Signs) AddWords(words ...string) {
	g.words = append(g.words, lowerAll(words)...)
}

func (g *Signs) addCaps(kind string) {
	g.caps = append(g.caps, []byte(strings.ToUpper(kind)))
}

// AddShapes adds the kinds of s as ShapeOf recognises them in a file's
// records: by their id field and core fields, or their id field and their
// name; a kind without an id field by its name alone.
func (g *Signs) AddShapes(s *Spec) {
	for _, k := range s.Kinds() {
		g.addCaps(k)
		id, core := s.ShapeFields(k)
		if id == "" {
			g.AddWords(k)
			continue
		}
		g.shapes = append(g.shapes, shapeSign{all: lowerAll([]string{id}), some: lowerAll(core), need: min(2, len(core))})
		// a type or builder named for the kind (make_handback) with the
		// kind's id among its fields; the name alone is a common word
		// ("delegate") that would open most of a code base
		g.shapes = append(g.shapes, shapeSign{all: lowerAll([]string{k, id})})
	}
}

// AddSignatures adds the kinds of s as Detect recognises them: by every
// field of their signature.
func (g *Signs) AddSignatures(s *Spec) {
	for _, k := range s.Kinds() {
		g.addCaps(k)
		g.shapes = append(g.shapes, shapeSign{all: lowerAll(s.Signature(k))})
	}
}

var markerWord = []byte(MarkerField)

// In reports whether lower, text with its ASCII letters lower-cased,
// holds a sign anywhere, as a substring: the scan's prefilter, which may
// let through what is no message but never keeps one out. A kind's name
// alone is no sign here (in lower case it is a common word; the scan
// lets a file named after a kind through by its name).
func (g *Signs) In(lower []byte) bool {
	if bytes.Contains(lower, markerWord) {
		return true
	}
	for _, w := range g.words {
		if bytes.Contains(lower, w) {
			return true
		}
	}
	for _, sh := range g.shapes {
		if sh.matches(lower, bytes.Contains) {
			return true
		}
	}
	return false
}

// Holds reports whether raw, a piece of text (a YAML document or a JSON
// Lines line that does not parse), holds a sign as whole words: a word
// is a run of ASCII letters, digits and underscores, matched in any case,
// but a kind's name only in capitals (a "delegate" is an English word; a
// DELEGATE is a message). Its cost is linear in len(raw) for each sign.
func (g *Signs) Holds(raw []byte) bool {
	lower := bytes.ToLower(raw)
	if g.names(raw, lower) {
		return true
	}
	for _, sh := range g.shapes {
		if sh.matches(lower, hasWord) {
			return true
		}
	}
	return false
}

func (sh shapeSign) matches(text []byte, has func(text, word []byte) bool) bool {
	if len(sh.all) == 0 && sh.need == 0 {
		return false
	}
	for _, w := range sh.all {
		if !has(text, w) {
			return false
		}
	}
	n := 0
	for _, w := range sh.some {
		if n >= sh.need {
			break
		}
		if has(text, w) {
			n++
		}
	}
	return n >= sh.need
}

// hasWord reports whether text holds word with no word character (ASCII
// letter, digit, '_') right before or after it. Each occurrence is looked
// at once: linear in len(text).
func hasWord(text, word []byte) bool {
	if len(word) == 0 {
		return false
	}
	for i := 0; i+len(word) <= len(text); {
		j := bytes.Index(text[i:], word)
		if j < 0 {
			return false
		}
		at := i + j
		end := at + len(word)
		if (at == 0 || !isWordByte(text[at-1])) && (end == len(text) || !isWordByte(text[end])) {
			return true
		}
		i = at + 1
	}
	return false
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// HoldsAtTop is Holds with the fields counted only as the YAML
// document's own keys, written at the start of a line ("task_id:"), not
// nested: for text whose nested fields say little (a document's example
// lists records of every kind with a task_id and a status), where a
// record whose top level is a message's still is one.
func (g *Signs) HoldsAtTop(raw []byte) bool {
	lower := bytes.ToLower(raw)
	if g.names(raw, lower) {
		return true
	}
	for _, sh := range g.shapes {
		if sh.matches(lower, hasTopKey) {
			return true
		}
	}
	return false
}

// hasTopKey reports whether text has a line that starts with key and a
// colon, as a YAML document's own keys are written.
func hasTopKey(text, key []byte) bool {
	for i := 0; i+len(key) < len(text); {
		j := bytes.Index(text[i:], key)
		if j < 0 {
			return false
		}
		at := i + j
		if at == 0 || text[at-1] == '\n' {
			rest := bytes.TrimLeft(text[at+len(key):], " \t")
			if len(rest) > 0 && rest[0] == ':' {
				return true
			}
		}
		i = at + 1
	}
	return false
}

func (g *Signs) names(raw, lower []byte) bool {
	if hasWord(lower, markerWord) {
		return true
	}
	for _, w := range g.words {
		if hasWord(lower, w) {
			return true
		}
	}
	for _, w := range g.caps {
		if hasWord(raw, w) {
			return true
		}
	}
	return false
}
