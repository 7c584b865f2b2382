package enumdrift

import "bytes"

// Prefilter tells from a file's bytes whether Check could report anything
// in it, so the scan can skip parsing the rest. Every context Check judges
// needs either a field named status (a mapping key, a compared or assigned
// field) or at least three canonical statuses in some spelling (a const
// block, an enum, a set, a routing table); a file with neither is skipped.
// Keys spelled with separators inside the word ("sta_tus") are not seen.
type Prefilter struct {
	needles [][]byte // lower-case spellings
	targets []string // the canonical value each needle stands for
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
	return p
}

var statusWord = []byte("status")

// Match reports whether src may hold drift. buf is scratch space reused
// across calls (one per worker); the grown buffer is returned.
func (p *Prefilter) Match(src, buf []byte) (bool, []byte) {
	lower := append(buf[:0], src...)
	for i, b := range lower {
		if 'A' <= b && b <= 'Z' {
			lower[i] = b + 'a' - 'A'
		}
	}
	if bytes.Contains(lower, statusWord) {
		return true, lower
	}
	seen := map[string]bool{}
	for i, n := range p.needles {
		if !seen[p.targets[i]] && bytes.Contains(lower, n) {
			seen[p.targets[i]] = true
			if len(seen) >= 3 {
				return true, lower
			}
		}
	}
	return false, lower
}
