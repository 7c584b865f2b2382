package main

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"

	"github.com/protoscan-dev/protoscan/analyzers/enumdrift"
	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/messages"
	"github.com/protoscan-dev/protoscan/internal/report"
)

// problem is a finding's rule and place: what ties a message's error to
// the finding the report has for it.
type problem struct {
	rule string
	finding.Location
}

// problemsOf lists the problems of findings, by the severity each has.
func problemsOf(fs []finding.Finding) map[problem]finding.Severity {
	m := make(map[problem]finding.Severity, len(fs))
	for _, f := range fs {
		p := problem{f.Rule, finding.Location{Path: f.Path, Line: f.Line, Col: f.Col}}
		if sev, ok := m[p]; !ok || f.Severity < sev {
			m[p] = f.Severity
		}
	}
	return m
}

// summarizeMessages tallies the verdicts per kind, in the spec's kind
// order; kinds without messages are left out. A message's error counts
// by the rule its finding carries, and only while live has the finding
// at error level: one the configuration turns off or down, a
// suppression silences or --fix fixed is not the tree's error any more.
func summarizeMessages(kinds []string, outcomes []messages.Outcome, live map[problem]finding.Severity) []report.KindSummary {
	var out []report.KindSummary
	for _, k := range kinds {
		s := report.KindSummary{Kind: k}
		errs, unknown, deprecated := map[string]int{}, map[string]int{}, map[string]int{}
		for _, o := range outcomes {
			if o.Kind != k {
				continue
			}
			s.Found++
			valid, warned := true, o.Warned
			for _, e := range o.Errors {
				sev, ok := live[problem{e.Rule, finding.Location{Path: o.Path, Line: e.Line, Col: e.Col}}]
				switch {
				case !ok:
				case sev == finding.Error:
					valid = false
					errs[e.Rule]++
				default:
					warned = true
				}
			}
			if valid {
				s.Valid++
			} else {
				s.Invalid++
			}
			if warned {
				s.WithWarnings++
			}
			for _, f := range o.UnknownFields {
				unknown[f]++
			}
			for _, f := range o.DeprecatedFields {
				deprecated[f]++
			}
		}
		if s.Found == 0 {
			continue
		}
		s.TopErrors = topCounts(errs, 5)
		s.UnknownFields = topCounts(unknown, 0)
		s.DeprecatedFields = topCounts(deprecated, 0)
		out = append(out, s)
	}
	return out
}

// topCounts orders counts most frequent first (then by name) and keeps
// at most limit of them (all with limit 0).
func topCounts(m map[string]int, limit int) []report.Count {
	out := make([]report.Count, 0, len(m))
	for name, n := range m {
		out = append(out, report.Count{Name: name, N: n})
	}
	slices.SortFunc(out, func(a, b report.Count) int { return cmp.Or(cmp.Compare(b.N, a.N), cmp.Compare(a.Name, b.Name)) })
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out
}

// driftMatrix groups the judged status literals by spelling, most
// frequent first; a literal one of the fixed findings rewrote counts as
// the spelling it has now.
func driftMatrix(uses []enumdrift.StatusUse, fixed []finding.Finding) []report.StatusSpelling {
	now := map[finding.Location]string{}
	for _, f := range fixed {
		if f.Literal != "" && f.Canonical != "" {
			now[finding.Location{Path: f.Path, Line: f.Line, Col: f.Col}] = f.Canonical
		}
	}
	by := map[string]*report.StatusSpelling{}
	for _, u := range uses {
		if v, ok := now[finding.Location{Path: u.Path, Line: u.Line, Col: u.Col}]; ok && u.Canonical == v {
			u.Value = v
		}
		s := by[u.Value]
		if s == nil {
			s = &report.StatusSpelling{Value: u.Value, Canonical: u.Canonical}
			by[u.Value] = s
		}
		s.Count++
		s.Locations = append(s.Locations, u.Location)
	}
	out := make([]report.StatusSpelling, 0, len(by))
	for _, s := range by {
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b report.StatusSpelling) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Value, b.Value))
	})
	return out
}

// dirOf is the directory a scanned path stands for.
func dirOf(p string) string {
	if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
		return filepath.Dir(p)
	}
	return p
}
