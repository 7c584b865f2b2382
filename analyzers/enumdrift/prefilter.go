package enumdrift

import (
	"bytes"
	"path"
	"strings"

	"github.com/protoscan/protoscan/analyzers/internal/prefilter"
)

// Prefilter tells from a file's bytes (and name) whether Check could
// report anything in it, so the scan can skip parsing the rest. What each
// context of Check needs, and so what a file must hold:
//
//   - a const block, enum, set or routing table: three canonical statuses
//     (in any spelling);
//   - a HANDBACK mapping or a comparison on a status field: the word
//     "status", and with it the word "handback" (in the file or its name),
//     or two of the HANDBACK's other required fields (task_id, output,
//     metrics), or two canonical statuses.
//
// Statuses, "status" and field names are matched as whole words (not
// inside "successful" or "status_code"): Check compares whole literals and
// keys, which the source delimits. In Go, Python and JSON a status value
// is a string literal, so it must follow a quote there (functools.partial
// is not one). A file with none of that is skipped.
// Keys spelled with separators inside a word ("sta_tus") are not seen.
type Prefilter struct {
	needles [][]byte // lower-case spellings of statuses
	targets []string // the canonical value each needle stands for
	core    [][][]byte
}

// NewPrefilter builds the prefilter for a vocabulary.
func NewPrefilter(v *Vocabulary) *Prefilter {
	p := &Prefilter{}
	add := func(spelling, to string) {
		p.needles = append(p.needles, bytes.ToLower([]byte(spelling)))
		p.targets = append(p.targets, to)
	}
	for _, c := range v.Canonical {
		add(c, c)
	}
	for from, to := range v.aliases {
		add(from, to)
	}
	for _, f := range v.coreNames {
		// task_id is written task_id, taskId, TaskID or task-id
		low := strings.ToLower(f)
		var spellings [][]byte
		for _, sep := range []string{"_", "", "-"} {
			spellings = append(spellings, []byte(strings.ReplaceAll(low, "_", sep)))
		}
		p.core = append(p.core, spellings)
	}
	return p
}

var (
	statusWord   = []byte("status")
	handbackWord = []byte("handback")
)

// Match reports whether the file may hold drift. buf is scratch space
// reused across calls (one per worker); the grown buffer is returned and
// holds src with ASCII letters lower-cased, for other prefilters to reuse.
func (p *Prefilter) Match(name string, src, buf []byte) (bool, []byte) {
	lower := append(buf[:0], src...)
	for i, b := range lower {
		if 'A' <= b && b <= 'Z' {
			lower[i] = b + 'a' - 'A'
		}
	}
	statuses := p.statuses(lower, quotedLiterals(name))
	if statuses >= 3 {
		return true, lower
	}
	if !containsWord(lower, statusWord, false) {
		return false, lower
	}
	if statuses >= 2 || bytes.Contains(lower, handbackWord) || strings.Contains(strings.ToLower(name), "handback") {
		return true, lower
	}
	fields := 0
	for _, spellings := range p.core {
		for _, s := range spellings {
			if containsWord(lower, s, false) {
				fields++
				break
			}
		}
	}
	return fields >= 2, lower
}

// quotedLiterals tells whether every string of the file's language is
// quoted (not so in YAML and Markdown).
func quotedLiterals(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".go", ".py", ".pyi", ".json", ".jsonl", ".ndjson":
		return true
	}
	return false
}

// statuses counts the distinct canonical statuses spelled in lower, up to 3.
func (p *Prefilter) statuses(lower []byte, quoted bool) int {
	var seen [3]string
	n := 0
	for i, needle := range p.needles {
		t := p.targets[i]
		dup := false
		for _, s := range seen[:n] {
			dup = dup || s == t
		}
		if !dup && containsWord(lower, needle, quoted) {
			seen[n] = t
			if n++; n == len(seen) {
				break
			}
		}
	}
	return n
}

func containsWord(lower, needle []byte, quoted bool) bool {
	return prefilter.ContainsWord(lower, needle, prefilter.Ident, quoted)
}
