package main

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"

	"github.com/protoscan-dev/protoscan/analyzers/enumdrift"
	"github.com/protoscan-dev/protoscan/internal/messages"
	"github.com/protoscan-dev/protoscan/internal/report"
)

// summarizeMessages tallies the verdicts per kind, in the spec's kind
// order; kinds without messages are left out.
func summarizeMessages(kinds []string, outcomes []messages.Outcome) []report.KindSummary {
	var out []report.KindSummary
	for _, k := range kinds {
		s := report.KindSummary{Kind: k}
		errs, unknown, deprecated := map[string]int{}, map[string]int{}, map[string]int{}
		for _, o := range outcomes {
			if o.Kind != k {
				continue
			}
			s.Found++
			if o.Valid {
				s.Valid++
			} else {
				s.Invalid++
			}
			if o.Warned {
				s.WithWarnings++
			}
			for _, r := range o.ErrorRules {
				errs[r]++
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
// frequent first.
func driftMatrix(uses []enumdrift.StatusUse) []report.StatusSpelling {
	by := map[string]*report.StatusSpelling{}
	for _, u := range uses {
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
