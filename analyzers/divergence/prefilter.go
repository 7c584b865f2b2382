package divergence

import (
	"bytes"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/analyzers/internal/prefilter"
	"github.com/protoscan-dev/protoscan/languages/extract"
)

// The prefilter mirrors the candidate rules of concept on a file's bytes,
// so that a file that cannot hold a candidate is never parsed:
//
//   - escalation: "escalat" and a non-generic protocol field (quality,
//     retry_count) or two protocol fields;
//   - validation: valid/verif/check and two fields of one kind only (one
//     of them not a common word, or three), or one field and the word
//     delegate or handback;
//   - status normalisation: normali/canonical/status and two HANDBACK
//     statuses quoted as string literals;
//   - escalation on a score (scoreEscalation): escalat, human or principal
//     and quality, score, confidence or rating, anywhere in the file.
//
// Fields are matched as whole words (not scope in telescope), in snake
// case and as Go spells them (retry_count, retrycount), ASCII lower-cased.
var (
	escalateStems  = [][]byte{[]byte("escalat")}
	validateStems  = [][]byte{[]byte("valid"), []byte("verif"), []byte("check")}
	normalizeStems = [][]byte{[]byte("normali"), []byte("canonical"), []byte("status")}
	kindWords      = [][]byte{[]byte("delegat"), []byte("handback")}
)

// fieldNeedle is one protocol field and its spellings.
type fieldNeedle struct {
	spellings [][]byte
	kinds     kindSet
	strong    bool
}

// buildPrefilter collects the needles of MayHaveCandidates from the model.
func (m *Model) buildPrefilter() {
	byName := map[string]kindSet{}
	for f, k := range m.fields {
		byName[last(f)] |= k
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	slices.Sort(names) // the same work per file, run to run
	for _, n := range names {
		fn := fieldNeedle{kinds: byName[n], strong: !genericFields[n], spellings: [][]byte{[]byte(n)}}
		if joined := strings.ReplaceAll(n, "_", ""); joined != n {
			fn.spellings = append(fn.spellings, []byte(joined))
		}
		m.fieldNeedles = append(m.fieldNeedles, fn)
	}
	for s := range m.statuses {
		m.statusNeedles = append(m.statusNeedles, []byte(s))
	}
	slices.SortFunc(m.statusNeedles, bytes.Compare)
}

// MayHaveCandidates reports whether the file rel (a slash path) whose
// bytes, with ASCII letters lower-cased, are lower could hold a candidate
// (see the rules above). Test files never do.
func (m *Model) MayHaveCandidates(rel string, lower []byte) bool {
	if extract.IsTestPath(rel) {
		return false
	}
	if m.mayHaveFormats(lower) {
		return true
	}
	esc := containsAny(lower, escalateStems)
	val := containsAny(lower, validateStems)
	norm := containsAny(lower, normalizeStems)
	if mayEscalateOnScore(lower, esc) {
		return true
	}
	if !esc && !val && !norm {
		return false
	}
	if esc || val {
		var total, strong, delegateOnly, handbackOnly int
		for i := range m.fieldNeedles {
			fn := &m.fieldNeedles[i]
			if !containsAnyWord(lower, fn.spellings, false) {
				continue
			}
			total++
			if fn.strong {
				strong++
			}
			switch fn.kinds {
			case kindDelegate:
				delegateOnly++
			case kindHandback:
				handbackOnly++
			}
		}
		if esc && (strong >= 1 || total >= 2) {
			return true
		}
		// as in concept: two fields of one kind, not all of them common
		// words, or the kind's name and one field
		if val && ((delegateOnly >= 2 || handbackOnly >= 2) && (strong >= 1 || delegateOnly >= 3 || handbackOnly >= 3) ||
			total >= 1 && containsAny(lower, kindWords)) {
			return true
		}
	}
	if norm {
		n := 0
		for _, s := range m.statusNeedles {
			if containsWord(lower, s, true) {
				if n++; n >= 2 {
					return true
				}
			}
		}
	}
	return false
}

func containsAny(b []byte, needles [][]byte) bool {
	for _, n := range needles {
		if bytes.Contains(b, n) {
			return true
		}
	}
	return false
}

func containsAnyWord(b []byte, needles [][]byte, quoted bool) bool {
	for _, n := range needles {
		if containsWord(b, n, quoted) {
			return true
		}
	}
	return false
}

// containsWord finds needle as a whole word, '_' separating words (scope
// is found in delegate_scope).
func containsWord(lower, needle []byte, quoted bool) bool {
	return prefilter.ContainsWord(lower, needle, prefilter.Part, quoted)
}
