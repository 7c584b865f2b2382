// Package finding is the model every analyzer reports in and every
// renderer reads: a rule, a severity, a place and a message, plus related
// places and an optional fix. It has no behaviour beyond ordering.
package finding

import (
	"cmp"
	"slices"
)

// Severity orders findings for --fail-on; the zero value is Error so a
// finding is never accidentally ignored.
type Severity uint8

const (
	Error Severity = iota
	Warning
	Note
)

var severityNames = [...]string{"error", "warning", "note"}

func (s Severity) String() string {
	if int(s) < len(severityNames) {
		return severityNames[s]
	}
	return "severity?"
}

// ParseSeverity reads "error", "warning" or "note".
func ParseSeverity(s string) (Severity, bool) {
	for i, n := range severityNames {
		if n == s {
			return Severity(i), true
		}
	}
	return 0, false
}

// Location is a place in a file; Path is slash-separated and relative to
// the scan root. Lines and columns are 1-based, columns in bytes; zero
// means unknown.
type Location struct {
	Path            string
	Line, Col       int
	EndLine, EndCol int
	Message         string // what this place is, for related locations
}

// Edit replaces the bytes [Offset, End) of Path with New.
type Edit struct {
	Path        string
	Offset, End int
	New         string
}

// Fix is a suggested change that resolves a finding.
type Fix struct {
	Message string
	Edits   []Edit
}

// Finding is one problem found.
type Finding struct {
	Rule     string // family/name, e.g. enumdrift/legacy-status
	Severity Severity
	Location
	Message string
	// Literal is the text a finding is about, when it is one value (the
	// drifted status "failed"); Canonical is what it should be, if known.
	Literal, Canonical string
	// StandsFor is the rule of the same problem as another analyzer words
	// it, when this finding is reported in its place (a drifted status in
	// a message: enumdrift's finding, not msgcheck's enum finding on the
	// same value). The configuration and suppressions of that rule apply
	// to this finding too, so that its id stays an alias.
	StandsFor string
	Related   []Location
	Fix       *Fix
	// Fingerprint identifies the finding across edits that move lines: a
	// hash of the rule, the path and the normalized text of the flagged
	// line (see package baseline), set by the scan. SARIF's
	// partialFingerprints and the baseline match on it.
	Fingerprint string
}

// Sort orders findings by path, line, column, rule and message, which is
// the order every report is written in.
func Sort(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(a.Path, b.Path),
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Col, b.Col),
			cmp.Compare(a.Rule, b.Rule),
			cmp.Compare(a.Message, b.Message),
		)
	})
}
