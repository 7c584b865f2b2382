package engine

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/analyzers/enumdrift"
	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/messages"
	"github.com/protoscan-dev/protoscan/internal/report"
	"github.com/protoscan-dev/protoscan/internal/rules"
)

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

// RuleDocs documents every rule the report may show: the catalogue, and
// each generated msgcheck id of the findings resolved to its family.
func RuleDocs(fs []finding.Finding) []rules.Doc {
	docs := rules.ScanRules()
	have := map[string]bool{}
	for _, d := range docs {
		have[d.ID] = true
	}
	for _, f := range fs {
		if have[f.Rule] {
			continue
		}
		have[f.Rule] = true
		if d, ok := rules.Lookup(f.Rule); ok {
			docs = append(docs, d)
		}
	}
	slices.SortFunc(docs, func(a, b rules.Doc) int { return strings.Compare(a.ID, b.ID) })
	return docs
}

// summaries tallies the messages per kind and the status spellings, of
// the tree as it is now (fixes applied), and documents the report's rules.
type summaries struct{}

func (summaries) name() string { return "summaries" }

func (summaries) run(s *state) error {
	s.rep.Messages = summarizeMessages(s.kinds, s.outcomes, s.live)
	s.rep.Statuses = driftMatrix(s.statuses, s.fixed)
	s.rep.Rules = RuleDocs(s.rep.Findings)
	return nil
}
