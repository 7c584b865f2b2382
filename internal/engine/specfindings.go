package engine

// specFindings puts the spec problems of the tree (specFallback) in
// place of the parse errors of the same spec files.
type specFindings struct{}

func (specFindings) name() string { return "spec findings" }

func (specFindings) run(s *state) error {
	s.rep.Findings = append(s.fallback.dropSpecParseErrors(s.rep.Findings), s.fallback.findings...)
	return nil
}
