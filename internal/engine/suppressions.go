package engine

import (
	"slices"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/baseline"
	"github.com/protoscan-dev/protoscan/internal/suppress"
)

// applySuppressions removes what protoscan:ignore comments silence and
// adds the comments that silenced nothing or lack a reason.
func applySuppressions(fs []finding.Finding, directives map[string][]suppress.Directive, names *PathMap) ([]finding.Finding, int) {
	if len(directives) == 0 {
		return fs, 0
	}
	kept, n, problems := suppress.Apply(fs, directives)
	for i := range problems {
		// the comment's own text is not at hand here; its message names
		// its rules, which is as stable as the comment
		problems[i].Fingerprint = baseline.Fingerprint(problems[i].Rule, names.key(problems[i].Path), []byte(problems[i].Message))
	}
	return append(kept, problems...), n
}

// suppressions applies the protoscan:ignore comments; with
// --new-from-rev it keeps the findings before them (state.unsuppressed).
type suppressions struct{}

func (suppressions) name() string { return "suppressions" }

func (suppressions) run(s *state) error {
	if s.opts.NewFromRev != "" {
		s.unsuppressed = slices.Clone(s.rep.Findings)
	}
	s.rep.Findings, s.rep.Suppressed = applySuppressions(s.rep.Findings, s.directives, s.names)
	return nil
}
