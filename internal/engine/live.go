package engine

import "github.com/protoscan-dev/protoscan/finding"

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

// liveProblems records the tree's problems (state.live) before the
// baseline and --new-from-rev hide findings: the summaries count by them.
type liveProblems struct{}

func (liveProblems) name() string { return "live problems" }

func (liveProblems) run(s *state) error {
	s.live = problemsOf(s.rep.Findings)
	return nil
}
