package engine

import "github.com/protoscan-dev/protoscan/finding"

// sortFindings sorts the findings (finding.Sort): the report's order.
type sortFindings struct{}

func (sortFindings) name() string { return "sort" }

func (sortFindings) run(s *state) error {
	finding.Sort(s.rep.Findings)
	return nil
}
